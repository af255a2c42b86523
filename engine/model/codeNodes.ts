import { isJsonObject } from './json.ts';

/** True for a code handler or a code matcher, in a valid document or not (it needs the sandbox). */
export function isCodeNode(node: unknown): boolean {
  if (!isJsonObject(node)) return false;
  // Lenient on invalid documents: any node with a code action counts, so a sandbox is there to report on it.
  if (node.kind === 'matcher' && node.code !== undefined) return true;
  return isJsonObject(node.action) && node.action.type === 'code';
}

/** True when a document (valid or not) has a code handler or a code matcher, so compiling it needs a sandbox. */
export function hasCode(doc: unknown): boolean {
  return isJsonObject(doc) && Array.isArray(doc.nodes) && doc.nodes.some(isCodeNode);
}
