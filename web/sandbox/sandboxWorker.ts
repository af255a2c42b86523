/// <reference lib="webworker" />
import '../zodConfig.ts';
import { initialState, runCodeOn } from '../../engine/app.ts';
import { checkCode } from './checkCode.ts';
import { runNodeIn } from './runNodeIn.ts';
import { createBrowserSandbox } from './loadQuickJS.ts';
import type { SandboxReply, SandboxRequest } from './workerProtocol.ts';

/**
 * The sandbox in a Web Worker: code runs off the page's thread, so the tab keeps answering while a
 * handler loops, and the page can terminate the worker if it ever stops answering (workerSandbox.ts).
 * Requests are handled one at a time, in order, as the sandbox itself is synchronous.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const ready = createBrowserSandbox();
// Loading QuickJS can take seconds on a busy machine: the page's watchdog counts from here, not from the first request.
void ready.then(() => scope.postMessage({ id: 0, kind: 'ready' } satisfies SandboxReply));

/** A typed event runs at its own time (a step runs at the replay's, in the replay worker). */
function eventTime(ts: string): number {
  const at = Date.parse(ts);
  return Number.isFinite(at) ? at : 0;
}

scope.onmessage = async (event: MessageEvent<SandboxRequest>) => {
  const request = event.data;
  const sandbox = await ready;
  const reply: SandboxReply =
    request.kind === 'check'
      ? { id: request.id, kind: 'check', problems: checkCode(sandbox, request.doc) }
      : request.kind === 'runNode'
        ? { id: request.id, kind: 'runNode', outcome: runNodeIn(sandbox, { ...request, state: initialState(request.vars), now: eventTime(request.event.ts) }) }
        : { id: request.id, kind: 'run', reports: runCodeOn(sandbox, request.spec, request.inputs, request.limits) };
  scope.postMessage(reply);
};
