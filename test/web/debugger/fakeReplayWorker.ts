import type { ReplayHandlers, RequestEnvelope, SessionEvent, WorkerLike, WorkerMessage } from '../../../web/debugger/worker/protocol.ts';
import { answerRequest } from '../../../web/debugger/worker/protocol.ts';

/**
 * A replay worker in the test's own thread: requests are answered by handlers typed against the same
 * protocol map as the real worker's (protocol.ts `ReplayHandlers`), asynchronously as a worker's are, and
 * the test can hold answers back, emit session events and make the worker fail.
 */
export interface FakeWorker extends WorkerLike {
  /** Every request received, in order. */
  received: RequestEnvelope['request'][];
  emit(epoch: number, event: SessionEvent): void;
  fail(message: string): void;
  terminated: boolean;
}

export interface FakeWorkers {
  make: () => WorkerLike;
  /** Workers made so far (a restart makes another). */
  all: FakeWorker[];
  latest(): FakeWorker;
}

export function fakeReplayWorkers(handlers: ReplayHandlers): FakeWorkers {
  const all: FakeWorker[] = [];
  const make = () => {
    const w: FakeWorker = {
      received: [],
      onmessage: null,
      onerror: null,
      terminated: false,
      postMessage(envelope: RequestEnvelope) {
        // Structured clone, as postMessage does: the page never shares objects with the worker.
        const { id, request } = structuredClone(envelope);
        w.received.push(request);
        const deliver = (m: WorkerMessage) => {
          if (!w.terminated) w.onmessage?.({ data: m } as MessageEvent<WorkerMessage>);
        };
        void answerRequest(handlers, request).then(
          ({ value, epoch }) => deliver({ type: 'reply', id, epoch, ok: true, value }),
          (e: unknown) => deliver({ type: 'reply', id, epoch: -1, ok: false, error: e instanceof Error ? e.message : String(e) }),
        );
      },
      emit(epoch, event) {
        if (!w.terminated) w.onmessage?.({ data: { type: 'event', epoch, event } } as MessageEvent<WorkerMessage>);
      },
      fail(message) {
        w.onerror?.({ message } as ErrorEvent);
      },
      terminate() {
        w.terminated = true;
      },
    };
    all.push(w);
    return w;
  };
  return { make, all, latest: () => all[all.length - 1]! };
}

/** A promise the test settles by hand. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}
