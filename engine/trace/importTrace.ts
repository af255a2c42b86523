import type { TraceFormat } from './detectTraceFormat.ts';
import { createImportStream, type ImportTraceOutcome } from './importStream.ts';

export { contentHash, type ImportTraceOutcome } from './importStream.ts';

export interface ImportTraceOptions {
  /** Used for a hint when the content is unclear, in the header's source, and for a trace id. */
  fileName?: string;
  /** The file's whole path, when there is one (see ImportStreamOptions.filePath). */
  filePath?: string;
  /** Read the input as this format (refused when the content is clearly another). */
  format?: TraceFormat;
}

/**
 * Imports a whole input held in one string [I1]: the import pipeline (importStream.ts) fed in one push.
 * Never throws for bad input.
 *
 * @example const { trace, report, problems } = importTrace(text, { fileName: 'session.jsonl' });
 */
export function importTrace(text: string, options: ImportTraceOptions = {}): ImportTraceOutcome {
  const stream = createImportStream(options);
  stream.push(text);
  return stream.end();
}
