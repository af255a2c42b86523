import type { Pipeline, Problem } from '../../engine/app.ts';
import { hasCode } from '../model/codeProblems.ts';
import { latestWins } from '../services/latestWins.ts';
import type { AppStore } from '../store/appStore.ts';

/**
 * Keeps the editor's `code_error` problems current: a little after each edit, the open document goes to
 * the sandbox worker, where the engine's loader compiles its code nodes (web/sandbox/checkCode.ts), and
 * the answer goes to the store, which joins it to the page's own validation. User code never runs on the
 * page's thread. A document without code needs no check, and QuickJS is not even loaded.
 */
export const CODE_CHECK_DEBOUNCE_MS = 300;

/** Checks of one version asked again after the worker's watchdog replaced it. */
const MAX_RETRIES = 3;

export type CheckFn = (doc: Pipeline) => Promise<Problem[] | null>;

const workerCheck: CheckFn = (doc) => import('../sandbox/workerSandbox.ts').then((m) => m.pageWorkerSandbox().check(doc));

const loads = (problems: readonly Problem[]) => !problems.some((p) => p.severity === 'error');

/** Starts following the open document; returns the function that stops. */
export function startCodeCheck(store: AppStore, check: CheckFn = workerCheck, debounceMs = CODE_CHECK_DEBOUNCE_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const latest = latestWins(check);

  const run = async () => {
    // One snapshot: the page's problems are those of this very document (loaded now if typing left them behind).
    store.getState().lint();
    const { doc, docProblems, pipelineId, codeProblems, setCodeProblems, docLoaded } = store.getState();
    if (!doc) return;
    if (!hasCode(doc)) {
      latest.invalidate();
      if (codeProblems.length > 0) setCodeProblems([]);
      if (loads(docProblems)) docLoaded(doc);
      return;
    }
    const answer = await latest(doc);
    if (stopped || !answer.current || store.getState().pipelineId !== pipelineId) return;
    if (answer.value === null) {
      // The worker did not answer in time and was replaced: ask the fresh one (a few times), or the problems never come.
      if (retries++ < MAX_RETRIES) schedule();
      return;
    }
    retries = 0;
    store.getState().setCodeProblems(answer.value);
    // The debugger replays this version when a later one does not load (debugger/replayService.ts).
    if (loads(docProblems) && loads(answer.value)) store.getState().docLoaded(doc);
  };
  let retries = 0;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  };

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.doc !== prev.doc || s.pipelineId !== prev.pipelineId) {
      retries = 0;
      schedule();
    }
  });
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}
