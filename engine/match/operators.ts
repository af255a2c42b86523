import { isJsonObject, jsonEqual, type JsonPrimitive, type JsonValue } from '../model/json.ts';
import type { ClauseOp } from './types.ts';
import { compileRegex } from './regex.ts';

/** A compiled operator: tests the actual value (undefined = missing). */
export type Predicate = (actual: JsonValue | undefined) => boolean;

/**
 * `text`: for an operator that can only pass on a string (regex, prefix, suffix), its test of the string, so
 * `predicate(a)` is `typeof a === 'string' && text(a)` — a caller that has read the value may call it directly.
 */
export type OperatorCompile = { ok: true; predicate: Predicate; text?: (s: string) => boolean } | { ok: false; code: 'bad_operand' | 'bad_regex'; message: string };

export const OPERATORS: readonly ClauseOp[] = ['eq', 'ne', 'in', 'nin', 'regex', 'prefix', 'suffix', 'contains', 'exists', 'gt', 'gte', 'lt', 'lte'];

export function isOperator(key: string): key is ClauseOp {
  return (OPERATORS as readonly string[]).includes(key);
}

const fail = (message: string): OperatorCompile => ({ ok: false, code: 'bad_operand', message });
const ok = (predicate: Predicate): OperatorCompile => ({ ok: true, predicate });
const onText = (text: (s: string) => boolean): OperatorCompile => ({ ok: true, predicate: (a) => typeof a === 'string' && text(a), text });

/** Compiles one operator with its expected value into a predicate [C3]-[C7]. */
export function compileOperator(op: ClauseOp, expected: JsonValue): OperatorCompile {
  switch (op) {
    case 'eq':
      return ok(equalTo(expected));
    case 'ne': {
      const eq = equalTo(expected);
      return ok((a) => !eq(a));
    }
    case 'in':
    case 'nin': {
      if (!Array.isArray(expected)) return fail(`"${op}" needs a list, got ${JSON.stringify(expected)}`);
      const member = memberOf(expected);
      return ok(op === 'in' ? (a) => a !== undefined && member(a) : (a) => a === undefined || !member(a));
    }
    case 'regex':
      return compileRegexOperand(expected);
    case 'prefix':
    case 'suffix': {
      if (typeof expected !== 'string') return fail(`"${op}" needs a string`);
      return onText(op === 'prefix' ? (a) => a.startsWith(expected) : (a) => a.endsWith(expected));
    }
    case 'contains':
      return ok((a) => {
        if (typeof a === 'string') return typeof expected === 'string' && a.includes(expected);
        if (Array.isArray(a)) return a.some((item) => jsonEqual(item, expected));
        return false;
      });
    case 'exists':
      if (typeof expected !== 'boolean') return fail('"exists" needs true or false');
      return ok(expected ? (a) => a !== undefined : (a) => a === undefined);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compileCompare(op, expected);
  }
}

function equalTo(expected: JsonValue): Predicate {
  if (expected === null || typeof expected !== 'object') return (a) => a === expected;
  return (a) => jsonEqual(a, expected);
}

function memberOf(list: JsonValue[]): Predicate {
  const primitives = new Set<JsonPrimitive>();
  const objects: JsonValue[] = [];
  for (const v of list) {
    if (v === null || typeof v !== 'object') primitives.add(v);
    else objects.push(v);
  }
  if (objects.length === 0) return (a) => (a === null || typeof a !== 'object') && primitives.has(a as JsonPrimitive);
  return (a) => {
    if (a === null || typeof a !== 'object') return primitives.has(a as JsonPrimitive);
    return objects.some((o) => jsonEqual(o, a));
  };
}

function compileRegexOperand(expected: JsonValue): OperatorCompile {
  let source: JsonValue | undefined = expected;
  let flags: JsonValue | undefined = '';
  if (isJsonObject(expected)) {
    const extra = Object.keys(expected).filter((k) => k !== 'pattern' && k !== 'flags');
    if (extra.length) return fail(`"regex" takes {pattern, flags}; unknown ${extra.map((k) => `"${k}"`).join(', ')}`);
    source = expected.pattern;
    flags = expected.flags ?? '';
  }
  if (typeof source !== 'string') return fail('"regex" needs a pattern string or {pattern, flags}');
  if (typeof flags !== 'string') return fail('"regex" flags must be a string such as "i"');
  const compiled = compileRegex(source, flags);
  if (!compiled.ok) return { ok: false, code: 'bad_regex', message: `regex /${source}/: ${compiled.message}` };
  return onText(compiled.regex.test);
}

function compileCompare(op: 'gt' | 'gte' | 'lt' | 'lte', expected: JsonValue): OperatorCompile {
  if (typeof expected !== 'number' && typeof expected !== 'string') return fail(`"${op}" needs a number or a string`);
  const kind = typeof expected;
  const cmp = (a: JsonValue | undefined): number | null => {
    if (typeof a !== kind) return null;
    return (a as number | string) < expected ? -1 : (a as number | string) > expected ? 1 : 0;
  };
  switch (op) {
    case 'gt':
      return ok((a) => cmp(a) === 1);
    case 'gte':
      return ok((a) => { const c = cmp(a); return c === 1 || c === 0; });
    case 'lt':
      return ok((a) => cmp(a) === -1);
    case 'lte':
      return ok((a) => { const c = cmp(a); return c === -1 || c === 0; });
  }
}
