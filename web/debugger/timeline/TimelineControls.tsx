import { useEffect, useMemo, useRef, useState } from 'react';
import { useServices } from '../../services/AppServices.tsx';
import { useApp, selectPlaying, selectPosition } from '../../store/appStore.ts';
import { SPEEDS } from '../playback.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { TimelineFilters } from './TimelineFilters.tsx';
import { DEBUGGER_KEYS } from '../useDebuggerShortcuts.ts';
import { stepNumber } from '../model/labels.ts';
import { useBreakpointStopSet } from './Timeline.tsx';

/** Transport (start, back, play/pause, forward, end, speed), jumps (block, divergence, breakpoint) and filters. */
export function TimelineControls() {
  const position = useApp(selectPosition);
  const count = useApp((s) => s.trace?.event_count ?? 0);
  const playing = useApp(selectPlaying);
  const speed = useApp((s) => s.speed);
  const hasBreakpoints = useApp((s) => s.breakpoints.length > 0);
  const ready = useApp((s) => s.activeEpoch >= 0);
  const { replay, playback } = useServices();
  const move = replay.move;
  const b = (label: string, key: string, icon: Parameters<typeof DebugIcon>[0]['name'], onClick: () => void, testId: string, disabled = false) => (
    <button className="btn ghost icon" title={`${label} (${key})`} aria-label={label} onClick={onClick} data-testid={testId} disabled={disabled || !ready}>
      <DebugIcon name={icon} size={13} />
    </button>
  );
  return (
    <div className="dbg-controls">
      <div className="dbg-scrub">
        <Scrubber position={position} count={count} disabled={!ready} onScrub={replay.goTo} />
        <ScrubMarks count={count} />
      </div>
      <div className="dbg-transport">
        {b('First step', 'Home', 'first', () => move('first'), 'step-first')}
        {b('Previous step', '←', 'prev', () => move('prev'), 'step-prev')}
        <button className={`btn icon play${playing ? ' on' : ''}`} title={playing ? 'Pause (Space)' : 'Play (Space)'} aria-label={playing ? 'Pause' : 'Play'}
          aria-pressed={playing} onClick={playback.togglePlay} data-testid="play" disabled={!ready}>
          <DebugIcon name={playing ? 'pause' : 'play'} size={13} strokeWidth={2} />
        </button>
        {b('Next step', '→', 'next', () => move('next'), 'step-next')}
        {b('Last step', 'End', 'last', () => move('last'), 'step-last')}
        <select className="select dbg-speed" value={speed} aria-label="Playback speed" data-testid="speed"
          onChange={(e) => useApp.getState().setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => <option key={s} value={s}>{s} / s</option>)}
        </select>
      </div>
      <GoToStep position={position} count={count} />
      <div className="dbg-jumps">
        <button className="btn ghost" title="Next blocked step (B; Shift+B: previous)" onClick={() => void playback.nextBlock()} data-testid="next-block" disabled={!ready} aria-label="Next block">
          <DebugIcon name="block" size={13} /><span className="txt"> Next block</span>
        </button>
        <button className="btn ghost" title="Next step whose decision differs from the recording (D; Shift+D: previous)" onClick={() => void playback.nextDivergence()} data-testid="next-divergence" disabled={!ready} aria-label="Next divergence">
          <DebugIcon name="diverge" size={13} /><span className="txt"> Next divergence</span>
        </button>
        {hasBreakpoints && (
          <button className="btn ghost" title="Jump to the next breakpoint (C)" onClick={() => void playback.runToBreakpoint()} data-testid="run-to-breakpoint" disabled={!ready} aria-label="Next breakpoint">
            <DebugIcon name="run" size={13} /><span className="txt"> Next breakpoint</span>
          </button>
        )}
      </div>
      <ShortcutsHelp />
      <TimelineFilters />
    </div>
  );
}

/**
 * A scrubber over the whole trace (as Redux DevTools' slider): drag it, click along it, or with the keyboard focus
 * on it the arrows move a step, Page Up/Down a tenth of the trace, Home/End to either end (the range input's own
 * keys; the debugger's keys leave a focused input alone). Every value it takes is a step the replay goes to.
 */
function Scrubber({ position, count, disabled, onScrub }: { position: number; count: number; disabled: boolean; onScrub: (index: number) => void }) {
  const last = Math.max(0, count - 1);
  const big = Math.max(1, Math.round(count / 10));
  return (
    <input type="range" className="dbg-scrubber" data-testid="scrubber" min={0} max={last} step={1} value={Math.min(position, last)}
      disabled={disabled || count < 2} aria-label="Scrub through the trace" aria-valuetext={`Step ${stepNumber(position)} of ${count.toLocaleString('en')}`}
      onChange={(e) => onScrub(Number(e.target.value))}
      onKeyDown={(e) => {
        // Page Up/Down: a tenth of the trace (the browser's own page step varies).
        if (e.key !== 'PageUp' && e.key !== 'PageDown') return;
        e.preventDefault();
        onScrub(Math.max(0, Math.min(last, position + (e.key === 'PageDown' ? -big : big))));
      }} />
  );
}

/** At most this many marks of a kind: a long trace's marks are grouped by where they fall on the track. */
const MARK_BUCKETS = 600;
/** Chromium's range thumb: marks sit where the thumb's centre is at that step. */
const THUMB_PX = 16;

type MarkKind = 'block' | 'divergent' | 'label' | 'breakpoint';
const MARK_TITLE: Record<MarkKind, string> = { block: 'blocked', divergent: 'differs from the recording', label: 'labelled', breakpoint: 'a breakpoint stops' };

/**
 * Under the scrubber, where things happen: blocked steps, labelled ones (meta.expect), steps that differ from the
 * recording, and where breakpoints stop — all the engine's answers (the worker's marks, the breakpoints' stops).
 * Decoration only: the scrubber and the timeline carry the same facts for assistive technology.
 */
function ScrubMarks({ count }: { count: number }) {
  const marks = useApp((s) => s.marks);
  const stops = useBreakpointStopSet();
  const ticks = useMemo(() => {
    const out: { kind: MarkKind; step: number; frac: number }[] = [];
    if (count < 2) return out;
    const add = (kind: MarkKind, steps: Iterable<number>) => {
      const seen = new Set<number>();
      for (const i of steps) {
        const bucket = Math.round((i / (count - 1)) * MARK_BUCKETS);
        if (seen.has(bucket)) continue;
        seen.add(bucket);
        out.push({ kind, step: i, frac: i / (count - 1) });
      }
    };
    if (marks) {
      add('label', marks.labelled);
      add('divergent', marks.divergent);
      add('block', marks.blocked);
    }
    add('breakpoint', [...stops].sort((a, b) => a - b));
    return out;
  }, [marks, stops, count]);
  return (
    <div className="dbg-scrub-marks" aria-hidden="true" data-testid="scrub-marks">
      {ticks.map((t) => (
        <span key={`${t.kind}:${t.step}`} className={`mk ${t.kind}`} data-testid="scrub-mark" data-kind={t.kind} data-step={t.step}
          title={`Step ${stepNumber(t.step)}: ${MARK_TITLE[t.kind]}`}
          style={{ left: `calc(${THUMB_PX / 2}px + (100% - ${THUMB_PX}px) * ${t.frac})` }} />
      ))}
    </div>
  );
}

/** The keys, one click away. */
function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  // Escape and a click anywhere else close it, as popovers do.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setOpen(false);
    };
    const onDown = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onDown, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onDown, true);
    };
  }, [open]);
  return (
    <span className="dbg-keys" ref={box}>
      <button className="btn ghost icon" title="Keyboard shortcuts" aria-label="Keyboard shortcuts" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="shortcuts">
        <DebugIcon name="keyboard" size={15} />
      </button>
      {open && (
        <div className="dbg-keys-pop" role="note" aria-label="Keyboard shortcuts" data-testid="shortcuts-help" onMouseLeave={() => setOpen(false)}>
          <table>
            <tbody>
              {DEBUGGER_KEYS.map((k) => <tr key={k.keys}><td><span className="kbd">{k.keys}</span></td><td>{k.what}</td></tr>)}
            </tbody>
          </table>
        </div>
      )}
    </span>
  );
}

/** "Step [12,040] of 25,932": type a number and press Enter to jump there. */
function GoToStep({ position, count }: { position: number; count: number }) {
  const { replay } = useServices();
  const [text, setText] = useState(stepNumber(position));
  useEffect(() => setText(count ? stepNumber(position) : '0'), [position, count]);
  const commit = () => {
    // The field shows the number as the rest of the app does ("12,040"): separators are not digits.
    const n = Number.parseInt(text.replace(/[^0-9]/g, ''), 10);
    if (Number.isFinite(n) && n - 1 !== position) replay.goTo(n - 1);
    else if (!Number.isFinite(n)) setText(stepNumber(position));
  };
  return (
    <label className="dbg-position" data-testid="position" data-position={position}>
      Step
      <input className="input mono" value={text} inputMode="numeric" aria-label="Go to step" data-testid="goto-step"
        style={{ width: `${Math.max(3, stepNumber(Math.max(0, count - 1)).length + 1.5)}ch` }}
        onChange={(e) => setText(e.target.value.replace(/[^0-9]/g, ''))}
        onKeyDown={(e) => { if (e.key === 'Enter') { commit(); (e.target as HTMLInputElement).blur(); } if (e.key === 'Escape') setText(stepNumber(position)); }}
        onBlur={commit} />
      of {count.toLocaleString('en')}
    </label>
  );
}
