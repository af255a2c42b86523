import { mapIdIndex, type IdIndexFactory } from '../model/idIndex.ts';
import { jsonLimitBreach } from '../model/jsonLimits.ts';
import { isJsonObject, MAX_JSON_DEPTH, tooDeepAt, tooDeepMessage } from '../model/json.ts';
import { formatIssues, jsonErrorDetail } from './formatIssues.ts';
import { CHAIN_FIELD, createChainVerifier, type ChainReport } from './hashChain.ts';
import { LineSplitter } from './lineSplitter.ts';
import { looksBinary } from './looksBinary.ts';
import { readTraceHeader } from './readTraceHeader.ts';
import { traceProblem, type TraceProblem } from './traceProblem.ts';
import { surelyValidEventLine, traceSchemas } from './traceSchema.ts';
import { type TraceEvent, type TraceHeader } from './traceTypes.ts';

/** 8 Mi characters: longer lines are reported and skipped [T3]. */
export const DEFAULT_MAX_LINE_CHARS = 8 * 1024 * 1024;
const DEFAULT_MAX_PROBLEMS = 1000;

export interface TraceReaderOptions {
  /** Longest line kept, in UTF-16 characters (default 8 Mi). */
  maxLineChars?: number;
  /** When given, each good event is handed here and not kept: the caller streams without holding the trace. */
  onEvent?: (event: TraceEvent, line: number) => void;
  /** Problems kept in the result (default 1000); the rest are counted in one last problem. */
  maxProblems?: number;
  /** Where the ids seen so far are kept [T6] (default a Map; the CLI spills them to a file, so memory stays flat). */
  ids?: IdIndexFactory;
}

/** `ok`: every line read; `partial`: some lines dropped (see problems); `failed`: nothing usable. */
export type TraceReadStatus = 'ok' | 'partial' | 'failed';

export interface TraceReadResult {
  status: TraceReadStatus;
  header: TraceHeader | null;
  /** Good events in file order (empty when `onEvent` was given). */
  events: TraceEvent[];
  /** Every event delivered, kept or streamed. */
  eventCount: number;
  problems: TraceProblem[];
  /** Lines seen, blank ones included. */
  lines: number;
  /** The hash chain's check [K2]: a broken chain is also a `chain_broken` warning; `unchained` is an old file. */
  chain: ChainReport;
}

/** A push-based reader: feed decoded text chunks as they arrive, then call `end()`. */
export interface TraceReader {
  push(chunk: string): void;
  end(): TraceReadResult;
  readonly header: TraceHeader | null;
  readonly eventCount: number;
  /** True after a fatal problem (binary data, a bad header): later chunks are ignored, so stop reading. */
  readonly done: boolean;
}

/**
 * Streaming, tolerant reader of trace v1 JSON Lines [T2]-[T6]. Pure: works on string chunks, so the browser
 * feeds `File.stream()` through a TextDecoderStream and Node feeds an fs stream with an encoding.
 *
 * @example const r = createTraceReader(); r.push(text.slice(0, 10)); r.push(text.slice(10)); const { events } = r.end();
 */
export function createTraceReader(options: TraceReaderOptions = {}): TraceReader {
  const maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const onEvent = options.onEvent;
  const events: TraceEvent[] = [];
  const problems: TraceProblem[] = [];
  const seenIds = (options.ids ?? mapIdIndex)<number>();
  const addIfAbsent = seenIds.addIfAbsent?.bind(seenIds);
  let header: TraceHeader | null = null;
  let eventCount = 0;
  let fatal = false;
  let droppedProblems = 0;
  let errors = 0;
  let first = true;
  let sawHeaderLine = false;
  const chain = createChainVerifier();

  const report = (p: TraceProblem): void => {
    if (p.severity === 'error') errors++;
    if (problems.length < maxProblems) problems.push(p);
    else droppedProblems++;
  };

  const fail = (p: TraceProblem): void => {
    report(p);
    fatal = true;
    splitter.stop();
  };

  const onHeaderLine = (text: string, lineNo: number, terminated: boolean): void => {
    sawHeaderLine = true;
    const r = readTraceHeader(text, lineNo, terminated);
    if (r.ok) {
      header = r.header;
      // The chain field belongs to the line, not to the header a writer may copy into a new file [K1].
      if (Object.hasOwn(header, CHAIN_FIELD)) delete header[CHAIN_FIELD];
    } else fail(r.problem);
  };

  const onEventLine = (text: string, lineNo: number, terminated: boolean): void => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      if (!terminated) report(traceProblem('truncated', lineNo, `the input ends in the middle of this line (${jsonErrorDetail(err)})`));
      else report(traceProblem('not_json', lineNo, `not valid JSON (${jsonErrorDetail(err)})`));
      return;
    }
    if (!isJsonObject(value)) {
      report(traceProblem('schema', lineNo, `an event line must be a JSON object, found ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`));
      return;
    }
    // Before the schema check: zod recurses, and a line's payload may nest 10k levels [V9].
    const deep = tooDeepAt(value, MAX_JSON_DEPTH + 1);
    if (deep) {
      report(traceProblem('too_deep', lineNo, `${tooDeepMessage('event', deep)}; the line was skipped`));
      return;
    }
    // The same limits as emit [V12] (the line limit bounds the whole already): a string, the entries of one container.
    const big = jsonLimitBreach((value as { payload?: unknown }).payload, 'payload');
    if (big) {
      report(traceProblem(big.code, lineNo, `${big.message}; the line was skipped`));
      return;
    }
    // The hand check passes the common line; anything it is not sure of is the schema's to accept or name.
    if (!surelyValidEventLine(value)) {
      const check = traceSchemas().TraceEventLineSchema.safeParse(value);
      if (!check.success) {
        report(traceProblem('schema', lineNo, `not a valid event (${formatIssues(check.error.issues)})`));
        return;
      }
    }
    // Keep JSON.parse's object, not zod's copy: zod drops keys such as `__proto__` [V8].
    const event = value as unknown as TraceEvent & { chain?: string };
    if (event.chain !== undefined) delete event.chain;
    const h = header as TraceHeader;
    if (event.trace_id === undefined) event.trace_id = h.trace_id;
    if (event.agent_id === undefined) event.agent_id = h.agent_id;
    // One look-up per event where the index has it (the CLI's spilled index); a Map is asked, then set.
    const firstLine = addIfAbsent ? addIfAbsent(event.event_id, lineNo) : seenIds.get(event.event_id);
    if (firstLine !== undefined) {
      report(traceProblem('duplicate_event_id', lineNo, `event id "${event.event_id.slice(0, 100)}" already appeared on line ${firstLine}; the event is kept (replay treats it as a re-dispatch)`, 'warning'));
    } else if (!addIfAbsent) seenIds.set(event.event_id, lineNo);
    eventCount++;
    if (onEvent) onEvent(event, lineNo);
    else events.push(event);
  };

  const splitter = new LineSplitter(options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS, {
    line(text, lineNo, terminated) {
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (isBlank(text)) return;
      chain.push(text, lineNo);
      if (!sawHeaderLine) onHeaderLine(text, lineNo, terminated);
      else onEventLine(text, lineNo, terminated);
    },
    tooLong(lineNo, length) {
      chain.skip(lineNo, `${length} characters, past the limit`);
      if (!sawHeaderLine) {
        fail(traceProblem('bad_header', lineNo, `the header line is ${length} characters long, past the limit; this is not a trace file`, 'error', true));
        return;
      }
      report(traceProblem('line_too_long', lineNo, `${length} characters, past the limit of ${options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS}; the line was skipped`));
    },
  });

  return {
    push(chunk: string): void {
      if (fatal) return;
      if (first && chunk.length > 0) {
        first = false;
        if (looksBinary(chunk)) {
          fail(traceProblem('binary', 0, 'this is binary data, not a JSON Lines trace (a NUL byte or many control characters in the first bytes)', 'error', true));
          return;
        }
      }
      splitter.push(chunk);
    },
    end(): TraceReadResult {
      splitter.end();
      if (!fatal && !sawHeaderLine) fail(traceProblem('empty', 0, 'the input is empty: a trace starts with a header line', 'error', true));
      const chainReport = chain.report();
      if (chainReport.broken) report(traceProblem('chain_broken', chainReport.broken.line, `the hash chain breaks here: ${chainReport.broken.reason}; the line is kept (check the file with hookwire verify)`, 'warning'));
      if (droppedProblems > 0) problems.push(traceProblem('more_problems', 0, `${droppedProblems} more problems were found and not listed`, 'warning'));
      const status: TraceReadStatus = fatal || header === null ? 'failed' : errors > 0 ? 'partial' : 'ok';
      return { status, header, events, eventCount, problems, lines: splitter.lines, chain: chainReport };
    },
    get header() {
      return header;
    },
    get eventCount() {
      return eventCount;
    },
    get done() {
      return fatal;
    },
  };
}

/** Reads a whole trace held in one string [T2]. */
export function readTrace(text: string, options: TraceReaderOptions = {}): TraceReadResult {
  const reader = createTraceReader(options);
  reader.push(text);
  return reader.end();
}

/** Reads a trace from any (async) iterable of decoded text chunks, e.g. a Node stream with an encoding. */
export async function readTraceChunks(chunks: AsyncIterable<string> | Iterable<string>, options: TraceReaderOptions = {}): Promise<TraceReadResult> {
  const reader = createTraceReader(options);
  for await (const chunk of chunks) {
    reader.push(chunk);
    if (reader.done) break;
  }
  return reader.end();
}

/** Blank lines are allowed anywhere; checked without copying the line (trim() would copy every line). */
function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  const c = text.charCodeAt(0);
  if (c !== 32 && c !== 9 && c !== 13 && c !== 0xfeff) return false;
  return text.trim() === '';
}
