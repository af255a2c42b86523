import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { traceProblem } from '../traceProblem.ts';
import type { ElementImporter, ImporterOptions, ImportResult } from './importReport.ts';
import { OTEL_FINAL_TOOLS, OTEL_OPERATIONS, otelAttr, otelIdHex, parseMaybeJson, spanAttributes, type OtelField } from './otelAttributes.ts';
import { ownGet } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { hookwireSeq, hookwireSpanEvent, isHookwireSpan } from './hookwireSpans.ts';
import { spansOfEntry, spansOfValue } from './otlpSpans.ts';
import type { KeyedImporter } from './keyedImporter.ts';
import { latestTime, orderSpanPoints, spanMicros } from './spanOrder.ts';
import { SpanColumns } from './spanColumns.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { heldValues, type HeldValues } from './heldValues.ts';
import type { RecordStore } from '../../model/idIndex.ts';
import { toIsoTs } from './toIsoTs.ts';
import { messageText } from './contentText.ts';

/**
 * OpenTelemetry GenAI spans as JSON (any-agent flavour `{spans, final_output}`, or a bare span array) →
 * trace v1. Rules [I5]. Spans are listed in end order, so every span becomes a start point and an end
 * point, sorted by time (ends before starts at the same instant; a parent starts before, ends after, its
 * children). Event ids are `otel:<span id hex>:<event type>`.
 *
 * | span (gen_ai.operation.name)           | at start                                     | at end                                          |
 * |----------------------------------------|----------------------------------------------|-------------------------------------------------|
 * | invoke_agent / create_agent            | agent.start {agent_name, model, attributes}  | [final_answer.* from final_output] agent.end    |
 * |                                        |                                              | {status}; status error → agent.error first      |
 * | call_llm / chat / text_completion /    | first with input messages: input.received    | model.after_call {model, response, usage, cost, |
 * |   generate_content                     |   {prompt}, prompt.built {messages};         |   output_type}; tool calls in the output become |
 * |                                        | model.before_call {model, messages?}         |   tool_use blocks                               |
 * | execute_tool                           | tool.before_call {tool_name, tool_input,     | tool.after_call {…, tool_response, is_error}    |
 * |                                        |   tool_use_id (call id, else span id)}       |                                                 |
 * | execute_tool final_answer/final_output | final_answer.before {text}                   | final_answer.after {text}                       |
 * | anything else                          | unknown `span:<operation or name>` (counted) |                                                 |
 */
export function importOtelGenai(doc: unknown, options: SpanImportOptions = {}): ImportResult {
  const spans: JsonObject[] = [];
  const bad: string[] = [];
  spansOfValue(doc, spans, bad);
  const collected = new SpanCollector(options.spool);
  for (const span of spans) collected.add(span);
  return spanDocumentResult(collected, bad, isJsonObject(doc) ? doc.final_output : undefined, options);
}

/** The import of a span document's spans, with its entries that held no span listed first. */
function spanDocumentResult(collected: SpanCollector, bad: readonly string[], finalOutput: unknown, options: SpanImportOptions): ImportResult {
  if (collected.count === 0) {
    return { ok: false, problem: traceProblem('bad_source', 0, 'no span found: expected {"spans": [...]}, an array of spans or OTLP resourceSpans with spans', 'error', true) };
  }
  const result = collected.finish({ ...options, finalOutput, sourceRecords: collected.count });
  // Entries that hold no span are listed, not skipped silently [I11].
  if (result.ok) result.problems = [...bad.slice(0, MAX_LISTED).map((why) => traceProblem('unreadable_record', 0, `${why}; it was skipped`)), ...(result.problems ?? [])];
  return result;
}

const MAX_LISTED = 1000;

/**
 * An any-agent document (`{"spans": [...], "final_output": …}`) or a span array, fed as it streams [I1]: the
 * entries of the span list one at a time (KeyedFeeder, or elementsBody for an array), the spans kept in
 * `options.spool` when given (SpanCollector); the events are made at the end, as `importOtelGenai` makes them
 * from the whole document, with the same entries listed. An object that is read another way whole (it has
 * `resourceSpans`, or is a span itself) or whose `spans` is no array is imported from its members as the whole
 * document is.
 */
export function otelGenaiImporter(options: ImporterOptions, onEvent: (e: TraceEvent) => void): KeyedImporter & ElementImporter {
  const opts: SpanImportOptions = { ...options, onEvent };
  const collected = new SpanCollector(options.spool);
  const bad: string[] = [];
  const listBad = (why: string) => {
    if (bad.length < MAX_LISTED) bad.push(why);
  };
  let entries = 0;
  const entry = (v: unknown): void => {
    const out: JsonObject[] = [];
    const inner: string[] = [];
    const e = spansOfEntry(v, entries++, out, inner);
    for (const span of out) collected.add(span);
    for (const why of inner) listBad(why);
    // Listed at once: a list of one entry that holds no span has no span at all, and its import is refused.
    if (e.notSpan !== null) listBad(e.notSpan);
  };
  return {
    arrays: new Set(['spans']),
    needs: [],
    begin() {},
    element: (_key, value) => entry(value),
    record: (value) => entry(value),
    finish(shellOrCount: JsonObject | number, arrays?: ReadonlyMap<string, number>): ImportResult {
      if (typeof shellOrCount === 'number') return spanDocumentResult(collected, bad, undefined, opts);
      const shell = shellOrCount;
      // Not streamed (`spans` is no array), or an object whose spans are read from other members: as read whole.
      if (!arrays?.has('spans') || spansOfValue(shell, [], []) !== null) return importOtelGenai(shell, opts);
      return spanDocumentResult(collected, bad, shell.final_output, opts);
    },
  };
}

/** Options of importSpans: the importer's, plus what the document around the spans said. */
export interface SpanImportOptions extends ImporterOptions {
  /** any-agent's `final_output`: the final answer when no final_answer tool gave one. */
  finalOutput?: unknown;
  sourceRecords?: number;
  format?: 'otel-genai' | 'otlp-json' | 'otel-spans-jsonl' | 'otel-console';
  /** Hand events over as they are built (see TraceBuilder.streamTo). */
  onEvent?: (event: TraceEvent) => void;
}

/**
 * Maps spans in the SDK's to_json shape (otlpSpans.ts brings OTLP to it) to trace v1 [I5]. When some
 * spans are Hookwire's own (hookwireSpans.ts), those are the events, with their recorded decisions [I8].
 */
export function importSpans(spans: readonly JsonObject[], options: SpanImportOptions = {}): ImportResult {
  const collected = new SpanCollector(options.spool);
  for (const span of spans) collected.add(span);
  return collected.finish(options);
}

/**
 * The spans of one trace, gathered as they are read (a document or stream of any size [I1]) and imported at the
 * end, since their events are ordered by time across all of them [I5]. Each span is kept in `spool` when one is
 * given (a temporary file in the CLI: memory holds a handle and what the ordering needs of it in columns,
 * spanColumns.ts), else in memory; at the end a span is read back at its start point and let go at its end point.
 *
 * @example const c = new SpanCollector(); c.add(span); c.finish({ format: 'otlp-json', onEvent })
 */
export class SpanCollector {
  private readonly held: HeldValues;
  private readonly cols = new SpanColumns();
  private hookwireTrace: string | undefined;
  private lossy = false;

  constructor(spool?: RecordStore) {
    this.held = heldValues(spool);
  }

  get count(): number {
    return this.cols.count;
  }

  add(span: JsonObject): void {
    const attrs = spanAttributes(span);
    const id = otelIdHex(ctx(span).span_id, 16);
    const parentCtx = isJsonObject(span.parent) ? span.parent.span_id : span.parent_id;
    const start = spanMicros(span.start_time);
    const hookwire = isHookwireSpan(attrs);
    this.cols.add({
      hex: id?.hex ?? null,
      parent: parentCtx === undefined || parentCtx === null ? null : (otelIdHex(parentCtx, 16)?.hex ?? null),
      start,
      end: Math.max(start, spanMicros(span.end_time)),
      op: String(otelAttr(attrs, 'operation')?.value ?? span.name ?? '(no name)'),
      hookwire,
      seq: hookwire ? hookwireSeq(attrs) : Infinity,
    });
    this.held.push(span);
    if (id?.lossy === true) this.lossy = true;
    if (hookwire && this.hookwireTrace === undefined) {
      const v = ownGet(attrs, 'hookwire.trace.id');
      if (typeof v === 'string' && v !== '') this.hookwireTrace = v;
    }
  }

  finish(options: SpanImportOptions = {}): ImportResult {
    const cols = this.cols;
    const n = cols.count;
    const spanOf = (i: number): JsonObject => this.held.get(i) as JsonObject;
    let rootIndex = 0;
    while (rootIndex < n && cols.hasKnownParent(rootIndex)) rootIndex++;
    const root = n === 0 ? undefined : viewOf(cols, rootIndex < n ? rootIndex : 0);
    const rootSpan = root ? spanOf(root.index) : undefined;
    const traceHex = rootSpan ? otelIdHex(ctx(rootSpan).trace_id, 32) : null;
    const agentName = rootSpan ? otelAttr(spanAttributes(rootSpan), 'agent_name')?.value : undefined;
    const b = new TraceBuilder(options.format ?? 'otel-genai', 'otel', traceHex?.hex ?? options.fallbackTraceId ?? 'otel', typeof agentName === 'string' ? agentName : 'otel-agent');
    if (options.onEvent) b.streamTo(options.onEvent);
    if (this.hookwireTrace !== undefined) b.traceId = this.hookwireTrace;
    if (this.lossy) b.warn('span ids were numbers past 2^53 and lost precision; import through importTrace, which keeps them exact');
    const last = root?.kind === 'agent' ? root.index : -1;
    const points = orderSpanPoints(cols, last);
    const latest = latestTime(cols);
    const timeOf = (p: number): number => ((p & 1) === 0 ? cols.start(p >>> 1) : p >>> 1 === last ? latest : cols.end(p >>> 1));
    let hookwire = false;
    for (let i = 0; i < n && !hookwire; i++) hookwire = cols.hookwire(i);
    const state = { sawInput: false, sawFinal: false, finalOutput: options.finalOutput, usedAliases: new Set<string>() };
    const edgeTs = (p: number | undefined) => (p !== undefined ? (toIsoTs(timeOf(p))?.iso ?? null) : null);
    if (hookwire) {
      // Hookwire's spans are the events exactly as dispatched: nothing is synthesised around them, and they keep
      // the runtime's dispatch order (`hookwire.event.seq`; span clocks of different parents may disagree a little).
      const ordered: number[] = [];
      for (let i = 0; i < n; i++) {
        if (cols.hookwire(i)) ordered.push(i);
        else b.skip(`span:${cols.op(i)}`);
      }
      ordered.sort((x, y) => (cols.seq(x) !== cols.seq(y) ? (cols.seq(x) < cols.seq(y) ? -1 : 1) : cols.start(x) - cols.start(y) || x - y));
      for (const i of ordered) hookwirePoint(b, viewOf(cols, i), spanOf(i), cols.start(i));
      b.note('the file has Hookwire spans: they are the events, with the decisions recorded in them; other spans are counted as skipped');
    } else {
      // Without an agent span (a partial export), the run's start and end are synthesised at the first and last points.
      let hasAgent = false;
      for (let i = 0; i < n && !hasAgent; i++) hasAgent = kindOf(cols.op(i)) === 'agent';
      if (!hasAgent) b.emit('agent.start', 'agent.start', edgeTs(points[0]), { synthesised: true });
      // A span is read back at its start and kept only until its end: the spans open at one time.
      const open = new Map<number, JsonObject>();
      for (const p of points) {
        const i = p >>> 1;
        const end = (p & 1) === 1;
        let span = open.get(i);
        if (span === undefined) span = spanOf(i);
        if (end) open.delete(i);
        else open.set(i, span);
        onPoint(b, viewOf(cols, i), span, end, timeOf(p), state, root);
      }
      if (!hasAgent) {
        const ts = edgeTs(points[points.length - 1]);
        if (!state.sawFinal) emitFinalOutput(b, state, 'final_output', ts);
        b.emit('agent.end', 'agent.end', ts, { status: 'unset', synthesised: true });
      }
    }
    for (const name of state.usedAliases) b.note(`read ${name} (an alias; see SPEC I5)`);
    const source: JsonObject = { kind: options.format ?? 'otel-genai', spans: n };
    if (options.fileName) source.file_name = options.fileName;
    return b.finish(source as JsonObject & { kind: string }, options.sourceRecords ?? n);
  }
}

/** What the mapping reads of one span besides the span itself, made when its point comes. */
interface SpanView {
  index: number;
  hex: string;
  kind: 'agent' | 'model' | 'tool' | null;
  op: string;
}

function viewOf(cols: SpanColumns, i: number): SpanView {
  const op = cols.op(i);
  return { index: i, hex: cols.hex(i), kind: kindOf(op), op };
}

function kindOf(op: string): SpanView['kind'] {
  return ownGet(OTEL_OPERATIONS, op) === undefined ? null : (OTEL_OPERATIONS[op] as 'agent' | 'model' | 'tool');
}

interface OtelState {
  sawInput: boolean;
  sawFinal: boolean;
  finalOutput: unknown;
  usedAliases: Set<string>;
}

function ctx(span: JsonObject): JsonObject {
  return isJsonObject(span.context) ? span.context : {};
}

/** A Hookwire span is one event at its start; every other span of such a file is counted as skipped. */
function hookwirePoint(b: TraceBuilder, s: SpanView, span: JsonObject, t: number): void {
  const e = hookwireSpanEvent(spanAttributes(span), (m) => b.warn(m));
  const ts = e.ts ?? toIsoTs(t)?.iso ?? null;
  const opts: { exactId?: boolean; agentId?: string } = e.id !== undefined ? { exactId: true } : {};
  if (e.agentId !== undefined) opts.agentId = e.agentId;
  const ev = b.emit(e.type, e.id ?? `${s.hex}:${e.type}`, ts, e.payload, opts);
  if (e.traceId !== undefined) ev.trace_id = e.traceId;
  if (e.meta) ev.meta = e.meta;
  if (e.recorded) ev.recorded = e.recorded;
}

function onPoint(b: TraceBuilder, s: SpanView, span: JsonObject, end: boolean, t: number, st: OtelState, root: SpanView | undefined): void {
  const attrs = spanAttributes(span);
  const get = (f: OtelField): JsonValue | undefined => {
    const a = otelAttr(attrs, f);
    if (a && a.name !== (OTEL_ALIASES_FIRST[f] ?? a.name)) st.usedAliases.add(`${a.name} as ${OTEL_ALIASES_FIRST[f]}`);
    return a?.value;
  };
  const ts = toIsoTs(t)?.iso ?? null;
  const id = (type: string): string => `${s.hex}:${type}`;
  const status = isJsonObject(span.status) ? span.status : {};
  const isError = status.status_code === 'error' || status.status_code === 'ERROR' || status.status_code === 2;
  if (s.kind === null) {
    if (!end) b.unknownRecord(`span:${s.op}`, 0, span, `span ${s.hex}: `);
    return;
  }
  if (s.kind === 'agent') return agentPoint(b, s, span, end, st, root, { get, ts, id, isError, status });
  if (s.kind === 'model') return modelPoint(b, end, st, { get, ts, id });
  toolPoint(b, s, span, end, st, { get, ts, id, isError });
}

/** The first name of each alias list (the spec's), to note when another name answered. */
const OTEL_ALIASES_FIRST: Partial<Record<OtelField, string>> = {
  input_messages: 'gen_ai.input.messages',
  output_messages: 'gen_ai.output.messages',
  tool_args: 'gen_ai.tool.call.arguments',
  tool_result: 'gen_ai.tool.call.result',
  input_tokens: 'gen_ai.usage.input_tokens',
  output_tokens: 'gen_ai.usage.output_tokens',
  model: 'gen_ai.request.model',
};

interface PointCtx {
  get: (f: OtelField) => JsonValue | undefined;
  ts: string | null;
  id: (type: string) => string;
}

function agentPoint(b: TraceBuilder, s: SpanView, span: JsonObject, end: boolean, st: OtelState, root: SpanView | undefined, c: PointCtx & { isError: boolean; status: JsonObject }): void {
  if (!end) {
    const p: JsonObject = { agent_name: c.get('agent_name') ?? null, span_id: s.hex, attributes: spanAttributes(span) };
    const model = c.get('model');
    if (model !== undefined) p.model = model;
    b.emit('agent.start', c.id('agent.start'), c.ts, p);
    return;
  }
  if (s.index === root?.index && !st.sawFinal) emitFinalOutput(b, st, s.hex, c.ts);
  if (c.isError) b.emit('agent.error', c.id('agent.error'), c.ts, { error: String(c.status.description ?? 'the agent span ended with status error') });
  b.emit('agent.end', c.id('agent.end'), c.ts, { status: String(c.status.status_code ?? 'unset') });
}

/** The document's `final_output` as the final answer, when no final_answer tool gave one. */
function emitFinalOutput(b: TraceBuilder, st: OtelState, idBase: string, ts: string | null): void {
  if (st.finalOutput === undefined || st.finalOutput === null) return;
  st.sawFinal = true;
  const text = typeof st.finalOutput === 'string' ? st.finalOutput : JSON.stringify(st.finalOutput);
  b.emit('final_answer.before', `${idBase}:final_answer.before`, ts, { text, source: 'final_output' });
  b.emit('final_answer.after', `${idBase}:final_answer.after`, ts, { text, source: 'final_output' });
}

function modelPoint(b: TraceBuilder, end: boolean, st: OtelState, c: PointCtx): void {
  const model = c.get('model');
  if (!end) {
    const raw = c.get('input_messages');
    const messages = raw === undefined ? undefined : parseMaybeJson(raw).value;
    if (!st.sawInput && Array.isArray(messages)) {
      st.sawInput = true;
      const user = [...messages].reverse().find((m) => isJsonObject(m) && m.role === 'user') as JsonObject | undefined;
      if (user) b.emit('input.received', c.id('input.received'), c.ts, { prompt: messageText(user) });
      b.emit('prompt.built', c.id('prompt.built'), c.ts, { messages });
    }
    const p: JsonObject = {};
    if (model !== undefined) p.model = model;
    if (messages !== undefined) p.messages = messages;
    b.emit('model.before_call', c.id('model.before_call'), c.ts, p);
    return;
  }
  const out = c.get('output_messages');
  const outType = c.get('output_type');
  const p: JsonObject = { response: out === undefined ? '' : modelResponse(out, outType) };
  if (model !== undefined) p.model = model;
  if (outType !== undefined) p.output_type = outType;
  const reasons = c.get('finish_reasons');
  const stop = finishReason(out) ?? (Array.isArray(reasons) ? reasons[0] : reasons);
  if (stop !== undefined) p.stop_reason = stop;
  const usage: JsonObject = {};
  const inTok = c.get('input_tokens');
  const outTok = c.get('output_tokens');
  if (typeof inTok === 'number') usage.input_tokens = inTok;
  if (typeof outTok === 'number') usage.output_tokens = outTok;
  if (Object.keys(usage).length) p.usage = usage;
  const inCost = c.get('input_cost');
  const outCost = c.get('output_cost');
  if (inCost !== undefined || outCost !== undefined) p.cost = { input: inCost ?? null, output: outCost ?? null };
  b.emit('model.after_call', c.id('model.after_call'), c.ts, p);
}

/**
 * A model output as response blocks where the source says what they are: the GenAI conventions' output
 * messages (`[{role, parts: [{type: "text", content} | {type: "tool_call", id, name, arguments}]}]`) and
 * any-agent's tool calls (`[{"tool.name", "tool.args"}]`) become `text` / `tool_use` blocks; other JSON
 * text is parsed (a rule reads `response.field`); plain text stays text.
 */
function modelResponse(out: JsonValue, outType: JsonValue | undefined): JsonValue {
  const parsed = typeof out === 'string' ? parseMaybeJson(out).value : out;
  if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((m) => isJsonObject(m) && Array.isArray(m.parts))) {
    return parsed.flatMap((m) => ((m as JsonObject).parts as JsonValue[]).map(partBlock));
  }
  if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((x) => isJsonObject(x) && typeof x['tool.name'] === 'string')) {
    return parsed.map((x) => {
      const call = x as JsonObject;
      const args = parseMaybeJson(call['tool.args'] ?? {}).value;
      return { type: 'tool_use', name: call['tool.name'] as string, input: isJsonObject(args) ? args : { arguments: args } };
    });
  }
  // A JSON object or array sent as text is read as JSON whatever gen_ai.output.type says; a bare number
  // or word stays the text it was.
  void outType;
  if (typeof out === 'string' && (isJsonObject(parsed) || Array.isArray(parsed))) return parsed;
  return out;
}

/** One message part of the GenAI conventions as a response block. */
function partBlock(part: JsonValue): JsonValue {
  if (!isJsonObject(part)) return part;
  if (part.type === 'text') return { type: 'text', text: typeof part.content === 'string' ? part.content : JSON.stringify(part.content ?? '') };
  if (part.type === 'tool_call') {
    const args = part.arguments === undefined ? {} : parseMaybeJson(part.arguments).value;
    const block: JsonObject = { type: 'tool_use', name: String(part.name ?? ''), input: isJsonObject(args) ? args : { arguments: args } };
    if (part.id !== undefined) block.id = part.id;
    return block;
  }
  if (part.type === 'reasoning') return { type: 'thinking', thinking: typeof part.content === 'string' ? part.content : '' };
  return part;
}

/** The finish reason of the first output message, when the conventions' messages give one. */
function finishReason(out: JsonValue | undefined): JsonValue | undefined {
  const parsed = typeof out === 'string' ? parseMaybeJson(out).value : out;
  const first = Array.isArray(parsed) ? parsed[0] : undefined;
  return isJsonObject(first) && first.finish_reason !== undefined ? first.finish_reason : undefined;
}

function toolPoint(b: TraceBuilder, s: SpanView, span: JsonObject, end: boolean, st: OtelState, c: PointCtx & { isError: boolean }): void {
  const name = String(c.get('tool_name') ?? span.name ?? 'unknown');
  const rawArgs = c.get('tool_args');
  const args = rawArgs === undefined ? {} : parseMaybeJson(rawArgs).value;
  const input: JsonObject = isJsonObject(args) ? args : { arguments: args };
  if (rawArgs !== undefined && !isJsonObject(args)) b.warn(`tool ${name} (span ${s.hex}): arguments are not a JSON object; kept as tool_input.arguments`);
  const callId = c.get('tool_call_id');
  const useId = typeof callId === 'string' ? callId : s.hex;
  if (OTEL_FINAL_TOOLS.has(name)) {
    st.sawFinal = true;
    const answer = isJsonObject(args) && 'answer' in args ? args.answer : args;
    const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
    b.emit(end ? 'final_answer.after' : 'final_answer.before', c.id(end ? 'final_answer.after' : 'final_answer.before'), c.ts, { text, tool_name: name });
    return;
  }
  if (!end) {
    const p: JsonObject = { tool_name: name, tool_input: input, tool_use_id: useId };
    const d = c.get('tool_description');
    if (d !== undefined) p.description = d;
    b.emit('tool.before_call', c.id('tool.before_call'), c.ts, p);
    return;
  }
  const result = c.get('tool_result');
  const response = result === undefined ? null : parseMaybeJson(result).value;
  b.emit('tool.after_call', c.id('tool.after_call'), c.ts, { tool_name: name, tool_input: input, tool_response: response, is_error: c.isError, tool_use_id: useId });
}
