import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../../../engine/app.ts';

/**
 * One line that says what an event carried, for the timeline: the tool and its command, the model's
 * response, the user's text... Display only: it reads the canonical payload shapes (COMMON.md) and falls
 * back to compact JSON for anything else. Plain text; the UI renders it as text.
 */
export const SUMMARY_MAX = 160;

export function payloadSummary(type: string, payload: JsonObject, max = SUMMARY_MAX): string {
  return clipLine(describe(type, payload), max);
}

function describe(type: string, p: JsonObject): string {
  const str = (key: string): string | null => {
    const v = ownGet(p, key);
    return typeof v === 'string' ? v : null;
  };
  switch (type) {
    case 'tool.before_call':
      return joinParts(str('tool_name'), toolInput(ownGet(p, 'tool_input'))) ?? compact(p);
    case 'tool.after_call': {
      const name = str('tool_name') ?? 'tool';
      const error = ownGet(p, 'is_error') === true ? ' (error)' : '';
      const response = ownGet(p, 'tool_response');
      return `${name}${error} → ${response === undefined ? 'no response' : textOf(response) || '(empty)'}`;
    }
    case 'model.before_call': {
      const messages = ownGet(p, 'messages');
      const n = Array.isArray(messages) ? `${messages.length} message${messages.length === 1 ? '' : 's'}` : null;
      return joinParts(str('model'), n) ?? compact(p);
    }
    case 'model.after_call': {
      const response = ownGet(p, 'response');
      const usage = ownGet(p, 'usage');
      const out = isJsonObject(usage) ? ownGet(usage, 'output_tokens') : undefined;
      const tokens = typeof out === 'number' ? ` (${out} tokens out)` : '';
      return response === undefined ? compact(p) : `${textOf(response) || '(no text)'}${tokens}`;
    }
    case 'input.received':
      return quoted(str('prompt') ?? str('user_input') ?? str('input')) ?? compact(p);
    case 'prompt.built': {
      const messages = ownGet(p, 'messages');
      return Array.isArray(messages) ? `${messages.length} message${messages.length === 1 ? '' : 's'}` : compact(p);
    }
    case 'final_answer.before':
    case 'final_answer.after':
      return quoted(str('text')) ?? compact(p);
    case 'agent.error':
      return str('error') ?? compact(p);
    case 'agent.end':
      return str('status') ? `status: ${str('status')}` : compact(p);
    default:
      return compact(p);
  }
}

function toolInput(input: JsonValue | undefined): string | null {
  if (input === undefined) return null;
  if (!isJsonObject(input)) return textOf(input);
  for (const key of ['command', 'file_path', 'path', 'url', 'query', 'pattern']) {
    const v = ownGet(input, key);
    if (typeof v === 'string') return v;
  }
  return compact(input);
}

/** Text of a response: a string, or the text blocks of a content-block array, else compact JSON. */
export function textOf(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    // Content blocks (Claude Code, Anthropic messages): text as it is, a tool call by its tool's name,
    // thinking as a mark; a block of another kind keeps the JSON fallback below.
    const parts = value.map((b): string | null => {
      if (!isJsonObject(b)) return null;
      const text = ownGet(b, 'text');
      if (typeof text === 'string') return text;
      const kind = ownGet(b, 'type');
      const name = ownGet(b, 'name');
      if (kind === 'tool_use') return `→ ${typeof name === 'string' ? name : 'tool'}${toolCallInput(ownGet(b, 'input'))}`;
      if (kind === 'thinking' || kind === 'redacted_thinking') return '(thinking)';
      return null;
    });
    const texts = value.filter((b) => isJsonObject(b) && typeof ownGet(b, 'text') === 'string').map((b) => ownGet(b as JsonObject, 'text') as string);
    if (texts.length) return texts.join(' ');
    if (parts.length && parts.every((t) => t !== null)) return parts.join(' ');
  }
  return compact(value);
}

function toolCallInput(input: JsonValue | undefined): string {
  const text = toolInput(input);
  return text && text !== '{}' ? `: ${text}` : '';
}

function joinParts(a: string | null, b: string | null): string | null {
  if (a && b) return `${a}: ${b}`;
  return a ?? b;
}

function quoted(text: string | null): string | null {
  return text === null ? null : `“${text}”`;
}

function compact(value: JsonValue): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** Whitespace runs (newlines included) become one space; long text ends with an ellipsis. */
export function clipLine(text: string, max: number): string {
  const one = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = one.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
