import { z } from 'zod';
import { sameType, type Same } from '../model/sameType.ts';
import { DECISIONS, type Decision } from '../model/decision.ts';
import { APPROVAL_ANSWERS, APPROVAL_SOURCES, type ApprovalAnswer, type ApprovalSource } from '../model/approval.ts';
import { EVENT_TYPE_RE } from '../model/event.ts';
import { isJsonObject, type JsonObject } from '../model/json.ts';
import { TRACE_FORMAT, TRACE_VERSION, type RecordedApproval, type RecordedDecision, type TraceEventLine, type TraceHeader, type TraceSource } from './traceTypes.ts';

/**
 * The checks of a trace file, format `hookwire.trace` version 1 (JSON Lines). The JSON Schema shipped in
 * `engine/schema/trace.v1.schema.json` is generated from these schemas (`npm run schema`); the types are
 * written out in `traceTypes.ts`, and the end of this file makes the compiler hold the two equal.
 *
 * Semantics live in SPEC.md (rules T1..). The reader validates each line with these schemas but keeps the
 * object `JSON.parse` made, so keys such as `__proto__` in a payload survive [V8].
 */
/** The pattern IsoTs checks (zod's own, for the same options): the reader's hand checks below use it too. */
const ISO_TS_RE = z.regexes.datetime({ offset: true });

/**
 * The schemas, built on first use (`traceSchemas()`), not when the module loads: a reader whose lines and header
 * pass the hand checks below never asks them, and building them was ~40 ms of a CLI command's start-up without
 * V8's code cache (zod's object, string and datetime builders).
 */
function buildTraceSchemas() {
  /** Where a trace came from: `kind` names the recorder or importer; the rest is source-specific. */
  const TraceSourceSchema = z
    .looseObject({
      kind: z.string().min(1).describe('"runtime", "cli", "claude-code", "otel-genai", "swe-agent", "openhands", "test", ...'),
    })
    .describe('Where the trace came from; fields beside kind are source-specific (session id, file name, ...).');

  const IsoTs = z.iso.datetime({ offset: true }).describe('ISO 8601 timestamp with a zone, e.g. "2026-02-10T21:11:52.438Z".');

  const Id = z.string().min(1).max(1000);

  /**
   * A JSON object. Checked as "a plain object", not key by key: the reader's input comes from JSON.parse, so
   * its values are JSON already, and a per-key check costs more than the parse (measured in import.bench).
   * `.meta` gives the generated JSON Schema its `type`.
   */
  function jsonObjectField(description: string) {
    return z.custom<JsonObject>(isJsonObject, { message: 'expected a JSON object' }).meta({ type: 'object', description });
  }

  /** Line 1 of a trace file. Unknown fields are kept (a recorder may add its own). */
  const TraceHeaderSchema = z
    .looseObject({
      format: z.literal(TRACE_FORMAT),
      version: z.literal(TRACE_VERSION),
      trace_id: Id.describe('Default trace_id of every event that has none.'),
      agent_id: Id.describe('Default agent_id of every event that has none.'),
      source: TraceSourceSchema,
      created: IsoTs.describe('When the run was recorded (for imports: the first timestamp of the source).'),
      title: z.string().max(1000).optional(),
    })
    .describe('Header line of a Hookwire trace (JSON Lines), format hookwire.trace version 1.');

  /** The decision production made when the event was recorded. Replay compares against it. */
  const RecordedApprovalSchema = z
    .strictObject({
      answer: z.enum(APPROVAL_ANSWERS as [ApprovalAnswer, ...ApprovalAnswer[]]),
      by: z.enum(APPROVAL_SOURCES as [ApprovalSource, ...ApprovalSource[]]),
      reason: z.string().max(10_000).optional(),
      who: z.string().min(1).max(200).optional().describe('Who answered, as the approver named them.'),
      at: IsoTs.optional().describe('When the answer arrived.'),
      edit: jsonObjectField('Approved with an edit: the payload run instead, dispatched again as the next event.').optional(),
    })
    .describe('The answer to an ASK when it was recorded: replay reproduces it without asking again.');

  const RecordedDecisionSchema = z.strictObject({
    decision: z.enum(DECISIONS as [Decision, ...Decision[]]),
    reason: z.string().optional(),
    approval: RecordedApprovalSchema.optional(),
    context: z.array(z.string()).optional().describe('Texts for the model the handlers added, in order.'),
    pipeline: z.string().min(1).max(200).optional().describe('The version of the pipeline that decided (hookwire serve: "sha256:<16 hex>" of the pipeline file).'),
    decided_by: z.string().min(1).max(200).optional().describe('The id of the handler whose decision won when recorded (hookwire serve, claude-hook --record and the runtime write it).'),
    wall_clock: z.array(z.string().min(1).max(200)).max(1000).optional().describe('The code nodes (handler or matcher ids) the wall-clock safety net stopped when recorded: replay reproduces their timeout instead of running them again.'),
  });

  /**
   * One event line: a HookEvent (engine/model/event.ts) whose trace_id/agent_id may be left out (the header's
   * are used), plus the optional recorded decision. Unknown fields are refused, so a typo is a reported
   * problem and not a silently ignored field.
   */
  const TraceEventLineSchema = z
    .strictObject({
      event_id: Id,
      trace_id: Id.optional(),
      agent_id: Id.optional(),
      type: z.string().max(200).regex(EVENT_TYPE_RE, 'expected a dotted event type such as "tool.before_call"').describe('Dotted event type, e.g. "tool.before_call".'),
      ts: IsoTs,
      payload: jsonObjectField('The event payload (a JSON object).'),
      meta: jsonObjectField('Metadata: user_id, tenant, annotations kept by importers, ...').optional(),
      recorded: RecordedDecisionSchema.optional(),
      chain: z.string().regex(/^[0-9a-f]{64}$/).optional().describe('The line\'s hash-chain field [K1] (docs/records.md): hex SHA-256 of the previous line\'s hash and this line.'),
    })
    .describe('One event line of a Hookwire trace.');
  return { TraceSourceSchema, IsoTs, TraceHeaderSchema, RecordedApprovalSchema, RecordedDecisionSchema, TraceEventLineSchema };
}

let built: ReturnType<typeof buildTraceSchemas> | undefined;

/** The trace schemas (zod), built once on first use. `traceSchemas().TraceEventLineSchema.safeParse(line)` */
export function traceSchemas(): ReturnType<typeof buildTraceSchemas> {
  return (built ??= buildTraceSchemas());
}

/**
 * True for a timestamp a trace line accepts: ISO 8601 with a zone (`Z` or an offset) [T4]. The pattern IsoTs
 * checks, tested directly: asking IsoTs would build every trace schema for one string.
 */
export function isTraceTimestamp(ts: string): boolean {
  return ISO_TS_RE.test(ts);
}

const CHAIN_RE = /^[0-9a-f]{64}$/;
const DECISION_SET: ReadonlySet<string> = new Set(DECISIONS);
const ANSWER_SET: ReadonlySet<string> = new Set(APPROVAL_ANSWERS);
const SOURCE_SET: ReadonlySet<string> = new Set(APPROVAL_SOURCES);
const isId = (v: unknown): boolean => typeof v === 'string' && v.length >= 1 && v.length <= 1000;
const isTs = (v: unknown): boolean => typeof v === 'string' && ISO_TS_RE.test(v);
const isText = (v: unknown, min: number, max: number): boolean => typeof v === 'string' && v.length >= min && v.length <= max;

/**
 * True only for an event line TraceEventLineSchema accepts: the trace reader's hand check, so the common line is
 * checked without zod (zod's object parse was a tenth of a replay's CPU). It may say false for a line the schema
 * would accept (then the reader asks the schema); it must never say true for one the schema refuses
 * (test/engine/trace/traceSchema.test.ts holds the two together on generated lines). A refused line's message
 * is always the schema's. Keys are compared as plain names (`__proto__` is an unknown key here as in zod).
 */
export function surelyValidEventLine(line: JsonObject): boolean {
  let sawId = false;
  let sawType = false;
  let sawTs = false;
  let sawPayload = false;
  for (const key of Object.keys(line)) {
    const v = line[key];
    switch (key) {
      case 'event_id':
        if (!isId(v)) return false;
        sawId = true;
        break;
      case 'trace_id':
      case 'agent_id':
        if (!isId(v)) return false;
        break;
      case 'type':
        if (typeof v !== 'string' || v.length > 200 || !EVENT_TYPE_RE.test(v)) return false;
        sawType = true;
        break;
      case 'ts':
        if (!isTs(v)) return false;
        sawTs = true;
        break;
      case 'payload':
        if (!isJsonObject(v)) return false;
        sawPayload = true;
        break;
      case 'meta':
        if (!isJsonObject(v)) return false;
        break;
      case 'recorded':
        if (!isJsonObject(v) || !surelyValidRecorded(v)) return false;
        break;
      case 'chain':
        if (typeof v !== 'string' || !CHAIN_RE.test(v)) return false;
        break;
      default:
        return false;
    }
  }
  return sawId && sawType && sawTs && sawPayload;
}

/**
 * True only for a header TraceHeaderSchema accepts [T1]: the reader's hand check of line 1, so reading a trace
 * whose header is as writers make it never builds the schemas. It may say false for a header the schema would
 * accept (then the reader asks the schema, whose message a refused header gets); never true for one the schema
 * refuses (test/engine/trace/traceSchema.test.ts holds the two together on generated headers). Unknown keys are
 * kept, as the schema's loose object keeps them.
 */
export function surelyValidHeader(h: JsonObject): boolean {
  if (h.format !== TRACE_FORMAT || h.version !== TRACE_VERSION || !isId(h.trace_id) || !isId(h.agent_id) || !isTs(h.created)) return false;
  const source = h.source;
  if (!isJsonObject(source) || !isText(source.kind, 1, Infinity)) return false;
  return !Object.hasOwn(h, 'title') || isText(h.title, 0, 1000);
}

function surelyValidRecorded(r: JsonObject): boolean {
  let sawDecision = false;
  for (const key of Object.keys(r)) {
    const v = r[key];
    switch (key) {
      case 'decision':
        if (typeof v !== 'string' || !DECISION_SET.has(v)) return false;
        sawDecision = true;
        break;
      case 'reason':
        if (typeof v !== 'string') return false;
        break;
      case 'approval':
        if (!isJsonObject(v) || !surelyValidApproval(v)) return false;
        break;
      case 'context':
        if (!Array.isArray(v) || !v.every((c) => typeof c === 'string')) return false;
        break;
      case 'pipeline':
      case 'decided_by':
        if (!isText(v, 1, 200)) return false;
        break;
      case 'wall_clock':
        if (!Array.isArray(v) || v.length > 1000 || !v.every((c) => isText(c, 1, 200))) return false;
        break;
      default:
        return false;
    }
  }
  return sawDecision;
}

function surelyValidApproval(a: JsonObject): boolean {
  let sawAnswer = false;
  let sawBy = false;
  for (const key of Object.keys(a)) {
    const v = a[key];
    switch (key) {
      case 'answer':
        if (typeof v !== 'string' || !ANSWER_SET.has(v)) return false;
        sawAnswer = true;
        break;
      case 'by':
        if (typeof v !== 'string' || !SOURCE_SET.has(v)) return false;
        sawBy = true;
        break;
      case 'reason':
        if (!isText(v, 0, 10_000)) return false;
        break;
      case 'who':
        if (!isText(v, 1, 200)) return false;
        break;
      case 'at':
        if (!isTs(v)) return false;
        break;
      case 'edit':
        if (!isJsonObject(v)) return false;
        break;
      default:
        return false;
    }
  }
  return sawAnswer && sawBy;
}

// The written-out types are exactly what the checks accept and produce: a compile error here names the drift.
type Schemas = ReturnType<typeof buildTraceSchemas>;
sameType<Same<TraceSource, z.infer<Schemas['TraceSourceSchema']>>>();
sameType<Same<TraceHeader, z.infer<Schemas['TraceHeaderSchema']>>>();
sameType<Same<RecordedApproval, z.infer<Schemas['RecordedApprovalSchema']>>>();
sameType<Same<RecordedDecision, z.infer<Schemas['RecordedDecisionSchema']>>>();
sameType<Same<TraceEventLine, z.infer<Schemas['TraceEventLineSchema']>>>();
