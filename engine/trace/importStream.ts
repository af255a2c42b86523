import { describeContent, detectTraceFormat, DETECT_SAMPLE_CHARS, TRACE_FORMAT_LABELS, type FormatDetection, type TraceFormat } from './detectTraceFormat.ts';
import { jsonErrorDetail } from './formatIssues.ts';
import { CodexRolloutImporter } from './importers/importCodexRollout.ts';
import { ClaudeCodeImporter } from './importers/importClaudeCode.ts';
import { importMiniSweAgent, miniSweAgentImporter } from './importers/importMiniSweAgent.ts';
import { importOpenHands, openHandsImporter, openHandsTrajectoryImporter } from './importers/importOpenHands.ts';
import { importOtelGenai, otelGenaiImporter, SpanCollector } from './importers/importOtelGenai.ts';
import { bump, emptyReport, type ElementImporter, type ImporterOptions, type ImportReport, type ImportResult } from './importers/importReport.ts';
import { importSweAgent, sweAgentImporter } from './importers/importSweAgent.ts';
import { GeminiCliImporter } from './importers/importGeminiCli.ts';
import { clineImporter, importCline } from './importers/importCline.ts';
import { importOpenCode, openCodeImporter } from './importers/importOpenCode.ts';
import { clineUiImporter, importClineUi } from './importers/importClineUi.ts';
import { CopilotCliImporter } from './importers/importCopilotCli.ts';
import { SpecStoryImporter } from './importers/importSpecStory.ts';
import { AiderImporter } from './importers/importAider.ts';
import { QwenCodeImporter } from './importers/importQwenCode.ts';
import { GooseImporter } from './importers/importGoose.ts';
import { cursorImporter, importCursor } from './importers/importCursor.ts';
import { LineSplitter } from './lineSplitter.ts';
import { spansOfValue } from './importers/otlpSpans.ts';
import { jsonlSplitter, OTLP_WRAPPING, parseJsonDocument, quoteOtelIdMember, quoteOtelIds, tooDeepElement, tooDeepValue } from './importers/parseSource.ts';
import { JsonValueSplitter } from './jsonValueSplitter.ts';
import { KeyedArraySplitter } from './keyedArraySplitter.ts';
import { otlpRequestStream } from './otlpRequestStream.ts';
import { KeyedFeeder, type KeyedImporter } from './importers/keyedImporter.ts';
import type { IdIndexFactory, RecordStore } from '../model/idIndex.ts';
import { jsonLimitBreach } from '../model/jsonLimits.ts';
import { createTraceReader, DEFAULT_MAX_LINE_CHARS } from './traceReader.ts';
import { traceProblem, type TraceProblem } from './traceProblem.ts';
import type { JsonObject } from '../model/json.ts';
import type { Trace, TraceEvent, TraceHeader } from './traceTypes.ts';

/**
 * The one import pipeline [I1], for the browser and Node alike: they only feed decoded text and take the
 * events. Detects the format on the first 64 KB, then
 * - streams trace v1, Codex rollouts and span streams (OTLP/JSON, spans per line, console output): only
 *   the current line or JSON value is held as text; trace v1 and Codex events are handed over as read;
 * - streams the documents that are one array of records (Cline's task files, OpenHands event streams, span arrays)
 *   element by element, and those that keep their records in an array under a key (OpenCode and goose exports, older
 *   Gemini `.json`, mini-swe-agent, OpenHands `{"trajectory"}`, SWE-agent `.traj`, any-agent `{"spans"}`, Cursor composers) member by
 *   member and element by element; spans are kept in `spool` to the end (SpanCollector);
 * - streams Claude Code transcripts record by record (their importer holds the records of the model call
 *   still open);
 * - buffers the other formats (JSON documents) up to `maxDocumentChars`, past which reading stops with `too_large`.
 * A binary verdict stops the stream at once (`stopped`), so the caller stops reading too.
 */

/** Whole-document formats are held as text up to this many UTF-16 characters (256 Mi). */
export const DEFAULT_MAX_DOCUMENT_CHARS = 256 * 1024 * 1024;

export interface ImportStreamOptions {
  /** Used for a hint when the content is unclear, in the header's source, and for a trace id. */
  fileName?: string;
  /** The file's whole path, when there is one: some formats keep ids and the agent's name in it (Cline's `tasks/<id>/`). */
  filePath?: string;
  /** Read the input as this format; refused (`format_mismatch`) when the content is clearly another. */
  format?: TraceFormat;
  /** When given, each event is handed here and not kept (`trace.events` stays empty). */
  onEvent?: (event: TraceEvent) => void;
  maxDocumentChars?: number;
  maxLineChars?: number;
  /** Where a trace v1 reader keeps the ids it has seen [T6] (default a Map). */
  ids?: IdIndexFactory;
  /** Where an importer keeps the records it must hold to the end of the document (SWE-agent's; default memory). */
  spool?: RecordStore;
  /**
   * With `onEvent`: called once with the header before the first event, by the importers that know it by then
   * (Claude Code, Codex); `end()` returns the same header. Not called for a format forced on content that does
   * not show it (that import can still be refused at the end).
   */
  onHeader?: (header: TraceHeader) => void;
}

export interface ImportTraceOutcome {
  /** The format read (detected or given); null when it could not be recognised. */
  format: TraceFormat | null;
  /** The trace; null when nothing usable was read (see problems). */
  trace: Trace | null;
  report: ImportReport | null;
  /** Line-level and whole-input problems. With a trace and error problems, the import is partial. */
  problems: TraceProblem[];
}

export interface ImportStream {
  push(chunk: string): void;
  end(): ImportTraceOutcome;
  /** The format, once detected (after the first 64 KB or the end). */
  readonly format: TraceFormat | null;
  /** True once nothing more will be read (binary data, a fatal problem, past the size cap): stop feeding. */
  readonly stopped: boolean;
  /** Events handed over or kept so far. */
  readonly eventCount: number;
}

/** What reads the input once its format is known. */
interface Body {
  push(text: string): void;
  end(): ImportTraceOutcome;
  readonly stopped: boolean;
}

const SPAN_FORMATS: ReadonlySet<TraceFormat> = new Set(['otel-genai', 'otlp-json', 'otel-spans-jsonl', 'otel-console']);

/**
 * Formats whose events can only be made at the end of the input, so their records are held to the end (in `spool`
 * when given, else in memory) and every event comes out of `end()`: spans are ordered by time across the whole
 * input [I5], and a SWE-agent trajectory's steps pair with a `history` written after them [I6].
 */
export const EVENTS_AT_END: ReadonlySet<TraceFormat> = new Set([...SPAN_FORMATS, 'swe-agent']);
const LIFECYCLE_EDGES = new Set(['agent.start', 'agent.end', 'agent.error']);

/**
 * Starts an import: push decoded text chunks in any split, then `end()`. Never throws for bad input.
 *
 * @example const s = createImportStream({ fileName: 'run.jsonl', onEvent: store }); s.push(text); const { report } = s.end();
 */
export function createImportStream(options: ImportStreamOptions = {}): ImportStream {
  const head: string[] = [];
  let headChars = 0;
  let body: Body | null = null;
  let failedEarly: ImportTraceOutcome | null = null;
  let format: TraceFormat | null = null;
  let count = 0;
  let recognised = 0;
  let detection: FormatDetection | null = null;
  const kept: TraceEvent[] = [];
  const refused: TraceProblem[] = [];
  const onEvent = (e: TraceEvent) => {
    // An imported record can hold what emit would refuse (a 50 MB tool result): the same limits [V9][V12].
    // Trace v1 lines were checked by the reader already.
    const big = format === 'hookwire-trace' ? null : jsonLimitBreach(e.payload, 'payload');
    if (big) {
      if (refused.length < 1000) refused.push(traceProblem(big.code, 0, `event ${JSON.stringify(e.event_id.slice(0, 100))} (${e.type}): ${big.message}; the event was skipped`));
      return;
    }
    count++;
    if (!LIFECYCLE_EDGES.has(e.type)) recognised++;
    if (options.onEvent) options.onEvent(e);
    else kept.push(e);
  };

  const start = (): void => {
    const sample = head.join('');
    head.length = 0;
    const d = detectTraceFormat(sample, options.fileName);
    detection = d;
    const forced = options.format;
    if (!forced && d.format === null) {
      const code = d.code === 'binary' || d.code === 'empty' || d.code === 'pipeline' ? d.code : 'unknown_format';
      failedEarly = failure(null, [traceProblem(code, 0, `cannot import${options.fileName ? ` ${options.fileName}` : ''}: ${d.reason}`, 'error', true)]);
      return;
    }
    if (d.code === 'binary') {
      failedEarly = failure(forced ?? null, [traceProblem('binary', 0, `cannot import: ${d.reason}`, 'error', true)]);
      return;
    }
    if (forced && d.by === 'content' && d.format !== forced && !(SPAN_FORMATS.has(forced) && SPAN_FORMATS.has(d.format as TraceFormat))) {
      const msg = `this is not ${TRACE_FORMAT_LABELS[forced]}: it looks like ${TRACE_FORMAT_LABELS[d.format as TraceFormat]} (import it without forcing a format)`;
      failedEarly = failure(forced, [traceProblem('format_mismatch', 0, msg, 'error', true)]);
      return;
    }
    format = forced && !(SPAN_FORMATS.has(forced) && d.by === 'content') ? forced : (d.format as TraceFormat);
    const early = d.by === 'file_name' && !forced ? [traceProblem('unknown_format', 0, d.reason, 'warning')] : [];
    // A forced format the content does not show may still be refused at the end: no header before then.
    const sure = !(forced && d.by !== 'content');
    body = createBody(format, { ...options, ...(sure && options.onEvent && options.onHeader ? { onHeader: options.onHeader } : { onHeader: undefined }) }, onEvent, early, sample);
    if (sample !== '') body.push(sample);
  };

  return {
    push(chunk: string): void {
      if (failedEarly || chunk.length === 0 || body?.stopped) return;
      if (body) return body.push(chunk);
      head.push(chunk);
      headChars += chunk.length;
      if (headChars >= DETECT_SAMPLE_CHARS) start();
    },
    end(): ImportTraceOutcome {
      if (!body && !failedEarly) start();
      if (failedEarly) return failedEarly;
      const out = (body as Body).end();
      if (!out.trace) return out;
      if (options.format && detection?.by !== 'content' && recognised === 0) {
        const sample = (body as Body & { sample: string }).sample;
        const msg = `nothing in this input is ${TRACE_FORMAT_LABELS[options.format]}: no model call, tool call, input or answer was found; the content is ${describeContent(sample)}`;
        return failure(options.format, [...out.problems, traceProblem('format_mismatch', 0, msg, 'error', true)]);
      }
      out.trace.events = options.onEvent ? [] : kept;
      if (refused.length > 0) out.problems = [...out.problems, ...refused];
      return out;
    },
    get format() {
      return format;
    },
    get stopped() {
      return failedEarly !== null || (body?.stopped ?? false);
    },
    get eventCount() {
      return count;
    },
  };
}

function failure(format: TraceFormat | null, problems: TraceProblem[]): ImportTraceOutcome {
  return { format, trace: null, report: null, problems };
}

function createBody(format: TraceFormat, options: ImportStreamOptions, onEvent: (e: TraceEvent) => void, early: TraceProblem[], sample: string): Body & { sample: string } {
  const importer: ImporterOptions = { fallbackTraceId: `${format}-${fileStem(options.fileName) ?? contentHash(sample)}` };
  if (options.fileName !== undefined) importer.fileName = options.fileName;
  if (options.filePath !== undefined) importer.filePath = options.filePath;
  // Streamed importers keep their event ids where the caller says (a spilled index in the CLI) [I3].
  if (options.ids) importer.ids = options.ids;
  if (options.spool) importer.spool = options.spool;
  if (options.onHeader) importer.onHeader = options.onHeader;
  const maxLine = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  const maxDoc = options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS;
  // A document that is one object whose records are an array under a key streams when its importer reads it so.
  const keyed = startsObject(sample) && !firstLineIsJson(sample) ? keyedImporter(format, importer, onEvent) : null;
  const body =
    format === 'hookwire-trace' ? traceV1Body(onEvent, maxLine, early, options.ids)
    : format === 'codex-rollout' ? codexBody(importer, onEvent, maxLine, early)
    : format === 'claude-code' ? claudeBody(importer, onEvent, maxLine, early)
    : keyed ? keyedBody(format, keyed, maxDoc, early, format === 'otel-genai' ? (text, key) => (key === undefined ? quoteOtelIds(text) : quoteOtelIdMember(text, key)) : undefined)
    : format === 'gemini-cli' ? recordsBody(format, new GeminiCliImporter(importer, onEvent), maxLine, maxDoc, early, firstLineIsJson(sample))
    : format === 'qwen-code' ? recordsBody(format, new QwenCodeImporter(importer, onEvent), maxLine, maxDoc, early, true)
    : format === 'goose' ? recordsBody(format, new GooseImporter(importer, onEvent), maxLine, maxDoc, early, firstLineIsJson(sample))
    : format === 'copilot-cli' ? recordsBody(format, new CopilotCliImporter(importer, onEvent), maxLine, maxDoc, early, true)
    : format === 'aider' ? linesBody(format, new AiderImporter(importer, onEvent), maxLine, early)
    : format === 'specstory' ? linesBody(format, new SpecStoryImporter(importer, onEvent), maxLine, early)
    : format === 'otlp-json' || format === 'otel-spans-jsonl' || format === 'otel-console' ? spanStreamBody(format, importer, onEvent, maxDoc, maxLine, early, firstLineIsJson(sample))
    : (format === 'cline' || format === 'cline-ui') && startsArray(sample) ? elementsBody(format, (format === 'cline' ? clineImporter : clineUiImporter)(importer, onEvent), maxDoc, early)
    : (format === 'cline' || format === 'cline-ui') && startsObject(sample) ? refusedBody(format, [...early, notClineArray(format)])
    : format === 'openhands' && startsArray(sample) ? elementsBody(format, openHandsImporter(importer, onEvent), maxDoc, early)
    : format === 'otel-genai' && startsArray(sample) ? elementsBody(format, otelGenaiImporter(importer, onEvent), maxDoc, early, quoteOtelIds)
    : documentBody(format, importer, onEvent, maxDoc, early);
  return Object.assign(body, { sample: sample.slice(0, 4096) });
}

/**
 * Cline and Roo Code write their task files as one JSON array of messages; an object is none of them (it was
 * read whole, up to 256 Mi characters, to import no message [I14][I20]). Refused from its first character.
 */
function notClineArray(format: 'cline' | 'cline-ui'): TraceProblem {
  return traceProblem('bad_source', 0, `not a ${TRACE_FORMAT_LABELS[format]}: Cline and Roo Code write that file as one JSON array of messages, and this one is a JSON object; nothing was read`, 'error', true);
}

/** A body that reads nothing and ends with `problems` (a refusal known from the first characters). */
function refusedBody(format: TraceFormat, problems: TraceProblem[]): Body {
  return { push() {}, end: () => failure(format, problems), stopped: true };
}

/** The importer of a format's `{…, "<key>": [records]}` document, fed as it streams; null for the formats read otherwise. */
function keyedImporter(format: TraceFormat, importer: ImporterOptions, onEvent: (e: TraceEvent) => void): KeyedImporter | null {
  switch (format) {
    case 'opencode':
      return openCodeImporter(importer, onEvent);
    case 'mini-swe-agent':
      return miniSweAgentImporter(importer, onEvent);
    case 'openhands':
      return openHandsTrajectoryImporter(importer, onEvent);
    case 'goose':
      return new GooseImporter(importer, onEvent).asExport();
    case 'gemini-cli':
      return new GeminiCliImporter(importer, onEvent).asDocument();
    case 'swe-agent':
      return sweAgentImporter(importer, onEvent);
    case 'otel-genai':
      return otelGenaiImporter(importer, onEvent);
    case 'cursor':
      return cursorImporter(importer, onEvent);
    default:
      return null;
  }
}

/** Delivers a whole import's events to the sink and turns its result into an outcome. */
function deliver(format: TraceFormat, result: ImportResult, onEvent: (e: TraceEvent) => void, problems: TraceProblem[]): ImportTraceOutcome {
  if (!result.ok) return failure(format, [...problems, result.problem]);
  for (const e of result.trace.events) onEvent(e);
  return { format, trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
}

function traceV1Body(onEvent: (e: TraceEvent) => void, maxLineChars: number, early: TraceProblem[], ids: IdIndexFactory | undefined): Body {
  const report = emptyReport('hookwire-trace');
  const reader = createTraceReader({
    maxLineChars,
    ...(ids ? { ids } : {}),
    onEvent: (e) => {
      bump(report.event_counts, e.type);
      if (e.type === 'tool.before_call') report.tool_calls++;
      if (e.type === 'model.before_call') report.model_calls++;
      onEvent(e);
    },
  });
  return {
    push: (t) => reader.push(t),
    end() {
      const r = reader.end();
      const problems = [...early, ...r.problems];
      if (!r.header || r.status === 'failed') return failure('hookwire-trace', problems);
      report.source_records = r.lines;
      report.events = r.eventCount;
      return { format: 'hookwire-trace', trace: { header: r.header, events: [] }, report, problems };
    },
    // A fatal verdict of the reader (binary, not a trace): nothing more is read.
    get stopped() {
      return reader.done;
    },
  };
}

function codexBody(importer: ImporterOptions, onEvent: (e: TraceEvent) => void, maxLineChars: number, early: TraceProblem[]): Body {
  const problems = [...early];
  const codex = new CodexRolloutImporter(importer, onEvent);
  const lines = jsonlSplitter(maxLineChars, problems, (r) => codex.record(r.value));
  return {
    push: (t) => lines.push(t),
    end() {
      lines.end();
      const result = codex.finish(lines.lines);
      if (!result.ok) return failure('codex-rollout', [...problems, result.problem]);
      return { format: 'codex-rollout', trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
    },
    stopped: false,
  };
}

/** An importer fed one parsed record at a time (a JSON Lines line, or a whole document as line 1). */
interface RecordImporter {
  record(value: unknown, line: number): void;
  finish(sourceRecords: number): ImportResult;
}

/**
 * A record importer's input: JSON Lines streamed line by line (a bad line is a problem, the rest go on), or,
 * when the first line is not a whole JSON value, one pretty-printed document buffered up to `maxDocChars`.
 */
function recordsBody(format: TraceFormat, imp: RecordImporter, maxLineChars: number, maxDocChars: number, early: TraceProblem[], jsonLines: boolean): Body {
  const problems = [...early];
  const finish = (records: number): ImportTraceOutcome => {
    const result = imp.finish(records);
    if (!result.ok) return failure(format, [...problems, result.problem]);
    return { format, trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
  };
  if (jsonLines) {
    const lines = jsonlSplitter(maxLineChars, problems, (r) => imp.record(r.value, r.line));
    return {
      push: (t) => lines.push(t),
      end() {
        lines.end();
        return finish(lines.lines);
      },
      stopped: false,
    };
  }
  return wholeDocument(format, maxDocChars, problems, (text) => {
    const doc = parseJsonDocument(text);
    if (!doc.ok) return failure(format, [...problems, doc.problem]);
    imp.record(doc.value, 1);
    return finish(1);
  });
}

/** An importer of a text format fed line by line (`terminated` false: a last line without a newline). */
interface LineImporter {
  line(text: string, lineNo: number, terminated: boolean): void;
  finish(lines: number): ImportResult;
}

/** Markdown session files, streamed line by line: only the current message is held. */
function linesBody(format: TraceFormat, imp: LineImporter, maxLineChars: number, early: TraceProblem[]): Body {
  const problems = [...early];
  const lines = new LineSplitter(maxLineChars, {
    line: (text, n, terminated) => imp.line(n === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, n, terminated),
    tooLong: (n, length) => {
      if (problems.length < 1000) problems.push(traceProblem('line_too_long', n, `${length} characters, past the limit of ${maxLineChars}; the line was skipped`));
    },
  });
  return {
    push: (t) => lines.push(t),
    end() {
      lines.end();
      const result = imp.finish(lines.lines);
      if (!result.ok) return failure(format, [...problems, result.problem]);
      return { format, trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
    },
    stopped: false,
  };
}

/**
 * A Claude Code transcript, streamed line by line: its importer holds only the records of the model call still
 * open (see ClaudeCodeImporter) and hands events over as they are complete.
 */
function claudeBody(importer: ImporterOptions, onEvent: (e: TraceEvent) => void, maxLineChars: number, early: TraceProblem[]): Body {
  const problems = [...early];
  const imp = new ClaudeCodeImporter(importer, onEvent);
  let records = 0;
  const lines = jsonlSplitter(maxLineChars, problems, (r) => {
    records++;
    imp.record(r.value);
  });
  return {
    push: (t) => lines.push(t),
    end() {
      lines.end();
      if (records === 0) return failure('claude-code', [...problems, traceProblem('empty', 0, 'no readable record in the transcript', 'error', true)]);
      const result = imp.finish(records);
      if (!result.ok) return failure('claude-code', [...problems, result.problem]);
      return { format: 'claude-code', trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
    },
    stopped: false,
  };
}

/** True when the input starts (after blanks and a byte order mark) with `[`: a JSON array. */
function startsArray(sample: string): boolean {
  return /^[\s\ufeff]*\[/.test(sample.slice(0, 4096));
}

/**
 * A document that is one JSON array of records, streamed element by element [I1]: each element is parsed and
 * handed to its importer as it is read, so only the current element is held as text (up to `maxElementChars`,
 * the cap a whole document had), and with a sink the events are not kept either. A bad element is listed with
 * its line and the rest go on; an input cut off inside an element or before the closing `]` keeps what came
 * before and lists where it ends (a partial import, as a JSON Lines file cut off is).
 */
function elementsBody(format: TraceFormat, imp: ElementImporter, maxElementChars: number, early: TraceProblem[], prepare?: (text: string) => string): Body {
  const problems = [...early];
  const report = (p: TraceProblem) => {
    if (problems.length < 1000) problems.push(p);
  };
  let n = 0;
  const splitter = new KeyedArraySplitter(new Set(), maxElementChars, {
    element(_key, text, line) {
      n++;
      let v: unknown;
      try {
        v = JSON.parse(prepare ? prepare(text) : text);
      } catch (err) {
        report(traceProblem('not_json', line, `element ${n} of the array is not valid JSON (${jsonErrorDetail(err)}); it was skipped`));
        return;
      }
      const deep = tooDeepElement(v, line);
      if (deep) report(deep);
      else imp.record(v, n);
    },
    tooLong(_key, _element, line, length) {
      n++;
      report(traceProblem('line_too_long', line, `element ${n} of the array is ${length} characters, past the limit of ${maxElementChars}; it was skipped`));
    },
    stray: (line, text) => report(traceProblem('not_json', line, `not part of the JSON array: ${JSON.stringify(text.slice(0, 40))}; skipped`)),
    truncated: (_key, _element, line) => report(traceProblem('truncated', line, `the file ends inside element ${n + 1} of the array (a truncated file?); what came before it was read`)),
    unclosed: (line) => report(traceProblem('truncated', line, `the file ends before the array's closing ] (a truncated file?); the ${n} elements before it were read`)),
    array: () => {},
    // The input starts with `[` (startsArray): it has no members, so none can be given or repeated.
    member: (_key, _text, line) => report(traceProblem('not_json', line, 'not part of the JSON array; skipped')),
    repeated: () => {},
  }, '');
  return {
    push: (t) => splitter.push(t),
    end() {
      splitter.end();
      const result = imp.finish(n);
      if (!result.ok) return failure(format, [...problems, result.problem]);
      return { format, trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
    },
    stopped: false,
  };
}

/** True when the input starts (after blanks and a byte order mark) with `{`: a JSON object. */
function startsObject(sample: string): boolean {
  return /^[\s\ufeff]*\{/.test(sample.slice(0, 4096));
}

/**
 * A document that is one JSON object whose records are an array under a key (`{"info": {…}, "messages": [...]}`),
 * streamed [I1]: the object's other members are parsed as they are read, and the array's elements one by one, so
 * only the current member or element is held as text (up to `maxChars`). Elements that come before a member
 * their importer needs are held, as parsed values, until it comes (KeyedFeeder); past `maxChars` characters of
 * them, reading stops with `too_large`. A bad member or element is listed with its line and the rest go on; an
 * input cut off keeps what came before, listed as `truncated`; a key written again is listed and its value skipped.
 */
function keyedBody(format: TraceFormat, imp: KeyedImporter, maxChars: number, early: TraceProblem[], prepare?: (text: string, memberKey?: string) => string): Body {
  const problems = [...early];
  const report = (p: TraceProblem) => {
    if (problems.length < 1000) problems.push(p);
  };
  const feed = new KeyedFeeder(imp, maxChars);
  let over = false;
  const parse = (text: string, line: number, what: string, levels: number, memberKey?: string): { ok: boolean; value?: unknown } => {
    let v: unknown;
    try {
      v = JSON.parse(prepare ? prepare(text, memberKey) : text);
    } catch (err) {
      report(traceProblem('not_json', line, `${what} is not valid JSON (${jsonErrorDetail(err)}); it was skipped`));
      return { ok: false };
    }
    const deep = tooDeepElement(v, line, levels, what);
    if (deep) report(deep);
    return deep ? { ok: false } : { ok: true, value: v };
  };
  const splitter = new KeyedArraySplitter(imp.arrays, maxChars, {
    member(key, text, line) {
      const r = parse(text, line, `the member ${JSON.stringify(key.slice(0, 100))}`, 1, key);
      if (r.ok) feed.member(key, r.value);
    },
    array: (key) => feed.array(key),
    element(key, text, line) {
      if (over) return;
      const r = parse(text, line, `an element of ${JSON.stringify(key.slice(0, 100))}`, 2);
      if (!r.ok) return;
      if (feed.element(key, r.value, text.length)) return;
      over = true;
      const waiting = feed.waitingFor.map((k) => JSON.stringify(k)).join(', ');
      report(traceProblem('too_large', line, `the records of ${JSON.stringify(key.slice(0, 100))} wait for ${waiting}, which the file has not given before them, and they passed the limit of ${maxChars} characters held`, 'error', true));
    },
    tooLong: (key, element, line, length) => report(traceProblem('line_too_long', line, `${element ? 'an element of' : 'the member'} ${JSON.stringify(key.slice(0, 100))} is ${length} characters, past the limit of ${maxChars}; it was skipped`)),
    stray: (line, text) => report(traceProblem('not_json', line, `not part of the JSON object: ${JSON.stringify(text.slice(0, 40))}; skipped`)),
    truncated: (key, element, line) => report(traceProblem('truncated', line, `the file ends inside ${element ? 'an element of' : 'the member'} ${JSON.stringify(key.slice(0, 100))} (a truncated file?); what came before it was read`)),
    unclosed: (line) => report(traceProblem('truncated', line, 'the file ends before the closing ] or } (a truncated file?); what came before it was read')),
    repeated: (key, line) => report(traceProblem('unreadable_record', line, `the key ${JSON.stringify(key.slice(0, 100))} appears again in the object; this later value was skipped (the first was read: JSON.parse would keep the last)`)),
  });
  return {
    push: (t) => {
      if (!over) splitter.push(t);
    },
    end() {
      if (over) return failure(format, problems);
      splitter.end();
      const result = feed.finish();
      if (!result.ok) return failure(format, [...problems, result.problem]);
      return { format, trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
    },
    get stopped() {
      return over;
    },
  };
}

/** True when the first non-blank line of the sample is a whole JSON value (JSON Lines, not a pretty document). */
function firstLineIsJson(sample: string): boolean {
  const s = sample.trimStart();
  const nl = s.indexOf('\n');
  try {
    JSON.parse(nl === -1 ? s : s.slice(0, nl));
    return true;
  } catch {
    return false;
  }
}

/**
 * Spans from a stream of JSON values: OTLP export requests, single spans, console output. JSON Lines are
 * cut on lines (a broken line costs only itself); pretty-printed values one after another on brace depth.
 */
function spanStreamBody(
  format: 'otlp-json' | 'otel-spans-jsonl' | 'otel-console', importer: ImporterOptions, onEvent: (e: TraceEvent) => void,
  maxValueChars: number, maxLineChars: number, early: TraceProblem[], jsonLines: boolean,
): Body {
  const problems = [...early];
  // Every span is kept (in the spool when given) to the end, where they are ordered by time [I5].
  const spans = new SpanCollector(importer.spool);
  let values = 0;
  let ignored = 0;
  const settle = (kind: 'otlp' | 'sdk' | null, bad: string[], line: number): void => {
    values++;
    if (kind === null) {
      ignored++;
      bad.push('a JSON value that holds no span');
    }
    // What held no span is listed with its line, not skipped silently [I11].
    for (const why of bad) if (problems.length < 1000) problems.push(traceProblem('unreadable_record', line, `${why}; it was skipped`));
  };
  const onValue = (v: unknown, line: number): void => {
    const bad: string[] = [];
    const found: JsonObject[] = [];
    const kind = spansOfValue(v, found, bad);
    for (const span of found) spans.add(span);
    settle(kind, bad, line);
  };
  // An OTLP request written over many lines (one pretty value, maybe of a whole run) is read as it streams, a span at a time.
  const open = (line: number) =>
    otlpRequestStream(line, maxValueChars, importer.spool, {
      span: (span) => spans.add(span),
      done: (kind, bad) => settle(kind, bad, line),
      problem: (p) => void (problems.length < 1000 && problems.push(p)),
    });
  const splitter = jsonLines ? jsonlSplitter(maxLineChars, problems, (r) => onValue(r.value, r.line), { prepare: quoteOtelIds, wrapping: OTLP_WRAPPING }) : new JsonValueSplitter(maxValueChars, {
    value(text, line) {
      let v: unknown;
      try {
        v = JSON.parse(quoteOtelIds(text));
      } catch (err) {
        problems.push(traceProblem('not_json', line, `not valid JSON (${jsonErrorDetail(err)}); skipped`));
        return;
      }
      const deep = tooDeepValue(v, line);
      if (deep) problems.push(deep);
      else onValue(v, line);
    },
    tooLong: (line, length) => problems.push(traceProblem('line_too_long', line, `a JSON value of ${length} characters, past the limit of ${maxValueChars}; skipped`)),
    stray: (line, text) => {
      if (problems.length < 1000) problems.push(traceProblem('not_json', line, `not JSON: ${JSON.stringify(text.slice(0, 40))}; skipped`));
    },
    truncated: (line) => problems.push(traceProblem('truncated', line, 'the input ends inside this JSON value; it was skipped')),
    ...(format === 'otlp-json' ? { open } : {}),
  });
  return {
    push: (t) => splitter.push(t),
    end() {
      splitter.end();
      if (spans.count === 0) return failure(format, [...problems, traceProblem('bad_source', 0, `no span found in ${values} JSON values`, 'error', true)]);
      const result = spans.finish({ ...importer, format, sourceRecords: spans.count, onEvent });
      if (!result.ok) return failure(format, [...problems, result.problem]);
      if (ignored > 0) result.report.unknown['(JSON value without spans)'] = ignored;
      return { format, trace: { header: result.trace.header, events: [] }, report: result.report, problems: [...problems, ...(result.problems ?? [])] };
    },
    stopped: false,
  };
}

function documentBody(format: TraceFormat, importer: ImporterOptions, onEvent: (e: TraceEvent) => void, maxChars: number, early: TraceProblem[]): Body {
  const problems = [...early];
  return wholeDocument(format, maxChars, problems, (text) => {
    const doc = parseJsonDocument(format === 'otel-genai' ? quoteOtelIds(text) : text);
    if (!doc.ok) return failure(format, [...problems, doc.problem]);
    const result =
      format === 'otel-genai' ? importOtelGenai(doc.value, importer)
      : format === 'swe-agent' ? importSweAgent(doc.value, importer)
      : format === 'mini-swe-agent' ? importMiniSweAgent(doc.value, importer)
      : format === 'cline' ? importCline(doc.value, importer)
      : format === 'cline-ui' ? importClineUi(doc.value, importer)
      : format === 'opencode' ? importOpenCode(doc.value, importer)
      : format === 'cursor' ? importCursor(doc.value, importer)
      : importOpenHands(doc.value, importer);
    return deliver(format, result, onEvent, problems);
  });
}

/** A body that gathers one whole document, up to the cap, and hands its text to `done` at the end. */
function wholeDocument(format: TraceFormat, maxChars: number, problems: TraceProblem[], done: (text: string) => ImportTraceOutcome): Body {
  const parts: string[] = [];
  const cap = capped(format, maxChars, problems);
  return {
    push(t) {
      if (cap.add(t.length)) parts.push(t);
      else parts.length = 0;
    },
    end() {
      if (cap.over) return failure(format, problems);
      const text = parts.join('');
      parts.length = 0;
      return done(text);
    },
    get stopped() {
      return cap.over;
    },
  };
}

/** Counts buffered characters; past the cap, one fatal `too_large` problem and `over` from then on. */
function capped(format: TraceFormat, maxChars: number, problems: TraceProblem[]): { add(n: number): boolean; readonly over: boolean } {
  let seen = 0;
  let over = false;
  return {
    add(n) {
      if (over) return false;
      seen += n;
      if (seen <= maxChars) return true;
      over = true;
      problems.push(traceProblem('too_large', 0, `${TRACE_FORMAT_LABELS[format]} files are read whole, and this one is past the limit of ${maxChars} characters`, 'error', true));
      return false;
    },
    get over() {
      return over;
    },
  };
}

export function fileStem(name: string | undefined): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.(traj\.json|jsonl|json|traj|hwtrace|md)$/i, '');
  return stem === '' ? null : stem.slice(0, 200);
}

/** FNV-1a (32 bit) of the text, as 8 hex digits: a stable id for a source that carries none. */
export function contentHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
