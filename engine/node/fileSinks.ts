// Node sinks for the runtime [P5][P7][K1]: append lines or JSON records to files. The runtime hands records over
// one at a time and in order, so plain appends keep the file in order.
import { mkdirSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sink } from '../runtime/sinkQueue.ts';
import type { TraceHeader } from '../trace/traceTypes.ts';
import { createChainWriter, type ChainWriter } from '../trace/hashChain.ts';
import { chainTailOfFile } from './chainedFile.ts';

/** Appends each text as is (trace lines end with their own newline). */
export function appendLinesTo(path: string): Sink<string> {
  return (line) => appendFile(path, line);
}

/**
 * Appends each record as one JSON line (an audit log, a raw event log), each line carrying the hash chain,
 * continued from the file's last line [K1][K3]. The runtime delivers one record at a time, so the chain's
 * order is the file's.
 */
export function jsonLinesTo<T>(path: string): Sink<T> {
  let writer: Promise<ChainWriter> | null = null;
  return async (record) => {
    writer ??= chainTailOfFile(path).then((tail) => createChainWriter(tail));
    const out = (await writer).prepare(`${JSON.stringify(record)}\n`);
    await appendFile(path, out.text);
    out.commit();
  };
}

/**
 * `RuntimeOptions.record` that writes each trace to `<dir>/<trace_id>.hwtrace.jsonl` (the id made safe for a
 * file name), a file the debugger and `hookwire replay` open as is.
 */
export function recordToDirectory(dir: string): (header: TraceHeader) => Sink<string> {
  mkdirSync(dir, { recursive: true });
  return (header) => appendLinesTo(join(dir, `${header.trace_id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200)}.hwtrace.jsonl`));
}
