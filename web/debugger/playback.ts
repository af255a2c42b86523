import { nextStop } from '../../engine/app.ts';
import type { AppStore } from '../store/appStore.ts';
import type { BreakpointStops } from './breakpointStops.ts';
import { breakpointLabel, isEnabled, nodeNamer } from './model/breakpoints.ts';
import { moveTo } from './model/stepNavigation.ts';
import type { ReplayService } from './replayService.ts';

/**
 * Play, pause and breakpoints. Before playing, the next stop of any enabled breakpoint is read from the
 * engine's answers (breakpointStops.ts [R18]); playback walks there at the chosen speed and pauses on it.
 */
export const SPEEDS = [1, 2, 5, 10, 25] as const;

export interface Playback {
  /** The next step a breakpoint stops at after `from`, and the labels of the breakpoints that stop there. */
  nextBreakpoint(from: number): Promise<{ index: number; labels: string[] }>;
  play(): Promise<void>;
  pause(): void;
  togglePlay(): void;
  /** Jumps straight to the next step a breakpoint stops at; resolves to it (-1: none). */
  runToBreakpoint(): Promise<number>;
  nextBlock(direction?: 'forward' | 'backward'): Promise<number>;
  nextDivergence(direction?: 'forward' | 'backward'): Promise<number>;
}

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

  async function nextBreakpoint(from: number) {
    const st = s();
    const enabled = st.breakpoints.filter(isEnabled);
    if (enabled.length === 0 || st.activeEpoch < 0) return { index: -1, labels: [] };
    const byId = await stops.current();
    const next = enabled.map((b) => {
      const r = byId.get(b.id);
      return r?.ok ? nextStop(r.stops, from) : -1;
    });
    const found = next.filter((n) => n >= 0);
    const index = found.length === 0 ? -1 : Math.min(...found);
    const name = nodeNamer(st.doc);
    return { index, labels: enabled.filter((_, k) => next[k] === index && index >= 0).map((b) => breakpointLabel(b, name)) };
  }

  function pause(): void {
    token++;
    clearTimeout(timer);
    s().playStopped();
  }

  async function play(): Promise<void> {
    const st = s();
    if (st.playing || !st.trace) return;
    const mine = ++token;
    st.playStarted();
    let stop: { index: number; labels: string[] };
    try {
      stop = await nextBreakpoint(st.position);
    } catch {
      stop = { index: -1, labels: [] };
    }
    if (mine !== token) return;
    const tick = () => {
      if (mine !== token) return;
      const now = s();
      let next = moveTo(now.position, now.trace?.event_count ?? 0, now.visible, 'next');
      // A breakpoint stops playback even on a step the filter hides.
      if (stop.index > now.position && (next <= now.position || stop.index < next)) next = stop.index;
      if (next <= now.position) {
        pause();
        return;
      }
      replay.goTo(next);
      if (next === stop.index) {
        pause();
        s().pausedOn(next, stop.labels.join(', '));
        return;
      }
      timer = setTimeout(tick, 1000 / s().speed);
    };
    tick();
  }

  return {
    nextBreakpoint,
    play,
    pause,
    togglePlay: () => (s().playing ? pause() : void play()),
    async runToBreakpoint() {
      pause();
      const stop = await nextBreakpoint(s().position);
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
  };
}
