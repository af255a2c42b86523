import type { ReplayAnswers, ReplayKind, RequestEnvelope, RequestOf, SessionEvent, WorkerLike, WorkerMessage } from './worker/protocol.ts';

/**
 * The page's handle on the replay worker: requests with promised answers (tagged with the epoch of the
 * session that answered), session events, and a restart that terminates a worker that is busy too long
 * (a pipeline whose code handlers run to their time limit on every event) and starts a fresh one.
 */
export interface Answer<T> {
  epoch: number;
  value: T;
}

export interface ReplayClient {
  request<K extends ReplayKind>(request: RequestOf<K>): Promise<Answer<ReplayAnswers[K]>>;
  /** When the oldest unanswered request was sent (performance.now), or null when none is waiting. */
  busySince(): number | null;
  /** Terminates the worker (pending requests are rejected with a `Restarted` error) and starts a new one. */
  restart(): void;
  /** Workers started so far. */
  workers(): number;
  dispose(): void;
}

export class RestartedError extends Error {
  constructor() {
    super('the replay worker was restarted');
    this.name = 'Restarted';
  }
}

interface Pending {
  resolve: (a: Answer<unknown>) => void;
  reject: (e: Error) => void;
  sent: number;
}

export type MakeWorker = () => WorkerLike;

/** The app's replay worker (web/main.tsx passes this to startApp; unit tests pass a fake). */
export const makeReplayWorker: MakeWorker = () =>
  new Worker(new URL('./worker/replayWorker.ts', import.meta.url), { type: 'module', name: 'hookwire-replay' }) as unknown as WorkerLike;

export function createReplayClient(makeWorker: MakeWorker, onEvent: (epoch: number, event: SessionEvent) => void): ReplayClient {
  let worker: WorkerLike | null = null;
  let started = 0;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const onMessage = (e: MessageEvent<WorkerMessage>) => {
    const m = e.data;
    if (m.type === 'event') {
      onEvent(m.epoch, m.event);
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve({ epoch: m.epoch, value: m.value });
    else p.reject(new Error(m.error));
  };

  const ensure = (): WorkerLike => {
    if (!worker) {
      worker = makeWorker();
      worker.onmessage = onMessage;
      worker.onerror = (e) => onEvent(-1, { kind: 'failed', message: e.message || 'the replay worker failed' });
      started++;
    }
    return worker;
  };

  const stop = () => {
    worker?.terminate();
    worker = null;
    for (const p of pending.values()) p.reject(new RestartedError());
    pending.clear();
  };

  return {
    request(request) {
      const w = ensure();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (a: Answer<unknown>) => void, reject, sent: performance.now() });
        w.postMessage({ id, request } satisfies RequestEnvelope);
      });
    },
    busySince() {
      let oldest: number | null = null;
      for (const p of pending.values()) if (oldest === null || p.sent < oldest) oldest = p.sent;
      return oldest;
    },
    restart() {
      stop();
      ensure();
    },
    workers: () => started,
    dispose: stop,
  };
}
