import { latestWins } from '../services/latestWins.ts';
import type { AppStore } from '../store/appStore.ts';
import { engineBreakpoint } from './model/breakpoints.ts';
import type { ReplayService } from './replayService.ts';
import type { BreakpointResult } from './worker/protocol.ts';

/**
 * Where each breakpoint stops, as the engine's search says [R18], kept in the store for the timeline's and the
 * scrubber's marks and asked for again whenever the breakpoints or the replayed pipeline change. Play and "next
 * breakpoint" read the same answers once they are there (`known`), and before that ask the worker for the next stop
 * alone (playback.ts): the same engine search either way, so what is marked is where playback stops.
 */
export interface BreakpointStops {
  /** The answers for the breakpoints as they are now when they have arrived, else null (nothing is asked). */
  known(): ReadonlyMap<string, BreakpointResult> | null;
  dispose(): void;
}

/** What the answers were asked for: the session and each breakpoint's search. */
export function breakpointsKey(epoch: number, list: readonly { id: string; spec: unknown }[]): string {
  return JSON.stringify([epoch, list]);
}

export function createBreakpointStops(store: AppStore, replay: ReplayService): BreakpointStops {
  const s = () => store.getState();
  const wanted = () => {
    const st = s();
    const list = st.breakpoints.map((b) => ({ id: b.id, spec: engineBreakpoint(b) }));
    return { epoch: st.activeEpoch, list, key: breakpointsKey(st.activeEpoch, list) };
  };
  async function fetch(w: ReturnType<typeof wanted>): Promise<ReadonlyMap<string, BreakpointResult>> {
    const a = await replay.client.request({ kind: 'breakpoints', list: w.list });
    const byId = new Map(a.value.map((x) => [x.id, x.result] as const));
    // Kept only while it is still what the store would ask for (no edit, no new session meanwhile).
    if (a.epoch === w.epoch && wanted().key === w.key) s().breakpointStopsArrived({ key: w.key, byId });
    return byId;
  }
  // While breakpoints are being edited only the newest list is searched for the marks.
  const ask = latestWins(fetch);

  const refresh = () => {
    const w = wanted();
    if (w.list.length === 0 || w.epoch < 0) {
      ask.invalidate();
      if (s().breakpointStops !== null) s().breakpointStopsArrived(null);
      return;
    }
    // Marks wait for the timeline: the search needs the whole fast pass anyway.
    if (!s().timeline) return;
    if (s().breakpointStops?.key !== w.key) void ask(w).catch(() => undefined);
  };
  const unsubscribe = store.subscribe((st, prev) => {
    // Dropped stops (the trace's events were relabelled) are asked for again too.
    const dropped = st.breakpointStops === null && prev.breakpointStops !== null;
    if (st.breakpoints !== prev.breakpoints || st.activeEpoch !== prev.activeEpoch || st.timeline !== prev.timeline || dropped) refresh();
  });
  refresh();
  const known = () => {
    const have = s().breakpointStops;
    return have && have.key === wanted().key ? have.byId : null;
  };
  return { known, dispose: unsubscribe };
}
