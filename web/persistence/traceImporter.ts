import type { HookwireDb } from './db.ts';
import type { ImportFileResult, ImportProgress } from './importTraceFile.ts';
import type { ImportWorkerReply, ImportWorkerRequest } from './traceImportProtocol.ts';
import { removeTraceNow } from './traceLibrary.ts';

/** A running import: its progress, its outcome (null when cancelled) and a cancel that leaves nothing behind. */
export interface ImportJob {
  id: string;
  fileName: string;
  size: number;
  result: Promise<ImportFileResult | null>;
  cancel(): Promise<void>;
}

/**
 * Starts importing a file in a worker of its own (traceImportWorker.ts). Cancelling terminates the worker at
 * once, whatever it is doing, and removes what it had written.
 */
export function startTraceImport(db: HookwireDb, file: File, onProgress: (p: ImportProgress) => void): ImportJob {
  const id = crypto.randomUUID();
  const worker = new Worker(new URL('./traceImportWorker.ts', import.meta.url), { type: 'module', name: 'hookwire-trace-import' });
  let settle: (r: ImportFileResult | null) => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  let finished = false;
  const result = new Promise<ImportFileResult | null>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const end = () => {
    finished = true;
    worker.terminate();
  };
  worker.onmessage = (e: MessageEvent<ImportWorkerReply>) => {
    const m = e.data;
    if (m.type === 'progress') onProgress(m.progress);
    else if (m.type === 'done') {
      end();
      settle(m.result);
    } else {
      end();
      fail(new Error(m.message));
    }
  };
  worker.onerror = (e) => {
    end();
    fail(new Error(e.message || 'the import worker failed to start'));
  };
  worker.postMessage({ file, id } satisfies ImportWorkerRequest);
  return {
    id,
    fileName: file.name,
    size: file.size,
    result,
    async cancel() {
      if (finished) return;
      end();
      await removeTraceNow(db, id);
      settle(null);
    },
  };
}
