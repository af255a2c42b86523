import { memo, useEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { timelineStep, type ReplayTimeline } from '../../../engine/app.ts';
import { useServices } from '../../services/AppServices.tsx';
import { useApp, selectPosition, selectTimeline, selectVisible } from '../../store/appStore.ts';
import { OUTCOME_LABEL, OUTCOME_LONG, stepNumber } from '../model/labels.ts';
import { rowOf } from '../model/stepNavigation.ts';
import { useRowsVersion } from '../rowCache.ts';
import type { RowInfo } from '../worker/protocol.ts';
import { isEnabled } from '../model/breakpoints.ts';

/** The steps an enabled breakpoint stops at [R18] (the engine's answers, kept in the store). */
export function useBreakpointStopSet(): ReadonlySet<number> {
  const stops = useApp((s) => s.breakpointStops);
  const breakpoints = useApp((s) => s.breakpoints);
  return useMemo(() => {
    const out = new Set<number>();
    for (const b of breakpoints) {
      const r = isEnabled(b) ? stops?.byId.get(b.id) : undefined;
      if (r?.ok) for (const i of r.stops) out.add(i);
    }
    return out;
  }, [stops, breakpoints]);
}

const ROW = 28;

/**
 * Every event of the trace in order, virtualised (only the rows on screen exist): type, payload summary,
 * flags and the replayed decision as a badge — all read from the engine's timeline [R10].
 */
export function Timeline() {
  const count = useApp((s) => s.trace?.event_count ?? 0);
  const visible = useApp(selectVisible);
  const position = useApp(selectPosition);
  const timeline = useApp(selectTimeline);
  const filtering = useApp((s) => s.filtering);
  const changed = useApp((s) => s.diff);
  const { replay } = useServices();
  useRowsVersion(replay.rows);
  const scroller = useRef<HTMLDivElement>(null);
  const rows = visible ? visible.length : count;
  const v = useVirtualizer({ count: rows, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 10 });
  const changedSet = useMemo(() => new Set(changed?.changed.map((c) => c.index) ?? []), [changed]);
  const stopSet = useBreakpointStopSet();
  // Rows whose recorded payload the person chose to see (a rewritten row shows the pipeline's result).
  const revealed = useApp((s) => s.revealed);
  const toggleReveal = useApp((s) => s.toggleReveal);

  // Keep the current step in view as it moves (keys, playback, jumps); a row already in view is left
  // alone, since scrolling reads the layout and costs a frame's worth of work on a long list.
  useEffect(() => {
    if (rows === 0) return;
    const row = rowOf(position, visible);
    const shown = v.getVirtualItems();
    const el = scroller.current;
    const first = shown.find((it) => el && it.start >= el.scrollTop);
    const last = [...shown].reverse().find((it) => el && it.end <= el.scrollTop + el.clientHeight);
    if (first && last && row >= first.index && row <= last.index) return;
    v.scrollToIndex(row, { align: 'auto' });
  }, [position, visible, rows, v]);

  if (visible && visible.length === 0) {
    return <div className="empty" data-testid="timeline-empty">{filtering ? 'Filtering…' : 'No event matches the filters.'}</div>;
  }
  return (
    <div className="dbg-timeline" ref={scroller} role="listbox" aria-label="Timeline" data-testid="timeline" tabIndex={0}>
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => {
          const index = visible ? visible[item.index]! : item.index;
          return (
            <Row key={index} index={index} row={replay.rows.rowAt(index)} top={item.start} current={index === position} timeline={timeline} changed={changedSet.has(index)} breaks={stopSet.has(index)}
              revealed={revealed.has(index)} onReveal={toggleReveal} />
          );
        })}
      </div>
    </div>
  );
}

/** One row; memoised, so moving the current step redraws two rows, not all of them. */
const Row = memo(function Row({ index, row, top, current, timeline, changed, breaks, revealed, onReveal }: {
  index: number; row: RowInfo | undefined; top: number; current: boolean; timeline: ReplayTimeline | null; changed: boolean; breaks: boolean;
  revealed: boolean; onReveal: (index: number) => void;
}) {
  const { replay } = useServices();
  const step = timeline ? timelineStep(timeline, index) : null;
  // A step the pipeline rewrote shows what the pipeline made of the payload (a redacted secret stays
  // redacted), or a mask until that arrives; the recorded payload only on a deliberate reveal.
  const rewritten = step?.payload_changed === true;
  const summary = !row ? '' : !rewritten || revealed ? row.summary : row.rewritten ?? '•••';
  const outcome = step?.outcome ?? null;
  const cls = ['dbg-row', current && 'current', step?.counterfactual && 'counterfactual', step?.not_reached && 'not-reached'].filter(Boolean).join(' ');
  return (
    <div className={cls} style={{ transform: `translateY(${top}px)` }} role="option" aria-selected={current}
      data-testid="timeline-row" data-index={index} data-outcome={outcome ?? ''} data-recorded={step?.recorded ?? ''} onClick={() => replay.goTo(index)}>
      <span className="num">
        {breaks && <span className="dbg-bp-mark" data-testid="row-breakpoint" title="A breakpoint stops here" aria-label="breakpoint" />}
        {stepNumber(index)}
      </span>
      <span className="type mono" title={row?.type}>{row?.type ?? '…'}</span>
      <span className="summary" title={summary} data-testid="row-summary" data-shows={rewritten ? (revealed ? 'recorded' : 'rewritten') : 'recorded'}>{summary}</span>
      <span className="flags">
        {changed && <span className="flag changed" title="Decides differently from the pinned version">changed</span>}
        {step?.divergent ? (
          <span className="flag diverge" title="The replayed decision differs from the recorded one">
            ≠ recorded {step.recorded ? OUTCOME_LABEL[step.recorded].toLowerCase() : ''}
          </span>
        ) : null}
        {step?.reason_differs ? (
          <span className="flag reason" data-testid="row-reason" title="The recorded decision, but for another reason or by another handler">≠ recorded reason</span>
        ) : null}
        {step?.error ? <span className="flag error">error</span> : null}
        {step?.payload_changed ? <span className="flag rewrite">rewritten</span> : null}
        {rewritten && row && (
          // Not a button: a control inside an option is nested-interactive for assistive technology; the
          // keyboard's way is R on the current step (DEBUGGER_KEYS), the pointer's is this flag.
          <span className="flag dbg-reveal" data-testid="row-reveal" data-pressed={revealed}
            title={`${revealed ? 'Show what the pipeline made of it' : 'Show the payload as recorded (before the rewrite)'} (R on the current step)`}
            onClick={(e) => { e.stopPropagation(); onReveal(index); }}>{revealed ? 'as rewritten' : 'recorded'}</span>
        )}
        {row?.label ? (
          <span className="flag label" data-testid="row-label" data-expects={row.label}
            title={row.label === 'unreadable' ? 'Labelled, but the label does not read (see the step)' : `Labelled: a person expects ${OUTCOME_LONG[row.label]}`}>
            {row.label === 'unreadable' ? 'label?' : `expects ${OUTCOME_LABEL[row.label].toLowerCase()}`}
          </span>
        ) : null}
        {step?.duplicate ? <span className="flag">repeat</span> : null}
        {step?.context ? <span className="flag context" title="Handlers added text for the model">context</span> : null}
      </span>
      <span className={`dec dec-${outcome ?? 'pending'}`} data-testid="row-decision" data-denied={outcome === 'ask' && step?.denied ? 'true' : undefined}>
        {outcome ? OUTCOME_LABEL[outcome] : '…'}{outcome === 'ask' && step?.denied ? ' · denied' : ''}
      </span>
    </div>
  );
});
