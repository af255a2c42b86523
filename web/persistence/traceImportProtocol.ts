import type { ImportFileResult, ImportProgress } from './importTraceFile.ts';

/** Page → import worker: the file (a `File` is cloned to the worker without copying its bytes) and the trace id. */
export interface ImportWorkerRequest {
  file: File;
  id: string;
}

/** Import worker → page. */
export type ImportWorkerReply =
  | { type: 'progress'; progress: ImportProgress }
  | { type: 'done'; result: ImportFileResult }
  | { type: 'error'; message: string };
