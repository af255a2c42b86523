// Node-only file reading on top of the pure trace reader and the import pipeline (engine/trace/). The pure
// code takes decoded text; this file is only the byte source: it decodes bytes (decodedChunks keeps multi-byte
// characters whole across chunks) and turns file-system failures into problems.
import type { IdIndexFactory, RecordStore } from '../model/idIndex.ts';
import type { TraceFormat } from '../trace/detectTraceFormat.ts';
import { createImportStream, type ImportStreamOptions, type ImportTraceOutcome } from '../trace/importStream.ts';
import type { TraceEvent, TraceHeader } from '../trace/traceTypes.ts';
import { createTraceReader, type TraceReaderOptions, type TraceReadResult } from '../trace/traceReader.ts';
import { traceProblem } from '../trace/traceProblem.ts';
import { decodedChunks } from './decodedChunks.ts';
import { assembleOpenCodeSession } from './openCodeStorage.ts';
import { claudeSubagentFiles } from './claudeSubagents.ts';
import { dirname } from 'node:path';
import { isSqliteFile, openSqliteStore, splitSessionPath, walBytes, type SqliteStore } from './sqliteSessions.ts';
import type { StoreCache } from './storeSessions.ts';

/**
 * Bytes per chunk read from disk. Below V8's large-object size (128 KiB), so each chunk's text is an ordinary young
 * string: a chunk of 256 KiB or 1 MiB goes to the large-object space, and reading 31 MB of trace in 1 MiB chunks
 * cost ~300 ms more CPU than in 64 KiB ones (split + JSON.parse alone: 780 against 450 ms, 7 interleaved runs;
 * `replay --json` of 100k events 2.77 → 2.04 s, docs/speed.md).
 */
export const CHUNK_BYTES = 64 * 1024;

export interface ReadTraceFileOptions extends TraceReaderOptions {
  /** Bytes per chunk read from disk (default CHUNK_BYTES). */
  chunkBytes?: number;
  /** Awaited after each chunk: backpressure, e.g. until stdout has drained what `onEvent` wrote. */
  afterChunk?: () => Promise<void>;
}

/**
 * Streams a trace v1 file through the pure reader [T3]: the file is never held whole, and with
 * `onEvent` neither are its events. A file that cannot be read is a fatal `unreadable` problem.
 *
 * @example const r = await readTraceFile('run.hwtrace.jsonl'); if (r.status !== 'failed') replay(r.events);
 */
export async function readTraceFile(path: string, options: ReadTraceFileOptions = {}): Promise<TraceReadResult> {
  const reader = createTraceReader(options);
  try {
    for await (const chunk of decodedChunks(path, options.chunkBytes ?? CHUNK_BYTES)) {
      reader.push(chunk);
      if (options.afterChunk) await options.afterChunk();
      // Past a fatal verdict (binary, not a trace) nothing more is read: `/dev/zero` never ends [T3].
      if (reader.done) break;
    }
  } catch (err) {
    return unreadable(path, err);
  }
  return reader.end();
}

export interface ImportTraceFileOptions {
  format?: TraceFormat;
  /** Cap for formats that are parsed whole (see createImportStream); default its own. */
  maxDocumentChars?: number;
  /** Bytes per chunk read from disk (default CHUNK_BYTES). */
  chunkBytes?: number;
  /**
   * When given, each event is handed here in trace order and the outcome's `trace.events` is empty: a trace
   * v1 file is then streamed and never held (other formats are parsed whole first).
   */
  onEvent?: (event: TraceEvent) => void;
  /** See ReadTraceFileOptions.afterChunk: awaited after each chunk the pipeline took. */
  afterChunk?: () => Promise<void>;
  /** Where a trace v1 reader keeps the ids it has seen (default a Map; see engine/node/spillFile.ts). */
  ids?: IdIndexFactory;
  /** Where an importer keeps the records it holds to the end of a document (see ImportStreamOptions.spool). */
  spool?: RecordStore;
  /** See ImportStreamOptions.onHeader: the header before the first event, when the importer knows it by then. */
  onHeader?: (header: TraceHeader) => void;
  /** Where an SQLite store stays open between its sessions (a backtest reads them one after another); without it each import opens and closes its own. */
  stores?: StoreCache;
}

/**
 * Imports any supported file [I1]: the file's bytes, decoded, go through the engine's one import
 * pipeline (createImportStream), which detects the format, streams what streams and buffers the rest up
 * to its cap. Reading stops as soon as the pipeline says nothing more will be read (binary data, past the
 * cap). With `onEvent`, events are handed over and not kept.
 */
export async function importTraceFile(path: string, options: ImportTraceFileOptions = {}): Promise<ImportTraceOutcome> {
  const fileName = path.split(/[\\/]/).pop() ?? path;
  const streamOptions: ImportStreamOptions = { fileName, filePath: path };
  if (options.format) streamOptions.format = options.format;
  if (options.maxDocumentChars !== undefined) streamOptions.maxDocumentChars = options.maxDocumentChars;
  if (options.onEvent) streamOptions.onEvent = options.onEvent;
  if (options.ids) streamOptions.ids = options.ids;
  if (options.spool) streamOptions.spool = options.spool;
  if (options.onHeader) streamOptions.onHeader = options.onHeader;
  // One session of an SQLite store (goose's sessions.db, OpenCode's opencode.db): `<file>#<session id>` [I22].
  const { file, session } = splitSessionPath(path);
  if (isSqliteFile(file)) {
    const store = await (options.stores ? options.stores.open(file) : openSqliteStore(file));
    if ('error' in store) return { format: null, trace: null, report: null, problems: [traceProblem('bad_source', 0, store.error, 'error', true)] };
    try {
      return importStoreSession(store, file, session, streamOptions);
    } finally {
      if (!options.stores) store.close();
    }
  }
  const s = createImportStream(streamOptions);
  // An OpenCode storage session file: its messages and parts live in sibling folders [I18].
  const assembled = assembleOpenCodeSession(path);
  if (assembled !== null) {
    // A message at a time, as a file's chunks go [I1].
    for (const piece of assembled) {
      s.push(piece);
      if (s.stopped) break;
      if (options.afterChunk) await options.afterChunk();
    }
    return s.end();
  }
  try {
    for await (const chunk of decodedChunks(path, options.chunkBytes ?? CHUNK_BYTES)) {
      s.push(chunk);
      if (s.stopped) break;
      if (options.afterChunk) await options.afterChunk();
    }
  } catch (err) {
    return { format: null, trace: null, report: null, problems: unreadable(path, err).problems };
  }
  const out = s.end();
  // A Claude Code session's subagents (2.1.233 and later) are in files of their own: said, never left out silently.
  const subagents = out.format === 'claude-code' ? claudeSubagentFiles(path) : [];
  if (subagents.length > 0) {
    const shown = subagents.slice(0, 5).join(', ');
    out.problems = [...out.problems, traceProblem('bad_source', 0, `${subagents.length} subagent transcript${subagents.length === 1 ? '' : 's'} of this session ${subagents.length === 1 ? 'is' : 'are'} beside it, not in it (Claude Code keeps a subagent's records in ${dirname(subagents[0] as string)}): their calls are not in this import; import each (hookwire sessions lists them): ${shown}${subagents.length > 5 ? ', …' : ''}`, 'warning')];
  }
  return out;
}

/**
 * Imports one session of an open store: the one named, or the store's only one; a store of several sessions
 * without a name is refused with their ids [I22]. A non-empty `-wal` file beside the database is a warning.
 */
export function importStoreSession(store: SqliteStore, file: string, session: string | null, options: ImportStreamOptions): ImportTraceOutcome {
  const fail = (why: string): ImportTraceOutcome => ({ format: store.format, trace: null, report: null, problems: [traceProblem('bad_source', 0, why, 'error', true)] });
  let id = session;
  if (id === null) {
    const all = store.sessions();
    if (all.length !== 1) {
      const listed = all.slice(0, 20).map((x) => `${x.id}${x.title ? ` (${x.title.slice(0, 60)})` : ''}`).join(', ');
      const skipped = store.skipped().map((x) => x.reason);
      return fail(all.length === 0 ? `${file} holds no session${skipped.length > 0 ? `; not read: ${skipped.join('; ')}` : ''}` : `${file} holds ${all.length} sessions: import one as ${file}#<session id> (\`hookwire sessions\` lists them): ${listed}${all.length > 20 ? ', …' : ''}`);
    }
    id = (all[0] as { id: string }).id;
  }
  const pieces = store.assemble(id);
  if (pieces === null) return fail(`${file} has no session ${JSON.stringify(id)}`);
  const base = (file.split(/[\\/]/).pop() ?? file).replace(/\.db$/, '');
  const s = createImportStream({ ...options, fileName: `${base}#${id}`, format: options.format ?? store.format });
  // A message at a time, as a file's chunks go [I1].
  for (const piece of pieces) {
    s.push(piece);
    if (s.stopped) break;
  }
  const out = s.end();
  const wal = walBytes(file);
  if (wal > 0) out.problems = [...out.problems, traceProblem('bad_source', 0, `${file}-wal holds ${wal} bytes of changes not yet written into the database, which are not read: close the agent (it moves them into the database when it exits) and import again`, 'warning')];
  return out;
}

function unreadable(path: string, err: unknown): TraceReadResult {
  const why = err instanceof Error ? err.message : String(err);
  return { status: 'failed', header: null, events: [], eventCount: 0, lines: 0, problems: [traceProblem('unreadable', 0, `cannot read ${path}: ${why}`, 'error', true)], chain: { status: 'empty', lines: 0, head: null, tail: { kind: 'new' } } };
}
