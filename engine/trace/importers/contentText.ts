import { isJsonObject, type JsonObject } from '../../model/json.ts';

/** Message content as text: a string, the text parts of a content list, or other JSON as JSON text. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (isJsonObject(c) && typeof c.text === 'string' ? c.text : '')).join('');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/**
 * A chat message's text: the GenAI conventions' `parts` (text parts' `content`, joined) when present,
 * else its `content` (a string or a list of `{text}` blocks).
 */
export function messageText(message: JsonObject): string {
  if (Array.isArray(message.parts)) {
    return message.parts.map((p) => (isJsonObject(p) && p.type === 'text' && typeof p.content === 'string' ? p.content : '')).filter((t) => t !== '').join('\n');
  }
  return contentText(message.content);
}
