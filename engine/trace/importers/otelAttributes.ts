import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../../model/json.ts';

/**
 * Attribute aliases [I5]: for each field, the OpenTelemetry GenAI semantic-convention name first, then the
 * names other exporters use. any-agent (mozilla-ai/any-agent) writes `gen_ai.tool.args` for the spec's
 * `gen_ai.tool.call.arguments` and `gen_ai.output` for both `gen_ai.tool.call.result` and
 * `gen_ai.output.messages`; older semantic conventions said prompt/completion tokens.
 */
export const OTEL_ALIASES = {
  operation: ['gen_ai.operation.name'],
  model: ['gen_ai.request.model', 'gen_ai.response.model'],
  input_messages: ['gen_ai.input.messages', 'gen_ai.prompt'],
  output_messages: ['gen_ai.output.messages', 'gen_ai.output', 'gen_ai.completion'],
  output_type: ['gen_ai.output.type'],
  finish_reasons: ['gen_ai.response.finish_reasons'],
  input_tokens: ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'],
  output_tokens: ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'],
  input_cost: ['gen_ai.usage.input_cost'],
  output_cost: ['gen_ai.usage.output_cost'],
  tool_name: ['gen_ai.tool.name'],
  tool_args: ['gen_ai.tool.call.arguments', 'gen_ai.tool.args'],
  tool_result: ['gen_ai.tool.call.result', 'gen_ai.output'],
  tool_call_id: ['gen_ai.tool.call.id'],
  tool_description: ['gen_ai.tool.description'],
  agent_name: ['gen_ai.agent.name'],
  agent_description: ['gen_ai.agent.description'],
} as const satisfies Record<string, readonly string[]>;

export type OtelField = keyof typeof OTEL_ALIASES;

/** Operation names → what the span is: the spec's names and any-agent's `call_llm`. */
export const OTEL_OPERATIONS: Readonly<Record<string, 'agent' | 'model' | 'tool'>> = {
  invoke_agent: 'agent',
  create_agent: 'agent',
  call_llm: 'model',
  chat: 'model',
  text_completion: 'model',
  generate_content: 'model',
  execute_tool: 'tool',
};

/** Tools whose call is the agent's final answer (smolagents, tinyagent, google, llama_index). */
export const OTEL_FINAL_TOOLS: ReadonlySet<string> = new Set(['final_answer', 'final_output']);

/** Reads a field through its aliases; `used` tells which name answered (to note an alias in the report). */
export function otelAttr(attrs: JsonObject, field: OtelField): { value: JsonValue; name: string } | undefined {
  for (const name of OTEL_ALIASES[field]) {
    const v = ownGet(attrs, name);
    if (v !== undefined && v !== null) return { value: v, name };
  }
  return undefined;
}

/** Attribute values that hold JSON as text (messages, arguments, outputs) parsed; other values as they are. */
export function parseMaybeJson(value: JsonValue): { value: JsonValue; parsed: boolean } {
  if (typeof value !== 'string') return { value, parsed: false };
  const t = value.trimStart();
  if (t === '' || !'[{"0123456789-tfn'.includes(t[0] as string)) return { value, parsed: false };
  try {
    return { value: JSON.parse(value) as JsonValue, parsed: true };
  } catch {
    return { value, parsed: false };
  }
}

/** An id written as a decimal integer (quoted by quoteOtelIds, or a lossy number) or hex → lowercase hex. */
export function otelIdHex(value: unknown, digits: number): { hex: string; lossy: boolean } | null {
  // The Python SDK writes ids as "0x…" hex; OTLP is converted to that form (otlpSpans.ts), so an all-digit hex id is not misread as decimal.
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) return { hex: value.slice(2).toLowerCase().padStart(digits, '0'), lossy: false };
  if (typeof value === 'string' && /^\d+$/.test(value)) return { hex: BigInt(value).toString(16).padStart(digits, '0'), lossy: false };
  if (typeof value === 'string' && /^[0-9a-fA-F]+$/.test(value)) return { hex: value.toLowerCase().padStart(digits, '0'), lossy: false };
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    return { hex: BigInt(Math.trunc(value)).toString(16).padStart(digits, '0'), lossy: !Number.isSafeInteger(value) };
  }
  return null;
}

/** The span's attributes object (empty when absent). */
export function spanAttributes(span: JsonObject): JsonObject {
  return isJsonObject(span.attributes) ? span.attributes : {};
}
