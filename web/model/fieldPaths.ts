import { isJsonObject, type JsonValue } from '../../engine/app.ts';

/** The part of an event that completion looks at. */
export interface EventSample {
  type: string;
  payload: JsonValue;
  meta?: JsonValue;
}

export interface FieldPath {
  path: string;
  /** How many sampled events had it. */
  count: number;
  /** Event types it was seen on. */
  types: string[];
}

const ROOT_FIELDS = ['event.type', 'event.agent_id', 'event.trace_id', 'event.event_id', 'event.ts'];

function walk(value: JsonValue, prefix: string, depth: number, out: Set<string>): void {
  if (depth > 6 || out.size > 5000) return;
  if (Array.isArray(value)) {
    // Arrays index by number [C2]; the first element stands for the rest.
    if (value.length > 0) {
      out.add(`${prefix}.0`);
      walk(value[0] as JsonValue, `${prefix}.0`, depth + 1, out);
    }
    return;
  }
  if (!isJsonObject(value)) return;
  for (const key of Object.keys(value)) {
    if (key.includes('.')) continue; // a dotted key cannot be addressed by a dotted path
    const path = `${prefix}.${key}`;
    out.add(path);
    walk(value[key] as JsonValue, path, depth + 1, out);
  }
}

/**
 * Field paths seen in events (`payload.tool_input.command`, `meta.user_id`...), most frequent first, for
 * path completion in the inspector. Only the first `limit` events are read.
 */
export function collectFieldPaths(events: Iterable<EventSample>, limit = 2000): FieldPath[] {
  const seen = new Map<string, { count: number; types: Set<string> }>();
  let n = 0;
  for (const event of events) {
    if (n++ >= limit) break;
    const paths = new Set<string>();
    walk(event.payload, 'payload', 0, paths);
    if (event.meta !== undefined) walk(event.meta, 'meta', 0, paths);
    for (const path of paths) {
      const entry = seen.get(path) ?? { count: 0, types: new Set<string>() };
      entry.count += 1;
      entry.types.add(event.type);
      seen.set(path, entry);
    }
  }
  return [...seen.entries()]
    .map(([path, e]) => ({ path, count: e.count, types: [...e.types].sort() }))
    .sort((a, b) => b.count - a.count || a.path.localeCompare(b.path));
}

/**
 * The canonical payload shapes of the lifecycle events (what importers produce), as samples, so that
 * completion has something to offer before any trace is stored.
 */
export const CANONICAL_SAMPLES: readonly EventSample[] = [
  { type: 'tool.before_call', payload: { tool_name: '', tool_input: { command: '', file_path: '' }, tool_use_id: '' } },
  { type: 'tool.after_call', payload: { tool_name: '', tool_input: {}, tool_response: '', is_error: false, tool_use_id: '' } },
  { type: 'model.before_call', payload: { model: '', messages: [{ role: '', content: '' }] } },
  { type: 'model.after_call', payload: { model: '', response: '', usage: { input_tokens: 0, output_tokens: 0 }, stop_reason: '' } },
  { type: 'input.received', payload: { prompt: '' } },
  { type: 'prompt.built', payload: { messages: [{ role: '', content: '' }] } },
  { type: 'final_answer.before', payload: { text: '' } },
  { type: 'final_answer.after', payload: { text: '' } },
  { type: 'agent.error', payload: { error: '' } },
  { type: 'agent.end', payload: { status: '' } },
];

/** Completion list: paths from stored traces first, then canonical ones and the event fields. */
export function completionPaths(fromTraces: readonly FieldPath[]): string[] {
  const out = new Set<string>(fromTraces.map((f) => f.path));
  for (const f of collectFieldPaths(CANONICAL_SAMPLES)) out.add(f.path);
  for (const p of ROOT_FIELDS) out.add(p);
  return [...out];
}
