import { compilePipeline, initialState, runNode, type Sandbox, trackPrograms } from '../../engine/app.ts';
import type { NodeRunOutcome, RunNodeRequest } from './workerProtocol.ts';

/**
 * Runs one node of a document alone on one event with the engine's `runNode` [X7], where the sandbox is (the
 * sandbox worker, sandboxWorker.ts): the document is compiled with its code, so a code node runs in the real
 * sandbox. Every program compiled is released after, as in checkCode.ts. The clock is the event's time, so a
 * run repeats exactly.
 */
export function runNodeIn(sandbox: Sandbox, request: Omit<RunNodeRequest, 'id' | 'kind'>): NodeRunOutcome {
  const tracking = trackPrograms(sandbox);
  try {
    const compiled = compilePipeline(request.doc, { sandbox: tracking.sandbox });
    if (!compiled.ok) {
      const errors = compiled.problems.filter((p) => p.severity === 'error');
      return { ok: false, message: `The pipeline does not load (${errors.length} error${errors.length === 1 ? '' : 's'}): fix it in Problems, then run again.`, problems: errors };
    }
    const at = Date.parse(request.event.ts);
    const now = Number.isFinite(at) ? at : 0;
    const run = runNode(compiled.compiled, request.nodeId, request.event, initialState(request.vars), { clock: { now: () => now }, timer: () => performance.now() });
    if (!run) return { ok: false, message: `The pipeline has no node "${request.nodeId}" (it was deleted).` };
    return { ok: true, run };
  } finally {
    tracking.releaseAll();
  }
}
