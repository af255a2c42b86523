import type { Pipeline } from '../../engine/model/pipelineSchema.ts';
import type { Problem } from '../../engine/model/problem.ts';
import { hasCode } from '../model/codeProblems.ts';
import { useEditor } from '../store/editorStore.ts';

/**
 * Keeps the editor's `code_error` problems current: a little after each edit, the open document goes to
 * the sandbox worker, where the engine's loader compiles its code nodes (web/sandbox/checkCode.ts), and
 * the answer goes to the store, which joins it to the page's own validation. User code never runs on the
 * page's thread. A document without code needs no check, and QuickJS is not even loaded.
 */
export const CODE_CHECK_DEBOUNCE_MS = 300;

export type CheckFn = (doc: Pipeline) => Promise<Problem[] | null>;

const workerCheck: CheckFn = (doc) => import('../sandbox/workerSandbox.ts').then((m) => m.pageWorkerSandbox().check(doc));

/** Starts following the open document; returns the function that stops. */
export function startCodeCheck(check: CheckFn = workerCheck, debounceMs = CODE_CHECK_DEBOUNCE_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sent = 0;
  let stopped = false;

  const run = async () => {
    const { doc, pipelineId, codeProblems, setCodeProblems } = useEditor.getState();
    if (!doc) return;
    if (!hasCode(doc)) {
      if (codeProblems.length > 0) setCodeProblems([]);
      return;
    }
    const gen = ++sent;
    const problems = await check(doc);
    // Answers come back in order; a later check is on its way when this one is not the last sent.
    if (stopped || problems === null || gen !== sent || useEditor.getState().pipelineId !== pipelineId) return;
    useEditor.getState().setCodeProblems(problems);
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  };

  const unsubscribe = useEditor.subscribe((s, prev) => {
    if (s.doc !== prev.doc || s.pipelineId !== prev.pipelineId) schedule();
  });
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}
