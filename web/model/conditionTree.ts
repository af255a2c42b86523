import { isJsonObject, ownSet, type JsonObject, type JsonValue, type Condition } from '../../engine/app.ts';

/**
 * The condition builder's model: an exact mirror of the condition JSON, so the builder and the raw JSON
 * view stay in sync without losing anything. A condition object is a list of entries (AND [C1]); each
 * entry is a clause (path, operator, value), an `all`/`any` group of conditions, or `not` of a condition.
 */
export type Entry =
  | { kind: 'clause'; path: string; op: string; value: JsonValue; bare?: boolean }
  | { kind: 'all' | 'any'; items: Entry[][] }
  | { kind: 'not'; entries: Entry[] };

export const OPERATORS = ['eq', 'ne', 'in', 'nin', 'regex', 'prefix', 'suffix', 'contains', 'exists', 'gt', 'gte', 'lt', 'lte'] as const;
export type Operator = (typeof OPERATORS)[number];

export const OPERATOR_LABELS: Readonly<Record<Operator, string>> = {
  eq: 'equals', ne: 'not equal', in: 'is one of', nin: 'is none of', regex: 'matches regex', prefix: 'starts with',
  suffix: 'ends with', contains: 'contains', exists: 'exists', gt: '>', gte: '≥', lt: '<', lte: '≤',
};

/** Entries of a condition, or null when its shape is one the builder cannot show (edit it as JSON). */
export function conditionToEntries(condition: JsonObject): Entry[] | null {
  const entries: Entry[] = [];
  for (const key of Object.keys(condition)) {
    const value = condition[key] as JsonValue;
    if (key === 'all' || key === 'any') {
      if (!Array.isArray(value)) return null;
      const items: Entry[][] = [];
      for (const item of value) {
        const sub = isJsonObject(item) ? conditionToEntries(item) : null;
        if (!sub) return null;
        items.push(sub);
      }
      entries.push({ kind: key, items });
    } else if (key === 'not') {
      const sub = isJsonObject(value) ? conditionToEntries(value) : null;
      if (!sub) return null;
      entries.push({ kind: 'not', entries: sub });
    } else if (isJsonObject(value)) {
      const ops = Object.keys(value);
      if (ops.length === 0) return null;
      for (const op of ops) entries.push({ kind: 'clause', path: key, op, value: value[op] as JsonValue });
    } else {
      entries.push({ kind: 'clause', path: key, op: 'eq', value, bare: true }); // [C3]
    }
  }
  return entries;
}

function entryValue(entry: Exclude<Entry, { kind: 'clause' }>): JsonValue {
  if (entry.kind === 'not') return entriesToCondition(entry.entries);
  return entry.items.map((item) => entriesToCondition(item));
}

/**
 * The condition JSON for a list of entries. Clauses on one path share one operand object; a bare `eq`
 * stays bare. When two entries would need the same key, each entry becomes its own item of an `all`.
 */
export function entriesToCondition(entries: readonly Entry[]): Condition {
  const out: JsonObject = {};
  const samePath = new Map<string, number>();
  for (const e of entries) if (e.kind === 'clause') samePath.set(e.path, (samePath.get(e.path) ?? 0) + 1);
  for (const e of entries) {
    if (e.kind !== 'clause') {
      if (Object.prototype.hasOwnProperty.call(out, e.kind)) return { all: entries.map((x) => entriesToCondition([x])) };
      ownSet(out, e.kind, entryValue(e));
      continue;
    }
    if (e.bare && e.op === 'eq' && samePath.get(e.path) === 1 && !isJsonObject(e.value)) {
      ownSet(out, e.path, e.value);
      continue;
    }
    const existing = Object.prototype.hasOwnProperty.call(out, e.path) ? out[e.path] : undefined;
    if (existing === undefined) ownSet(out, e.path, ownObject(e.op, e.value));
    else if (isJsonObject(existing) && !Object.prototype.hasOwnProperty.call(existing, e.op)) ownSet(existing, e.op, e.value);
    else return { all: entries.map((x) => entriesToCondition([x])) };
  }
  return out;
}

function ownObject(key: string, value: JsonValue): JsonObject {
  const o: JsonObject = {};
  ownSet(o, key, value);
  return o;
}

/** A sensible value when a clause switches to `op`, keeping what can be kept of the old value. */
export function valueForOperator(op: string, old: JsonValue, from?: string): JsonValue {
  // `exists`' true/false says whether the field is there; it is no value to compare with, so it is not carried over.
  if (from === 'exists' && op !== 'exists') old = '';
  const text = typeof old === 'string' ? old : Array.isArray(old) ? old.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') : typeof old === 'number' ? String(old) : '';
  switch (op) {
    case 'in':
    case 'nin':
      return Array.isArray(old) ? old : text ? parseList(text) : [];
    case 'exists':
      return true;
    case 'gt': case 'gte': case 'lt': case 'lte':
      return typeof old === 'number' ? old : 0;
    case 'regex':
      return isJsonObject(old) && typeof old.pattern === 'string' ? old : text;
    case 'prefix': case 'suffix':
      return text;
    default:
      return Array.isArray(old) || isJsonObject(old) ? text : old;
  }
}

/** "a, b, 3" → ["a", "b", "3"]; a JSON array is taken as written (`["a", 3]`). */
export function parseList(text: string): JsonValue[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (Array.isArray(parsed)) return parsed as JsonValue[];
    } catch {
      /* not JSON: read as a plain list */
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** The text a list shows in the builder; lists that are not plain words show as JSON so nothing is lost. */
export function formatList(list: readonly JsonValue[]): string {
  const plain = list.every((v) => typeof v === 'string' && v.trim() === v && v !== '' && !v.includes(',') && !v.startsWith('['));
  return plain ? list.join(', ') : JSON.stringify(list);
}

/** Regex operand as pattern + flags, both forms of [C5]. */
export function readRegex(value: JsonValue): { pattern: string; flags: string } {
  if (typeof value === 'string') return { pattern: value, flags: '' };
  if (isJsonObject(value)) {
    return { pattern: typeof value.pattern === 'string' ? value.pattern : '', flags: typeof value.flags === 'string' ? value.flags : '' };
  }
  return { pattern: '', flags: '' };
}

/** The short form (a string) when there are no flags, as people write it. */
export function writeRegex(pattern: string, flags: string): JsonValue {
  return flags ? { pattern, flags } : pattern;
}
