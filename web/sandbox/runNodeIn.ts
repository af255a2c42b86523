import { compilePipeline, type DispatchState, type HookEvent, type Pipeline, runNode, type Sandbox, trackPrograms } from '../../engine/app.ts';
import type { NodeRunOutcome } from './workerProtocol.ts';

/** What one node run needs: the document, the node, the event, the state before it and the clock's time. */
export interface NodeRunInput {
  doc: Pipeline;
  nodeId: string;
  event: HookEvent;
  state: DispatchState;
  now: number;
}

/**
 * Runs one node of a document alone on one event with the engine's `runNode` [X7], where a sandbox is (the
 * sandbox worker for a typed event, the replay worker for a trace step): the document is compiled with its
 * code, so a code node runs in the real sandbox. Every program compiled is released after, as in checkCode.ts.
 * `sandbox` null: the document has no code. The clock is fixed (`now`), so a run repeats exactly.
 */
export function runNodeIn(sandbox: Sandbox | null, request: NodeRunInput): NodeRunOutcome {
  const tracking = sandbox ? trackPrograms(sandbox) : null;
  try {
    const compiled = compilePipeline(request.doc, tracking ? { sandbox: tracking.sandbox } : {});
    if (!compiled.ok) {
      const errors = compiled.problems.filter((p) => p.severity === 'error');
      return { ok: false, message: `The pipeline does not load (${errors.length} error${errors.length === 1 ? '' : 's'}): fix it in Problems, then run again.`, problems: errors };
    }
    const { now } = request;
    const run = runNode(compiled.compiled, request.nodeId, request.event, request.state, { clock: { now: () => now }, timer: () => performance.now() });
    if (!run) return { ok: false, message: `The pipeline has no node "${request.nodeId}" (it was deleted).` };
    return { ok: true, run };
  } finally {
    tracking?.releaseAll();
  }
}
