import type { Decision } from '../model/decision.ts';
import type { ApprovalAnswer, ApprovalSource } from '../model/approval.ts';
import type { HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';

/**
 * The trace file's types, format `hookwire.trace` version 1 (JSON Lines): line 1 is a header, every
 * following non-blank line is one event. The checks live in `traceSchema.ts`, whose inferred types must
 * equal these (a compile-time check there); they are written out here so the package's public declarations
 * need no schema library. Semantics live in SPEC.md (rules T1..).
 */
export const TRACE_FORMAT = 'hookwire.trace';
export const TRACE_VERSION = 1;

/** Where a trace came from: `kind` names the recorder or importer (`runtime`, `cli`, `claude-code`, `otel-genai`, …); the rest is source-specific. */
export interface TraceSource {
  kind: string;
  [field: string]: unknown;
}

/** Line 1 of a trace file. Unknown fields are kept (a recorder may add its own). */
export interface TraceHeader {
  format: typeof TRACE_FORMAT;
  version: typeof TRACE_VERSION;
  /** Default trace_id of every event that has none. */
  trace_id: string;
  /** Default agent_id of every event that has none. */
  agent_id: string;
  source: TraceSource;
  /** When the run was recorded (for imports: the first timestamp of the source); ISO 8601 with a zone. */
  created: string;
  title?: string;
  [field: string]: unknown;
}

/** The answer to an ASK when it was recorded: replay reproduces it without asking again. */
export interface RecordedApproval {
  answer: ApprovalAnswer;
  by: ApprovalSource;
  reason?: string;
  /** Who answered, as the approver named them [AP1]. */
  who?: string;
  /** When the answer arrived (ISO 8601) [AP1]. */
  at?: string;
  /** Approved with an edit [AP2]: the payload run instead, recorded as the next event (`<id>:edit`). */
  edit?: JsonObject;
}

/** The decision production made when the event was recorded. Replay compares against it. */
export interface RecordedDecision {
  decision: Decision;
  reason?: string;
  approval?: RecordedApproval;
  /** Texts for the model the handlers added, in order. */
  context?: string[];
  /** The version of the pipeline that decided (hookwire serve: "sha256:<16 hex>" of the pipeline file). */
  pipeline?: string;
  /** The handler whose decision won (hookwire serve, claude-hook --record and the runtime's record sink write it; absent: none, or not recorded) [R6]. */
  decided_by?: string;
  /**
   * The code nodes (handler or matcher ids) the wall-clock safety net stopped when this was recorded [S14]:
   * replay reproduces their timeout instead of running them again on another machine.
   */
  wall_clock?: string[];
}

/** An event as it may be written in a file: a HookEvent whose trace_id/agent_id may be left out (the header's are used). */
export interface TraceEventLine {
  event_id: string;
  trace_id?: string;
  agent_id?: string;
  /** Dotted event type, e.g. `tool.before_call`. */
  type: string;
  /** ISO 8601 with a zone, e.g. `2026-02-10T21:11:52.438Z`. */
  ts: string;
  payload: JsonObject;
  /** Metadata: user_id, tenant, annotations kept by importers, … */
  meta?: JsonObject;
  recorded?: RecordedDecision;
  /** The line's hash-chain field [K1] (docs/records.md); the reader checks it and drops it from the event. */
  chain?: string;
}

/** An event in memory: a full HookEvent (ids filled from the header) plus the recorded decision, if any. */
export type TraceEvent = HookEvent & { recorded?: RecordedDecision };

/** A whole trace in memory. */
export interface Trace {
  header: TraceHeader;
  events: TraceEvent[];
}
