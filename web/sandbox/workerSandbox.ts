import type { JsonObject } from '../../engine/model/json.ts';
import type { CodeRunReport, CodeSpec } from '../../engine/sandbox/runCode.ts';
import { COMPILE_TIMEOUT_MS } from '../../engine/sandbox/quickjsSandbox.ts';
import type { SandboxLimits } from '../../engine/sandbox/types.ts';
import type { RunReply, RunRequest } from './workerProtocol.ts';

/**
 * The page's handle on the sandbox worker. Runs are queued and sent one at a time. A watchdog terminates a
 * worker that does not answer in time (the sandbox stops code at its deadline; the watchdog is for what
 * the sandbox cannot stop) and the next run gets a fresh worker [S9].
 */
export interface WorkerSandbox {
  /** Compiles `spec` and runs it once per input, off the page's thread. Never rejects. */
  run(spec: CodeSpec, inputs: JsonObject[], limits: SandboxLimits, options?: { watchdogMs?: number }): Promise<CodeRunReport[]>;
  /** Workers started so far (1 until a watchdog fired). */
  workers(): number;
  dispose(): void;
}

/** Time allowed past the limits for loading QuickJS and moving messages. */
const GRACE_MS = 5000;

interface Job {
  request: Omit<RunRequest, 'id'>;
  watchdogMs: number;
  resolve: (reports: CodeRunReport[]) => void;
}

export function createWorkerSandbox(): WorkerSandbox {
  let worker: Worker | null = null;
  let started = 0;
  let nextId = 1;
  const queue: Job[] = [];
  let busy = false;

  function ensureWorker(): Worker {
    if (!worker) {
      worker = new Worker(new URL('./sandboxWorker.ts', import.meta.url), { type: 'module', name: 'hookwire-sandbox' });
      started++;
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
    const finish = (reports: CodeRunReport[]) => {
      clearTimeout(timer);
      w.removeEventListener('message', onMessage);
      busy = false;
      job.resolve(reports);
      pump();
    };
    const onMessage = (event: MessageEvent<RunReply>) => {
      if (event.data.id === id) finish(event.data.reports);
    };
    const timer = setTimeout(() => {
      w.terminate();
      if (worker === w) worker = null;
      const message = `the sandbox worker did not answer within ${job.watchdogMs} ms and was restarted`;
      finish([{ ok: false, stage: 'call', error: { kind: 'host', message }, logs: [], duration_ms: job.watchdogMs }]);
    }, job.watchdogMs);
    w.addEventListener('message', onMessage);
    w.postMessage({ id, ...job.request } satisfies RunRequest);
  }

  return {
    run(spec, inputs, limits, options = {}) {
      const watchdogMs = options.watchdogMs ?? COMPILE_TIMEOUT_MS + limits.timeoutMs * inputs.length + GRACE_MS;
      return new Promise((resolve) => {
        queue.push({ request: { spec, inputs, limits }, watchdogMs, resolve });
        pump();
      });
    },
    workers: () => started,
    dispose() {
      worker?.terminate();
      worker = null;
    },
  };
}
