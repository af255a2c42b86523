import { nextStop } from '../../engine/app.ts';
import type { BreakpointSpec } from '../../engine/app.ts';
import type { AppStore } from '../store/appStore.ts';
import type { SearchFor } from '../store/debuggerSlice.ts';
import type { BreakpointStops } from './breakpointStops.ts';
import { breakpointLabel, engineBreakpoint, isEnabled, nodeNamer } from './model/breakpoints.ts';
import { moveTo } from './model/stepNavigation.ts';
import type { ReplayService } from './replayService.ts';

/**
 * Play, pause, breakpoints, B and D. The next stop of any enabled breakpoint is the engine's [R18]: read from the marks'
 * answers once they are there (breakpointStops.ts), else searched for in the worker, which answers at that stop
 * (with progress, cancelled by Escape or Cancel). "Next breakpoint" waits for it on the step it was on; play walks
 * on meanwhile at the chosen speed, never past the steps searched, and pauses on it.
 */
export const SPEEDS = [1, 2, 5, 10, 25] as const;

export interface Playback {
  /**
   * The next step a breakpoint stops at after `from`, and the labels of the breakpoints that stop there; null when
   * the search was cancelled (Escape, Cancel, a step chosen meanwhile, another pipeline replayed).
   */
  nextBreakpoint(from: number, byPlay?: boolean): Promise<{ index: number; labels: string[] } | null>;
  play(): Promise<void>;
  /** Stops playing and any search the person waits for: the debugger stays on the step it shows. */
  pause(): void;
  togglePlay(): void;
  /** Jumps straight to the next step a breakpoint stops at; resolves to it (-1: none, or cancelled). */
  runToBreakpoint(): Promise<number>;
  /** Stops the running search (its Cancel button); the step shown stays. */
  cancelSearch(): void;
  /**
   * B / Shift+B: goes to the next (previous) blocked step [R11]; resolves to it (-1: none, or cancelled). Forward
   * before the marks are in, a search the person waits for, as "next breakpoint" is.
   */
  nextBlock(direction?: 'forward' | 'backward'): Promise<number>;
  /** D / Shift+D: as `nextBlock`, for a step whose decision differs from the recording. */
  nextDivergence(direction?: 'forward' | 'backward'): Promise<number>;
  dispose(): void;
}

/** No stop is known yet: play walks on only as far as the search has looked. */
const UNKNOWN = null;

export function createPlayback(store: AppStore, replay: ReplayService, stops: BreakpointStops): Playback {
  const s = () => store.getState();
  let token = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** A jump that finds nothing says so, instead of doing nothing. */
  const say = async (found: Promise<number>, none: string) => {
    const index = await found;
    if (index < 0 && s().activeEpoch >= 0) s().toast({ tone: 'info', message: none });
    return index;
  };

  function cancelSearch(): void {
    const running = s().search;
    if (!running) return;
    s().searchEnded(running.id);
    void replay.client.request({ kind: 'cancelSearch', search: running.id }).catch(() => undefined);
  }

  async function nextBreakpoint(from: number, byPlay = false): Promise<{ index: number; labels: string[] } | null> {
    const st = s();
    const enabled = st.breakpoints.filter(isEnabled);
    if (enabled.length === 0 || st.activeEpoch < 0) return { index: -1, labels: [] };
    const name = nodeNamer(st.doc);
    const labelsOf = (ids: readonly string[]) => enabled.filter((b) => ids.includes(b.id)).map((b) => breakpointLabel(b, name));
    // Every stop known (the marks' search finished): the first after the step, at once.
    const byId = stops.known();
    if (byId) {
      const next = enabled.map((b) => {
        const r = byId.get(b.id);
        return r?.ok ? nextStop(r.stops, from) : -1;
      });
      const found = next.filter((n) => n >= 0);
      const index = found.length === 0 ? -1 : Math.min(...found);
      return { index, labels: index < 0 ? [] : labelsOf(enabled.filter((_, k) => next[k] === index).map((b) => b.id)) };
    }
    // Else the worker searches from the step and answers at the first stop [R18], a chunk at a time.
    const found = await searchAfter(enabled.map((b) => ({ id: b.id, spec: engineBreakpoint(b) })), from, 'breakpoint', byPlay);
    return found && { index: found.index, labels: labelsOf(found.ids) };
  }

  /**
   * The worker's search for the first step after `from` where any of `list` stops [R18], answered at that stop, with
   * progress in the SearchNote and cancelled by Escape, Cancel or another step; null when cancelled.
   */
  async function searchAfter(list: { id: string; spec: BreakpointSpec }[], from: number, what: SearchFor, byPlay: boolean): Promise<{ index: number; ids: readonly string[] } | null> {
    cancelSearch();
    const id = replay.newSearchId();
    const epoch = s().activeEpoch;
    s().searchStarted({ id, from, done: from, total: s().trace?.event_count ?? 0, byPlay, what });
    try {
      const a = await replay.client.request({ kind: 'nextBreakpoint', search: id, list, from });
      if (a.value.cancelled || s().search?.id !== id || a.epoch !== epoch || s().activeEpoch !== epoch) return null;
      return a.value;
    } finally {
      s().searchEnded(id);
    }
  }

  /**
   * B / D: the next blocked or divergent step [R11]. Forward, it is the first stop of a breakpoint on that step search
   * [R18]: read from the scrubber's marks once they are in (the engine's `stepsWhere`), else searched for as "next
   * breakpoint" is, answered at the first match while the trace is still replaying, with progress and Cancel.
   * Backward, the worker reads only the steps before this one (the replay has passed them) and answers at the
   * nearest match: nothing to wait for.
   */
  async function seek(query: 'blocked' | 'divergent', direction: 'forward' | 'backward', none: string): Promise<number> {
    const st = s();
    if (!st.trace || st.activeEpoch < 0) return -1;
    if (direction === 'backward') return say(replay.findAndGo([{ kind: query }], direction), none);
    const from = st.position;
    const marks = st.marks?.[query];
    let index: number;
    if (marks) index = nextStop(marks, from);
    else {
      // A search the person waits for: playing stops (its own search would be replaced by this one anyway).
      pause();
      const found = await searchAfter([{ id: query, spec: { step: { kind: query } } }], from, query === 'blocked' ? 'block' : 'divergence', false);
      if (found === null || s().position !== from) return -1;
      index = found.index;
    }
    if (index < 0) s().toast({ tone: 'info', message: none });
    else replay.goTo(index);
    return index;
  }

  function pause(): void {
    token++;
    clearTimeout(timer);
    s().playStopped();
    cancelSearch();
  }

  async function play(): Promise<void> {
    const st = s();
    if (st.playing || !st.trace) return;
    const mine = ++token;
    st.playStarted();
    // Play walks while the search runs, never past the steps it has looked at.
    let stop: { index: number; labels: string[] } | typeof UNKNOWN = UNKNOWN;
    nextBreakpoint(st.position, true).then(
      (found) => {
        if (mine !== token) return;
        if (found === null) pause();
        else stop = found;
      },
      () => {
        if (mine === token) stop = { index: -1, labels: [] };
      },
    );
    const tick = () => {
      if (mine !== token) return;
      const now = s();
      let next = moveTo(now.position, now.trace?.event_count ?? 0, now.visible, 'next');
      if (stop === UNKNOWN) {
        // Not known yet: walk only over steps the search has looked at (those before `done`).
        const looked = now.search?.done ?? now.position;
        if (next >= looked) {
          timer = setTimeout(tick, 50);
          return;
        }
      } else if (stop.index > now.position && (next <= now.position || stop.index < next)) {
        // A breakpoint stops playback even on a step the filter hides.
        next = stop.index;
      }
      if (next <= now.position) {
        pause();
        return;
      }
      replay.goTo(next);
      if (stop !== UNKNOWN && next === stop.index) {
        pause();
        s().pausedOn(next, stop.labels.join(', '));
        return;
      }
      timer = setTimeout(tick, 1000 / s().speed);
    };
    tick();
  }

  // A step chosen while "next breakpoint" searches: the person has moved on, so the search stops.
  const unsubscribe = store.subscribe((now, prev) => {
    if (now.position !== prev.position && now.search && !now.search.byPlay && now.position !== now.search.from) cancelSearch();
  });

  return {
    nextBreakpoint,
    play,
    pause,
    cancelSearch,
    togglePlay: () => (s().playing ? pause() : void play()),
    async runToBreakpoint() {
      pause();
      const from = s().position;
      const stop = await nextBreakpoint(from);
      if (stop === null || s().position !== from) return -1;
      if (stop.index < 0) {
        if (s().activeEpoch >= 0 && s().breakpoints.some(isEnabled)) s().toast({ tone: 'info', message: 'No breakpoint stops after this step.' });
        return -1;
      }
      replay.goTo(stop.index);
      s().pausedOn(stop.index, stop.labels.join(', '));
      return stop.index;
    },
    nextBlock: (direction = 'forward') => seek('blocked', direction, `No blocked step ${direction === 'forward' ? 'after' : 'before'} this one.`),
    nextDivergence: (direction = 'forward') => seek('divergent', direction, `No step ${direction === 'forward' ? 'after' : 'before'} this one decides differently from the recording.`),
    dispose: unsubscribe,
  };
}
