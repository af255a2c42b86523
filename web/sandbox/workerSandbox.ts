import { type HookEvent, type JsonObject, type Pipeline, type Problem, type CodeRunReport, type CodeRunSpec as CodeSpec, COMPILE_TIMEOUT_MS, DEFAULT_CODE_TIMEOUT_MS, type SandboxLimits } from '../../engine/app.ts';
import { isCodeNode } from '../model/codeProblems.ts';
import type { NodeRunOutcome, SandboxReply, SandboxRequest } from './workerProtocol.ts';

/**
 * The page's handle on the sandbox worker. Requests are queued and sent one at a time. A watchdog
 * terminates a worker that does not answer in time (the sandbox stops code at its deadline; the watchdog is
 * for what the sandbox cannot stop) and the next request gets a fresh worker [S9].
 */
export interface WorkerSandbox {
  /** Compiles `spec` and runs it once per input, off the page's thread. Never rejects. */
  run(spec: CodeSpec, inputs: JsonObject[], limits: SandboxLimits, options?: { watchdogMs?: number }): Promise<CodeRunReport[]>;
  /**
   * The engine's `code_error` problems of a document's code nodes, compiled in the worker (checkCode.ts).
   * `null` when the worker did not answer in time. Never rejects.
   */
  check(doc: Pipeline): Promise<Problem[] | null>;
  /** Runs one node of `doc` alone on `event` [X7] (runNodeIn.ts), code in the sandbox. Never rejects. */
  runNode(doc: Pipeline, nodeId: string, event: HookEvent, vars: JsonObject): Promise<NodeRunOutcome>;
  /** Workers started so far (1 until a watchdog fired). */
  workers(): number;
  dispose(): void;
}

/** Time allowed past the limits for moving messages. */
const GRACE_MS = 5000;
/** Time allowed for a new worker to load QuickJS before its first request's own watchdog starts. */
const LOAD_MS = 60_000;

type Request = SandboxRequest extends infer R ? (R extends SandboxRequest ? Omit<R, 'id'> : never) : never;

interface Job {
  request: Request;
  watchdogMs: number;
  onReply: (reply: SandboxReply) => void;
  onTimeout: (message: string) => void;
}

export function createWorkerSandbox(): WorkerSandbox {
  let worker: Worker | null = null;
  /** The current worker has said it loaded QuickJS. */
  let loaded: Promise<void> = Promise.resolve();
  let started = 0;
  let nextId = 1;
  const queue: Job[] = [];
  let busy = false;

  function ensureWorker(): Worker {
    if (!worker) {
      const w = new Worker(new URL('./sandboxWorker.ts', import.meta.url), { type: 'module', name: 'hookwire-sandbox' });
      worker = w;
      started++;
      loaded = new Promise((resolve) => {
        const onReady = (event: MessageEvent<SandboxReply>) => {
          if (event.data.kind !== 'ready') return;
          w.removeEventListener('message', onReady);
          resolve();
        };
        w.addEventListener('message', onReady);
      });
    }
    return worker;
  }

  function pump(): void {
    if (busy) return;
    const job = queue.shift();
    if (!job) return;
    busy = true;
    const w = ensureWorker();
    const id = nextId++;
    const finish = (settle: () => void) => {
      settled = true;
      clearTimeout(timer);
      w.removeEventListener('message', onMessage);
      busy = false;
      settle();
      pump();
    };
    const onMessage = (event: MessageEvent<SandboxReply>) => {
      if (event.data.id === id) finish(() => job.onReply(event.data));
    };
    const expire = (ms: number, what: string) => () => {
      w.terminate();
      if (worker === w) worker = null;
      finish(() => job.onTimeout(`the sandbox worker did not ${what} within ${ms} ms and was restarted`));
    };
    // The request's own watchdog starts once the worker has loaded QuickJS (a slow load is not the code's fault).
    let timer = setTimeout(expire(LOAD_MS, 'load QuickJS'), LOAD_MS);
    let settled = false;
    void loaded.then(() => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(expire(job.watchdogMs, 'answer'), job.watchdogMs);
    });
    w.addEventListener('message', onMessage);
    w.postMessage({ id, ...job.request } satisfies SandboxRequest);
  }

  function send(job: Job): void {
    queue.push(job);
    pump();
  }

  return {
    run(spec, inputs, limits, options = {}) {
      const watchdogMs = options.watchdogMs ?? COMPILE_TIMEOUT_MS + limits.timeoutMs * inputs.length + GRACE_MS;
      return new Promise((resolve) => {
        send({
          request: { kind: 'run', spec, inputs, limits },
          watchdogMs,
          onReply: (reply) => resolve(reply.kind === 'run' ? reply.reports : []),
          onTimeout: (message) => resolve([{ ok: false, stage: 'call', error: { kind: 'host', message }, logs: [], duration_ms: watchdogMs }]),
        });
      });
    },
    check(doc) {
      // Each module's top level runs once, under the compile limit.
      const watchdogMs = COMPILE_TIMEOUT_MS * doc.nodes.filter(isCodeNode).length + GRACE_MS;
      return new Promise((resolve) => {
        send({
          request: { kind: 'check', doc },
          watchdogMs,
          onReply: (reply) => resolve(reply.kind === 'check' ? reply.problems : null),
          onTimeout: () => resolve(null),
        });
      });
    },
    runNode(doc, nodeId, event, vars) {
      // Compiling runs each code module's top level; then the node runs once (a code node under its own limit).
      const node = doc.nodes.find((n) => n.id === nodeId);
      const own = node?.kind === 'handler' ? node.timeout_ms ?? (node.action.type === 'code' ? node.action.timeout_ms : undefined) : node?.kind === 'matcher' ? node.code?.timeout_ms : undefined;
      const watchdogMs = COMPILE_TIMEOUT_MS * doc.nodes.filter(isCodeNode).length + (own ?? DEFAULT_CODE_TIMEOUT_MS) + GRACE_MS;
      return new Promise((resolve) => {
        send({
          request: { kind: 'runNode', doc, nodeId, event, vars },
          watchdogMs,
          onReply: (reply) => resolve(reply.kind === 'runNode' ? reply.outcome : { ok: false, message: 'The sandbox worker gave no answer.' }),
          onTimeout: (message) => resolve({ ok: false, message: `The run was stopped: ${message}.` }),
        });
      });
    },
    workers: () => started,
    dispose() {
      worker?.terminate();
      worker = null;
    },
  };
}

let shared: WorkerSandbox | null = null;

/** The page's one sandbox worker for the editor (trial runs, code checks); the worker starts on first use. */
export function pageWorkerSandbox(): WorkerSandbox {
  shared ??= createWorkerSandbox();
  return shared;
}
