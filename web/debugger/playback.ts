import { findAndGo, goTo, replayClient } from './debuggerController.ts';
import { useDebugger } from './debuggerStore.ts';
import { breakpointLabel, breakpointQuery, nearestHit } from './model/breakpoints.ts';
import { moveTo } from './model/stepNavigation.ts';

/**
 * Play, pause and breakpoints. Before playing, the worker finds the nearest step any breakpoint matches
 * (the engine's step search [R11]); playback walks there at the chosen speed and pauses on it.
 */
const store = () => useDebugger.getState();
let token = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

export const SPEEDS = [1, 2, 5, 10, 25] as const;

/** The next step a breakpoint stops at after `from`, and the labels of the breakpoints that stop there. */
export async function nextBreakpoint(from: number): Promise<{ index: number; labels: string[] }> {
  const s = store();
  if (s.breakpoints.length === 0 || s.activeEpoch < 0) return { index: -1, labels: [] };
  const c = replayClient();
  const hits = await Promise.all(s.breakpoints.map((b) => c.request({ kind: 'find', queries: [breakpointQuery(b)], from, direction: 'forward' }).then((a) => a.value)));
  const index = nearestHit(hits, 'forward');
  const name = (id: string) => s.handlers.find((h) => h.id === id)?.name;
  return { index, labels: s.breakpoints.filter((_, k) => hits[k] === index).map((b) => breakpointLabel(b, name)) };
}

export async function play(): Promise<void> {
  const s = store();
  if (s.playing || !s.trace) return;
  const mine = ++token;
  s.set({ playing: true, pausedAt: null });
  let stop: { index: number; labels: string[] };
  try {
    stop = await nextBreakpoint(s.position);
  } catch {
    stop = { index: -1, labels: [] };
  }
  if (mine !== token) return;
  const tick = () => {
    if (mine !== token) return;
    const now = store();
    const count = now.trace?.event_count ?? 0;
    let next = moveTo(now.position, count, now.visible, 'next');
    // A breakpoint stops playback even on a step the filter hides.
    if (stop.index > now.position && (next <= now.position || stop.index < next)) next = stop.index;
    if (next <= now.position) {
      pause();
      return;
    }
    goTo(next);
    if (next === stop.index) {
      pause();
      store().set({ pausedAt: { index: next, label: stop.labels.join(', ') } });
      return;
    }
    timer = setTimeout(tick, 1000 / store().speed);
  };
  tick();
}

export function pause(): void {
  token++;
  clearTimeout(timer);
  if (store().playing) store().set({ playing: false });
}

export function togglePlay(): void {
  if (store().playing) pause();
  else void play();
}

/** Jumps straight to the next step a breakpoint stops at. */
export async function runToBreakpoint(): Promise<void> {
  pause();
  const stop = await nextBreakpoint(store().position);
  if (stop.index < 0) return;
  goTo(stop.index);
  store().set({ pausedAt: { index: stop.index, label: stop.labels.join(', ') } });
}

export const nextBlock = (direction: 'forward' | 'backward' = 'forward') => findAndGo([{ kind: 'blocked' }], direction);
export const nextDivergence = (direction: 'forward' | 'backward' = 'forward') => findAndGo([{ kind: 'divergent' }], direction);
