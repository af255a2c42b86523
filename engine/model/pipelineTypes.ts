import type { JsonObject, JsonValue } from './json.ts';

/**
 * The pipeline document's types, format `hookwire.pipeline` version 1: what a file holds (`PipelineInput`)
 * and what loading makes of it (`Pipeline`, defaults filled in). The checks live in `pipelineSchema.ts`,
 * whose inferred types must equal these (a compile-time check there), so the two cannot drift. They are
 * written out here, not inferred, so the package's public declarations need no schema library.
 *
 * Semantics (what the nodes mean) live in SPEC.md.
 */
export const PIPELINE_FORMAT = 'hookwire.pipeline';
export const PIPELINE_VERSION = 1;
/**
 * The `$id` of the pipeline JSON Schema [V10]: the file as the npm package ships it, on a CDN that serves
 * package files (`hookwire/schema/pipeline.v1.schema.json` locally; `hookwire ui` serves it at /schema/).
 */
export const PIPELINE_SCHEMA_ID = `https://unpkg.com/hookwire/dist/schema/pipeline.v${PIPELINE_VERSION}.schema.json`;

/** A condition: `{ "<path>": <operand> }` clauses, AND-ed; `all`/`any`/`not` combine conditions. See SPEC [C1]-[C9]. */
export type Condition = JsonObject;

/**
 * Each part comes in two forms: as written in a file (`…Input`, fields with a default may be left out) and
 * as loaded (the defaults filled in), which extends the written form.
 */

/** Code run in the sandbox, as written: a handler's action or a matcher's predicate [S1]. */
export interface CodeSpecInput {
  /** Default `ts`. */
  language?: 'js' | 'ts';
  source: string;
  /** Wall-clock safety net for one call [S7]; default: derived from the fuel, 100 ms a unit (100 s for the default fuel), at least 5 s. */
  timeout_ms?: number;
  /** Work limit of one call, the limit that decides [S13]; default 1000 units (0.1-0.85 s of CPU here, depending on the code). */
  fuel?: number;
  /** Heap limit of the sandbox; default 32 MB. */
  memory_mb?: number;
}
export interface CodeSpec extends CodeSpecInput {
  language: 'js' | 'ts';
}

export interface EventNode {
  id: string;
  kind: 'event';
  /** Event type: exact (`tool.before_call`), prefix wildcard (`tool.*`) or `*`. */
  pattern: string;
  label?: string;
}

export interface MatcherNodeInput {
  id: string;
  kind: 'matcher';
  label?: string;
  when?: Condition;
  /** CrewAI-style shorthand: `payload.tool_name` in [...]. */
  tools?: string[];
  /** CrewAI-style shorthand: `event.agent_id` in [...]. */
  agents?: string[];
  /** A predicate run in the sandbox; returns true to pass. */
  code?: CodeSpecInput;
}
export interface MatcherNode extends MatcherNodeInput {
  code?: CodeSpec;
}

export interface SetOp {
  op: 'set';
  path: string;
  value: JsonValue;
}
export interface RemoveOp {
  op: 'remove';
  path: string;
}
export interface RedactOpInput {
  op: 'redact';
  /** Field to redact; omitted: every string in the payload. */
  path?: string;
  /** Regular expression (RE2 syntax); omitted: the whole value. */
  pattern?: string;
  /** Default `[REDACTED]`. */
  replacement?: string;
}
export interface RedactOp extends RedactOpInput {
  replacement: string;
}
export type RewriteOpInput = SetOp | RemoveOp | RedactOpInput;
export type RewriteOp = SetOp | RemoveOp | RedactOp;

/** The actions that are the same as written and as loaded. Templates take `{{path}}` placeholders. */
type ReasonAction =
  | { type: 'block'; reason: string }
  | { type: 'terminate'; reason: string }
  | { type: 'stop'; reason?: string }
  /** `reason` is shown to the person asked to approve the action. */
  | { type: 'ask'; reason: string }
  /** `text` is for the model: "The deployment target is {{meta.env}}." */
  | { type: 'add_context'; text: string };

export interface RewriteActionInput {
  type: 'rewrite';
  ops: RewriteOpInput[];
}
export interface RewriteAction extends RewriteActionInput {
  ops: RewriteOp[];
}
export interface AuditActionInput {
  type: 'audit';
  /** Default `info`. */
  level?: 'info' | 'warn' | 'error';
  message?: string;
  /** Paths copied into the audit record. */
  fields?: string[];
}
export interface AuditAction extends AuditActionInput {
  level: 'info' | 'warn' | 'error';
}
export interface BudgetActionInput {
  type: 'budget';
  /** State key that accumulates, e.g. `tokens`. */
  key: string;
  /** Fixed amount per event (default 1). */
  amount?: number;
  /** Path whose number is added, e.g. `payload.usage.output_tokens`. */
  amount_path?: string;
  limit: number;
  /** Default `block`. */
  on_exceed?: 'block' | 'terminate';
  reason?: string;
}
export interface BudgetAction extends BudgetActionInput {
  on_exceed: 'block' | 'terminate';
}
export interface CodeActionInput extends CodeSpecInput {
  type: 'code';
}
export interface CodeAction extends CodeSpec {
  type: 'code';
}

/** Earlier events a flow rule remembers or forgets [F2]: an event pattern and, optionally, a condition on that event. */
export interface FlowSelector {
  /** Event type: exact, `prefix.*` or `*` [M1]. */
  event: string;
  when?: Condition;
}

/** The four flow constructs [F1]. */
export type FlowRuleKind = 'sequence' | 'flag' | 'window' | 'precondition';

/**
 * A flow rule [F1]-[F9]: decides the events its wiring selects by what happened earlier in the session.
 * `mark` is what it remembers (sequence: the earlier event A; flag: what sets it; window: what is counted;
 * precondition: what must have happened, C); `clear` what makes it forget (flag: what clears it;
 * precondition: the reset D). `sequence`, `flag` and `window` decide when at least `limit` marks are
 * remembered; `precondition` decides when none is.
 */
export interface FlowActionInput {
  type: 'flow';
  rule: FlowRuleKind;
  mark: FlowSelector;
  clear?: FlowSelector;
  /** `window`: how many marks within `within_ms` are allowed before the rule decides; the others: 1. */
  limit?: number;
  /** Marks older than this (by event time) are forgotten; `window` needs it. */
  within_ms?: number;
  /** Marks count only when the value at `earlier` (on the marked event) equals the value at `now` (on this event). */
  same?: { earlier: string; now: string };
  /** What the rule decides when it fires; default `block`. */
  decision?: 'block' | 'ask' | 'terminate';
  /** Default: the handler's name. The earlier step that set the state is added to it. */
  reason?: string;
}
export interface FlowAction extends FlowActionInput {
  decision: 'block' | 'ask' | 'terminate';
}

/** A handler's action as written [H3]-[H11]. */
export type ActionInput = ReasonAction | RewriteActionInput | AuditActionInput | BudgetActionInput | CodeActionInput | FlowActionInput;
/** A handler's action as loaded [H3]-[H11]. */
export type Action = ReasonAction | RewriteAction | AuditAction | BudgetAction | CodeAction | FlowAction;
export type ActionType = Action['type'];

/** A circuit breaker in front of a handler [E3]. */
export interface Breaker {
  /** Consecutive failures that open the breaker. */
  threshold: number;
  /** How long the breaker stays open. */
  cooldown_ms: number;
  /** While open, an event the handler matches: `skip` the handler, or `block` the action (the default for handlers that can block). */
  while_open?: 'skip' | 'block';
}

export interface HandlerNodeInput {
  id: string;
  kind: 'handler';
  name: string;
  /** Lower runs first; default 100. */
  order?: number;
  /** Default true. */
  enabled?: boolean;
  /** Evaluated and reported, never enforced; default false. */
  shadow?: boolean;
  timeout_ms?: number;
  /** A code handler's fuel [S13]; wins over its code's `fuel`. */
  fuel?: number;
  /** What a sync handler's error decides; default `block` (fail closed). */
  on_error?: 'block' | 'continue' | 'terminate';
  breaker?: Breaker;
  action: ActionInput;
}
export interface HandlerNode extends HandlerNodeInput {
  order: number;
  enabled: boolean;
  shadow: boolean;
  on_error: 'block' | 'continue' | 'terminate';
  action: Action;
}

export type PipelineNodeInput = EventNode | MatcherNodeInput | HandlerNodeInput;
export type PipelineNode = EventNode | MatcherNode | HandlerNode;

export interface Wire {
  from: string;
  to: string;
}

/** A custom event type, or an override of a built-in one's mode. */
export interface EventTypeDecl {
  type: string;
  mode: 'sync' | 'async';
  description?: string;
}

/** Canvas positions; no effect on semantics. */
export interface LayoutInput {
  nodes?: { id: string; x: number; y: number }[];
  viewport?: { x: number; y: number; zoom: number };
}
export interface Layout extends LayoutInput {
  nodes: { id: string; x: number; y: number }[];
}

/** A pipeline document as written in a file: defaults optional. */
export interface PipelineInput {
  /** The JSON Schema of this file, for editors; no effect on semantics. */
  $schema?: string;
  format: typeof PIPELINE_FORMAT;
  version: typeof PIPELINE_VERSION;
  name: string;
  description?: string;
  /** Custom event types and overrides of the built-in modes. */
  event_types?: EventTypeDecl[];
  nodes: PipelineNodeInput[];
  wires: Wire[];
  layout?: LayoutInput;
}
/** A pipeline document after loading: defaults filled in. */
export interface Pipeline extends PipelineInput {
  event_types: EventTypeDecl[];
  nodes: PipelineNode[];
  layout?: Layout;
}

/** Actions that can block: a breaker in front of one blocks while open unless told to skip [E3]. */
export const BLOCKING_ACTIONS: ReadonlySet<string> = new Set(['block', 'terminate', 'budget', 'code', 'ask', 'flow']);

/** What an open breaker does to an event the handler matches [E3]: `skip` the handler, or `block` the action. */
export function breakerWhileOpen(node: { breaker?: { while_open?: 'skip' | 'block' | undefined } | undefined; action: { type: string } }): 'skip' | 'block' {
  if (!node.breaker) return 'skip';
  return node.breaker.while_open ?? (BLOCKING_ACTIONS.has(node.action.type) ? 'block' : 'skip');
}

export const HANDLER_ACTION_TYPES: readonly ActionType[] = ['block', 'terminate', 'stop', 'ask', 'add_context', 'rewrite', 'audit', 'budget', 'code', 'flow'];
