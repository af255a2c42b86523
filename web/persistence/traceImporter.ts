import type { HookwireDb } from './db.ts';
import type { ImportFileResult, ImportProgress } from './importTraceFile.ts';
import type { ImportWorkerReply, ImportWorkerRequest } from './traceImportProtocol.ts';
import { removeTraceNow } from './traceLibrary.ts';

/** A queued or running import: its outcome (null when cancelled) and a cancel that leaves nothing behind. */
export interface ImportJob {
  id: string;
  fileName: string;
  size: number;
  result: Promise<ImportFileResult | null>;
  cancel(): Promise<void>;
}

/** What the page hears of one import: when it leaves the queue, and its progress while it runs. */
export interface ImportListener {
  started(): void;
  progress(p: ImportProgress): void;
}

/** An import worker as the pool drives it: one file at a time, replies through the callbacks it was made with. */
export interface ImportPort {
  post(request: ImportWorkerRequest): void;
  terminate(): void;
}
export type CreateImportPort = (reply: (m: ImportWorkerReply) => void, crash: (message: string) => void) => ImportPort;

export interface TraceImporter {
  /** Queues a file; it starts once a worker is free (the queue is first come, first served). */
  start(file: File, listener: ImportListener): ImportJob;
}

/**
 * Workers importing at once. Each file of a picked folder used to start a worker of its own, all at once: 200
 * files were 200 workers compiling the same 350 KB bundle and writing to IndexedDB together, the page's thread
 * stalled for seconds and no trace was ready before the last one was (e2e/measure/importProfile.ts). Two keep
 * both cores of a small machine busy and leave the page its turn; a worker imports one file after another.
 */
export const IMPORT_WORKERS = 2;

/** The real worker (traceImportWorker.ts). */
export const createImportWorker: CreateImportPort = (reply, crash) => {
  const worker = new Worker(new URL('./traceImportWorker.ts', import.meta.url), { type: 'module', name: 'hookwire-trace-import' });
  worker.onmessage = (e: MessageEvent<ImportWorkerReply>) => reply(e.data);
  worker.onerror = (e) => crash(e.message || 'the import worker failed to start');
  return { post: (request) => worker.postMessage(request), terminate: () => worker.terminate() };
};

interface Entry {
  job: ImportJob;
  file: File;
  listener: ImportListener;
  settle(r: ImportFileResult | null): void;
  fail(e: Error): void;
  port: Slot | null;
}

interface Slot {
  port: ImportPort;
  entry: Entry | null;
}

/**
 * Imports files through a few workers, each reused for file after file (traceImportWorker.ts). Cancelling a
 * waiting file takes it off the queue (nothing was written); cancelling a running one terminates its worker at
 * once, whatever it is doing, and removes what it had written; the next file gets a fresh worker. Workers left
 * idle once the queue is empty end.
 */
export function createTraceImporter(db: HookwireDb, { workers = IMPORT_WORKERS, createPort = createImportWorker }: { workers?: number; createPort?: CreateImportPort } = {}): TraceImporter {
  const queue: Entry[] = [];
  const slots = new Set<Slot>();

  function spawn(): Slot {
    const slot: Slot = { port: null as unknown as ImportPort, entry: null };
    slot.port = createPort(
      (m) => {
        const entry = slot.entry;
        if (!entry) return;
        if (m.type === 'progress') entry.listener.progress(m.progress);
        else {
          finish(slot, false);
          if (m.type === 'done') entry.settle(m.result);
          else entry.fail(new Error(m.message));
        }
      },
      (message) => {
        const entry = slot.entry;
        finish(slot, true);
        entry?.fail(new Error(message));
      },
    );
    slots.add(slot);
    return slot;
  }

  /** The slot's file is over: a worker that failed or was cancelled ends, a sound one takes the next file. */
  function finish(slot: Slot, end: boolean): void {
    if (slot.entry) slot.entry.port = null;
    slot.entry = null;
    if (end) {
      slots.delete(slot);
      slot.port.terminate();
    }
    pump();
  }

  function pump(): void {
    for (const slot of slots) {
      if (slot.entry) continue;
      const next = queue.shift();
      if (next) run(slot, next);
    }
    while (queue.length > 0 && slots.size < workers) run(spawn(), queue.shift()!);
    // Nothing waits: idle workers end (a worker holds its own heap and an IndexedDB connection).
    if (queue.length > 0) return;
    for (const slot of [...slots]) {
      if (slot.entry) continue;
      slots.delete(slot);
      slot.port.terminate();
    }
  }

  function run(slot: Slot, entry: Entry): void {
    slot.entry = entry;
    entry.port = slot;
    entry.listener.started();
    slot.port.post({ file: entry.file, id: entry.job.id });
  }

  return {
    start(file, listener) {
      let settle: (r: ImportFileResult | null) => void = () => undefined;
      let fail: (e: Error) => void = () => undefined;
      const result = new Promise<ImportFileResult | null>((resolve, reject) => {
        settle = resolve;
        fail = reject;
      });
      let over = false;
      const entry: Entry = {
        file,
        listener,
        port: null,
        settle: (r) => { over = true; settle(r); },
        fail: (e) => { over = true; fail(e); },
        job: {
          id: crypto.randomUUID(),
          fileName: file.name,
          size: file.size,
          result,
          async cancel() {
            if (over) return;
            over = true;
            const at = queue.indexOf(entry);
            if (at >= 0) queue.splice(at, 1);
            else if (entry.port) {
              finish(entry.port, true);
              await removeTraceNow(db, entry.job.id);
            }
            settle(null);
          },
        },
      };
      queue.push(entry);
      // Started after the caller holds the job (its listener may name it), and after the rest of a batch is queued.
      queueMicrotask(pump);
      return entry.job;
    },
  };
}
