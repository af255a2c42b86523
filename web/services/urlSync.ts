import type { AppStore } from '../store/appStore.ts';
import type { Mode } from '../store/shellSlice.ts';

/**
 * The app's place in the URL's search params: `?mode=debug&pipeline=<id>&trace=<id>&step=<n>` (step is
 * 1-based, as on screen). A change of mode, pipeline or trace is a new history entry (Back goes back to
 * it); moving between steps replaces the entry, so Back does not walk the timeline. A reload or a shared
 * link lands on the same place. Values from the URL are untrusted: ids must look like ids, the step is
 * a bounded integer, anything else is ignored.
 */
export interface Place {
  /** Null when the URL does not say (a first visit to `/`): the mode in use stays. */
  mode: Mode | null;
  pipeline: string | null;
  trace: string | null;
  /** 0-based step index. */
  step: number | null;
}

const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export function parsePlace(search: string): Place {
  const p = new URLSearchParams(search);
  const id = (k: string) => {
    const v = p.get(k);
    return v !== null && ID.test(v) ? v : null;
  };
  const stepText = p.get('step');
  const step = stepText !== null && /^[0-9]{1,9}$/.test(stepText) && Number(stepText) >= 1 ? Number(stepText) - 1 : null;
  const mode = p.get('mode');
  return { mode: mode === 'debug' || mode === 'edit' || mode === 'backtest' ? mode : null, pipeline: id('pipeline'), trace: id('trace'), step };
}

export function formatPlace(place: Place, base: string): string {
  const p = new URLSearchParams(base);
  for (const k of ['mode', 'pipeline', 'trace', 'step']) p.delete(k);
  if (place.mode) p.set('mode', place.mode);
  if (place.pipeline) p.set('pipeline', place.pipeline);
  if (place.mode === 'debug' && place.trace) p.set('trace', place.trace);
  if (place.mode === 'debug' && place.trace && place.step !== null) p.set('step', String(place.step + 1));
  return `?${p.toString()}`;
}

export interface UrlSyncDeps {
  store: AppStore;
  openPipeline(id: string): Promise<void>;
  openTrace(id: string): Promise<void>;
  goTo(index: number): void;
  window: Window;
  /**
   * The user switched mode while the app was starting (before this sync): the landing URL's mode does
   * not switch it back. Without this, Debug clicked during start-up flipped back to Edit.
   */
  modeChosen?: boolean;
}

function placeOf(store: AppStore): Place {
  const s = store.getState();
  return { mode: s.mode, pipeline: s.pipelineId, trace: s.traceId, step: s.trace ? s.position : null };
}

/** Starts after the app is ready: goes to the URL's place, then keeps the URL in step with the store. */
export function startUrlSync({ store, openPipeline, openTrace, goTo, window: win, modeChosen = false }: UrlSyncDeps): () => void {
  let applying = false;

  async function apply(place: Place): Promise<void> {
    applying = true;
    try {
      const s = store.getState();
      if (place.pipeline && place.pipeline !== s.pipelineId) await openPipeline(place.pipeline).catch(() => undefined);
      if (place.mode && place.mode !== store.getState().mode) store.getState().setMode(place.mode);
      if (place.mode === 'debug' && place.trace && place.trace !== store.getState().traceId) await openTrace(place.trace).catch(() => undefined);
      if (place.mode === 'debug' && place.step !== null && store.getState().traceId === place.trace && place.step !== store.getState().position) goTo(place.step);
    } finally {
      applying = false;
    }
    write(false);
  }

  function write(push: boolean): void {
    const url = formatPlace(placeOf(store), win.location.search) + win.location.hash;
    if (url === win.location.search + win.location.hash) return;
    if (push) win.history.pushState(null, '', url);
    else win.history.replaceState(null, '', url);
  }

  const unsubscribe = store.subscribe((s, prev) => {
    if (applying) return;
    // Something opening where nothing was (the first pipeline, the last trace on entering Debug) fills in
    // the current entry; a switch from one to another is a new one.
    const moved = s.mode !== prev.mode || (prev.pipelineId !== null && s.pipelineId !== prev.pipelineId) || (prev.traceId !== null && s.traceId !== prev.traceId);
    if (moved) write(true);
    else if (s.pipelineId !== prev.pipelineId || s.traceId !== prev.traceId || s.position !== prev.position) write(false);
  });
  const onPop = () => void apply(parsePlace(win.location.search));
  win.addEventListener('popstate', onPop);
  const landing = parsePlace(win.location.search);
  void apply(modeChosen ? { ...landing, mode: store.getState().mode } : landing);
  return () => {
    unsubscribe();
    win.removeEventListener('popstate', onPop);
  };
}
