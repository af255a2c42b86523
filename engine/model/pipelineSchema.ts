import { z } from 'zod';
import { sameType, type Same } from './sameType.ts';
import type { JsonValue } from './json.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION, type Action, type ActionInput, type CodeSpec, type Condition, type EventNode, type EventTypeDecl, type HandlerNode, type HandlerNodeInput, type Layout, type MatcherNode, type Pipeline, type PipelineInput, type PipelineNode, type RewriteOp, type Wire } from './pipelineTypes.ts';

/**
 * The checks of the pipeline document, format `hookwire.pipeline` version 1: what a file may hold. The JSON
 * Schema shipped in `engine/schema/pipeline.v1.schema.json` is generated from them; the types are written
 * out in `pipelineTypes.ts`, and the end of this file makes the compiler hold the two equal.
 *
 * Semantics (what the nodes mean) live in SPEC.md; here is only the shape. Conditions are checked in depth
 * by `compileCondition`, which reports problems with their JSON path like the rest of the loader.
 */

/** Any JSON value (typed as the engine's own `JsonValue`). */
const Json = z.json() as unknown as z.ZodType<JsonValue, JsonValue>;
const Id = z.string().min(1).max(200).describe('Node id, unique in the pipeline.');
const Template = z.string().max(10_000).describe('Text with {{path}} placeholders, e.g. "blocked {{payload.tool_name}}".');

/** A condition: `{ "<path>": <operand> }` clauses, AND-ed; `all`/`any`/`not` combine conditions. See SPEC [C1]-[C9]. */
export const ConditionSchema = z
  .record(z.string(), z.json())
  .describe('Condition: { "payload.tool_name": { "in": ["delete_file", "run_shell"] } }. Keys are dotted paths (payload., state., meta., event.) or all/any/not.');

export const CodeLanguageSchema = z.enum(['js', 'ts']);

export const CodeSpecSchema = z.strictObject({
  language: CodeLanguageSchema.default('ts'),
  source: z.string().max(200_000),
  timeout_ms: z.number().int().min(1).max(60_000).optional().describe('Wall-clock safety net for one call [S7]; default: derived from the fuel, far past it (100 ms a unit, at least 5 s: 100 s for the default fuel).'),
  fuel: z.number().int().min(1).max(10_000_000).optional().describe('Work limit of one call, the limit that decides, the same on every machine [S13]: units of about 10,000 interpreter steps or 10,000 characters/elements of built-in work; default 1000 (0.1-0.85 s of CPU here, depending on the code).'),
  memory_mb: z.number().min(1).max(512).optional().describe('Heap limit of the sandbox; default 32 MB.'),
});

export const EventNodeSchema = z.strictObject({
  id: Id,
  kind: z.literal('event'),
  pattern: z.string().min(1).describe('Event type: exact ("tool.before_call"), prefix wildcard ("tool.*") or "*".'),
  label: z.string().max(200).optional(),
});

export const MatcherNodeSchema = z.strictObject({
  id: Id,
  kind: z.literal('matcher'),
  label: z.string().max(200).optional(),
  when: ConditionSchema.optional(),
  tools: z.array(z.string()).optional().describe('CrewAI-style shorthand: payload.tool_name in [...].'),
  agents: z.array(z.string()).optional().describe('CrewAI-style shorthand: event.agent_id in [...].'),
  code: CodeSpecSchema.optional().describe('A predicate run in the sandbox; returns true to pass.'),
});

export const RewriteOpSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('set'), path: z.string().min(1), value: Json }),
  z.strictObject({ op: z.literal('remove'), path: z.string().min(1) }),
  z.strictObject({
    op: z.literal('redact'),
    path: z.string().min(1).optional().describe('Field to redact; omitted: every string in the payload.'),
    pattern: z.string().optional().describe('Regular expression (RE2 syntax); omitted: the whole value.'),
    replacement: z.string().default('[REDACTED]'),
  }),
]);

/** Earlier events a flow rule remembers or forgets [F2]. */
export const FlowSelectorSchema = z.strictObject({
  event: z.string().min(1).describe('Event type of the earlier event: exact, "prefix.*" or "*".'),
  when: ConditionSchema.optional().describe('Condition on the earlier event (its final payload).'),
});

/** A flow rule [F1]-[F9]. */
export const FlowActionSchema = z.strictObject({
  type: z.literal('flow'),
  rule: z.enum(['sequence', 'flag', 'window', 'precondition']).describe('sequence: A then B; flag: set by one event, cleared by another; window: N within T; precondition: B only if C since the last D.'),
  mark: FlowSelectorSchema.describe('What is remembered: sequence A, the flag setter, the counted event, or the precondition C.'),
  clear: FlowSelectorSchema.optional().describe('What forgets the marks: the flag clearer or the precondition reset D.'),
  limit: z.number().int().min(1).max(1000).optional().describe('window: marks allowed within within_ms before the rule decides (default 1).'),
  within_ms: z.number().int().min(1).optional().describe('Marks older than this, by event time, are forgotten; window needs it.'),
  same: z.strictObject({ earlier: z.string().min(1), now: z.string().min(1) }).optional().describe('Only marks whose value at earlier equals this event\'s value at now count (the same command, file, URL).'),
  decision: z.enum(['block', 'ask', 'terminate']).default('block'),
  reason: Template.optional(),
});

export const ActionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('block'), reason: Template }),
  z.strictObject({ type: z.literal('terminate'), reason: Template }),
  z.strictObject({ type: z.literal('stop'), reason: Template.optional() }),
  z.strictObject({ type: z.literal('ask'), reason: Template.describe('Shown to the person asked to approve the action, e.g. "deploy to {{payload.tool_input.env}}?".') }),
  z.strictObject({ type: z.literal('add_context'), text: Template.describe('Text for the model, e.g. "The deployment target is {{meta.env}}."') }),
  z.strictObject({ type: z.literal('rewrite'), ops: z.array(RewriteOpSchema).min(1) }),
  z.strictObject({
    type: z.literal('audit'),
    level: z.enum(['info', 'warn', 'error']).default('info'),
    message: Template.optional(),
    fields: z.array(z.string()).optional().describe('Paths copied into the audit record.'),
  }),
  z.strictObject({
    type: z.literal('budget'),
    key: z.string().min(1).describe('State key that accumulates, e.g. "tokens".'),
    amount: z.number().optional().describe('Fixed amount per event (default 1).'),
    amount_path: z.string().optional().describe('Path whose number is added, e.g. "payload.usage.output_tokens".'),
    limit: z.number(),
    on_exceed: z.enum(['block', 'terminate']).default('block'),
    reason: Template.optional(),
  }),
  z.strictObject({ type: z.literal('code'), ...CodeSpecSchema.shape }),
  FlowActionSchema,
]);

export const BreakerSchema = z.strictObject({
  threshold: z.number().int().min(1).describe('Consecutive failures that open the breaker.'),
  cooldown_ms: z.number().int().min(0).describe('How long the breaker stays open.'),
  while_open: z
    .enum(['skip', 'block'])
    .optional()
    .describe('What an event the handler matches gets while the breaker is open: skip the handler, or block the action (the default for handlers that can block) [E3].'),
});

export const HandlerNodeSchema = z.strictObject({
  id: Id,
  kind: z.literal('handler'),
  name: z.string().min(1).max(200),
  order: z.number().finite().default(100),
  enabled: z.boolean().default(true),
  shadow: z.boolean().default(false).describe('Evaluated and reported, never enforced.'),
  timeout_ms: z.number().int().min(1).max(60_000).optional(),
  fuel: z.number().int().min(1).max(10_000_000).optional().describe("A code handler's fuel [S13]; wins over its code's."),
  on_error: z.enum(['block', 'continue', 'terminate']).default('block').describe('What a sync handler error decides (fail closed by default).'),
  breaker: BreakerSchema.optional(),
  action: ActionSchema,
});

export const NodeSchema = z.discriminatedUnion('kind', [EventNodeSchema, MatcherNodeSchema, HandlerNodeSchema]);

export const WireSchema = z.strictObject({ from: Id, to: Id });

export const EventTypeDeclSchema = z.strictObject({
  type: z.string().min(1),
  mode: z.enum(['sync', 'async']),
  description: z.string().max(2000).optional(),
});

export const LayoutSchema = z.strictObject({
  nodes: z.array(z.strictObject({ id: Id, x: z.number().finite(), y: z.number().finite() })).default([]),
  viewport: z.strictObject({ x: z.number().finite(), y: z.number().finite(), zoom: z.number().positive() }).optional(),
});

export const PipelineSchema = z.strictObject({
  $schema: z.string().max(2000).optional().describe('The JSON Schema of this file, for editors; no effect on semantics.'),
  format: z.literal(PIPELINE_FORMAT),
  version: z.literal(PIPELINE_VERSION),
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).optional(),
  event_types: z.array(EventTypeDeclSchema).default([]).describe('Custom event types and overrides of the built-in modes.'),
  nodes: z.array(NodeSchema),
  wires: z.array(WireSchema),
  layout: LayoutSchema.optional().describe('Canvas positions; no effect on semantics.'),
});

// The written-out types are exactly what the checks accept and produce: a compile error here names the drift.
sameType<Same<Condition, z.infer<typeof ConditionSchema>>>();
sameType<Same<CodeSpec, z.infer<typeof CodeSpecSchema>>>();
sameType<Same<EventNode, z.infer<typeof EventNodeSchema>>>();
sameType<Same<MatcherNode, z.infer<typeof MatcherNodeSchema>>>();
sameType<Same<RewriteOp, z.infer<typeof RewriteOpSchema>>>();
sameType<Same<Action, z.infer<typeof ActionSchema>>>();
sameType<Same<ActionInput, z.input<typeof ActionSchema>>>();
sameType<Same<HandlerNode, z.infer<typeof HandlerNodeSchema>>>();
sameType<Same<HandlerNodeInput, z.input<typeof HandlerNodeSchema>>>();
sameType<Same<PipelineNode, z.infer<typeof NodeSchema>>>();
sameType<Same<Wire, z.infer<typeof WireSchema>>>();
sameType<Same<EventTypeDecl, z.infer<typeof EventTypeDeclSchema>>>();
sameType<Same<Layout, z.infer<typeof LayoutSchema>>>();
sameType<Same<Pipeline, z.infer<typeof PipelineSchema>>>();
sameType<Same<PipelineInput, z.input<typeof PipelineSchema>>>();
