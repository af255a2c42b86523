import { nextStop } from '../../engine/app.ts';
import type { AppStore } from '../store/appStore.ts';
import type { BreakpointStops } from './breakpointStops.ts';
import { breakpointLabel, engineBreakpoint, isEnabled, nodeNamer } from './model/breakpoints.ts';
import { moveTo } from './model/stepNavigation.ts';
import type { ReplayService } from './replayService.ts';

/**
 * Play, pause and breakpoints. The next stop of any enabled breakpoint is the engine's [R18]: read from the marks'
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
  nextBlock(direction?: 'forward' | 'backward'): Promise<number>;
  nextDivergence(direction?: 'forward' | 'backward'): Promise<number>;
  dispose(): void;
}

/** No stop is known yet: play walks on only as far as the search has looked. */
const UNKNOWN = null;

export function createPlayback(store: AppStore, replay: ReplayService, stops: BreakpointStops): Playback {
  const s = () => store.getState();
  let token = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let searches = 0;

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
    cancelSearch();
    const id = ++searches;
    const epoch = st.activeEpoch;
    s().searchStarted({ id, from, done: from, total: st.trace?.event_count ?? 0, byPlay });
    try {
      const list = enabled.map((b) => ({ id: b.id, spec: engineBreakpoint(b) }));
      const a = await replay.client.request({ kind: 'nextBreakpoint', search: id, list, from });
      if (a.value.cancelled || s().search?.id !== id || a.epoch !== epoch || s().activeEpoch !== epoch) return null;
      return { index: a.value.index, labels: labelsOf(a.value.ids) };
    } finally {
      s().searchEnded(id);
    }
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
    nextBlock: (direction = 'forward') => say(replay.findAndGo([{ kind: 'blocked' }], direction), `No blocked step ${direction === 'forward' ? 'after' : 'before'} this one.`),
    nextDivergence: (direction = 'forward') => say(replay.findAndGo([{ kind: 'divergent' }], direction), `No step ${direction === 'forward' ? 'after' : 'before'} this one decides differently from the recording.`),
    dispose: unsubscribe,
  };
}
