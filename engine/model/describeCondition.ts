import { isJsonObject, ownGet, type JsonObject, type JsonValue } from './json.ts';
import type { Condition, MatcherNode } from './pipelineTypes.ts';

/**
 * Readable one-line summaries of conditions, for the canvas and lists. Display only: matching lives in the
 * compiler, and an operator this file does not know is shown as written, never interpreted.
 */

const OP_WORDS: Readonly<Record<string, string>> = {
  eq: '=',
  ne: '≠',
  in: 'in',
  nin: 'not in',
  regex: 'matches',
  prefix: 'starts with',
  suffix: 'ends with',
  contains: 'contains',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
};

/** Drops the `payload.` root, which is what people mean by default: `payload.tool_name` → `tool_name`. */
export function shortPath(path: string): string {
  return path.startsWith('payload.') ? path.slice('payload.'.length) : path;
}

function literal(value: JsonValue): string {
  if (typeof value === 'string') return /^[^\s,[\]"]+$/.test(value) ? value : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  return JSON.stringify(value);
}

function regexLiteral(operand: JsonValue): string {
  if (typeof operand === 'string') return `/${operand}/`;
  if (isJsonObject(operand)) {
    const pattern = ownGet(operand, 'pattern');
    const flags = ownGet(operand, 'flags');
    return `/${typeof pattern === 'string' ? pattern : '?'}/${typeof flags === 'string' ? flags : ''}`;
  }
  return literal(operand);
}

function describeOperator(path: string, op: string, operand: JsonValue): string {
  const p = shortPath(path);
  if (op === 'exists') return operand === false ? `no ${p}` : `has ${p}`;
  if (op === 'regex') return `${p} matches ${regexLiteral(operand)}`;
  const word = Object.prototype.hasOwnProperty.call(OP_WORDS, op) ? OP_WORDS[op] : op;
  return `${p} ${word} ${literal(operand)}`;
}

function describeClause(path: string, operand: JsonValue): string[] {
  // [C3] a non-object operand means eq; an object with several operators means all of them.
  if (!isJsonObject(operand)) return [describeOperator(path, 'eq', operand)];
  const ops = Object.keys(operand);
  if (ops.length === 0) return [`${shortPath(path)} {}`];
  return ops.map((op) => describeOperator(path, op, operand[op] as JsonValue));
}

function describeList(items: JsonValue, joiner: string): string {
  if (!Array.isArray(items)) return literal(items);
  if (items.length === 0) return joiner === ' and ' ? 'always' : 'never';
  const parts = items.map((c) => describeNested(c));
  return parts.join(joiner);
}

function describeNested(value: JsonValue): string {
  if (!isJsonObject(value)) return literal(value);
  const parts = describeParts(value);
  return parts.length > 1 ? `(${parts.join(' and ')})` : (parts[0] ?? 'always');
}

function describeParts(condition: JsonObject): string[] {
  const parts: string[] = [];
  for (const key of Object.keys(condition)) {
    const value = condition[key] as JsonValue;
    if (key === 'all') {
      const s = describeList(value, ' and ');
      parts.push(Array.isArray(value) && value.length > 1 ? `(${s})` : s);
    } else if (key === 'any') {
      const s = describeList(value, ' or ');
      parts.push(Array.isArray(value) && value.length > 1 ? `(${s})` : s);
    } else if (key === 'not') {
      parts.push(`not ${describeNested(value)}`);
    } else {
      parts.push(...describeClause(key, value));
    }
  }
  return parts;
}

/** Cuts a summary to `max` characters with an ellipsis. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/**
 * One line for a condition, e.g. `{ "payload.tool_name": { "in": ["delete_file", "run_shell"] } }` →
 * `tool_name in [delete_file, run_shell]`. Several keys are joined with "and".
 */
export function describeCondition(condition: Condition, max = 120): string {
  const parts = describeParts(condition as JsonObject);
  return clip(parts.length ? parts.join(' and ') : 'always', max);
}

/**
 * One line for a matcher node: its `tools`/`agents` shorthands [M7], its condition and whether it runs code.
 * `describeMatcher({ id: 'm', kind: 'matcher', tools: ['Bash'] })` → `tool_name in [Bash]`.
 */
export function describeMatcher(node: MatcherNode, max = 120): string {
  const parts: string[] = [];
  if (node.tools) parts.push(`tool_name in ${literal(node.tools)}`);
  if (node.agents) parts.push(`agent_id in ${literal(node.agents)}`);
  if (node.when && Object.keys(node.when).length > 0) parts.push(describeCondition(node.when, Number.MAX_SAFE_INTEGER));
  if (node.code) parts.push(`code (${node.code.language})`);
  return clip(parts.length ? parts.join(' and ') : 'no condition', max);
}
