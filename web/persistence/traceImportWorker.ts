/// <reference lib="webworker" />
import '../zodConfig.ts';
import { HookwireDb } from './db.ts';
import { importTraceFile, type ImportProgress } from './importTraceFile.ts';
import type { ImportWorkerReply, ImportWorkerRequest } from './traceImportProtocol.ts';

/**
 * Imports trace files off the page's thread, one after another (the page sends the next once this one is done:
 * traceImporter.ts): reading, parsing and writing 100,000 events takes seconds, and the page must keep drawing
 * its progress bar. The page cancels by terminating this worker.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (reply: ImportWorkerReply) => scope.postMessage(reply);
// One connection for every file this worker imports; it closes with the worker.
const db = new HookwireDb();

scope.onmessage = async (event: MessageEvent<ImportWorkerRequest>) => {
  const { file, id } = event.data;
  let last = 0;
  const onProgress = (p: ImportProgress) => {
    const now = performance.now();
    if (now - last < 80 && p.phase === 'reading' && p.done < p.total) return;
    last = now;
    post({ type: 'progress', progress: p });
  };
  try {
    post({ type: 'done', result: await importTraceFile(db, file, { id, onProgress }) });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  }
};
