import { isJsonObject } from '../../model/json.ts';

/** Message content as text: a string, the text parts of a content list, or other JSON as JSON text. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (isJsonObject(c) && typeof c.text === 'string' ? c.text : '')).join('');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}
