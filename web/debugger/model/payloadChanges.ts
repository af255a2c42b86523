import type { Operation } from 'fast-json-patch';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../../../engine/app.ts';

/**
 * The engine's JSON Patch of a payload [X4] as rows people read: the field as a dotted path, what it was and
 * what it became. Strings that changed in part are split into the common start, the removed and added
 * middle, and the common end, so a redaction reads as `…KEY=[sk-proj…→[REDACTED]]…`.
 */
export interface ChangeRow {
  /** Dotted path from the root it is given (`payload.tool_response`). */
  path: string;
  kind: 'changed' | 'added' | 'removed';
  before?: JsonValue;
  after?: JsonValue;
  /** For two strings: where they differ. */
  text?: TextChange;
}

export interface TextChange {
  prefix: string;
  removed: string;
  added: string;
  suffix: string;
  /** True when the prefix / suffix were shortened to their context. */
  cutStart: boolean;
  cutEnd: boolean;
}

export function changeRows(patch: readonly Operation[], before: JsonObject, root = 'payload'): ChangeRow[] {
  return patch.map((op): ChangeRow => {
    const segments = pointerSegments(op.path);
    const path = [root, ...segments].join('.');
    const old = valueAt(before, segments);
    if (op.op === 'remove') return { path, kind: 'removed', ...(old !== undefined ? { before: old } : {}) };
    const value = 'value' in op ? (op.value as JsonValue) : undefined;
    if (op.op === 'add' && old === undefined) return { path, kind: 'added', ...(value !== undefined ? { after: value } : {}) };
    const row: ChangeRow = { path, kind: 'changed', ...(old !== undefined ? { before: old } : {}), ...(value !== undefined ? { after: value } : {}) };
    if (typeof old === 'string' && typeof value === 'string') row.text = textChange(old, value);
    return row;
  });
}

/** `/tool_input/command` → `['tool_input', 'command']` (RFC 6901 escapes undone). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(doc: JsonValue, segments: string[]): JsonValue | undefined {
  let cur: JsonValue | undefined = doc;
  for (const s of segments) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(s) ? cur[Number(s)] : undefined;
    else if (isJsonObject(cur)) cur = ownGet(cur, s);
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Where two strings differ, with `context` characters kept around the change. */
export function textChange(a: string, b: string, context = 48): TextChange {
  let start = 0;
  const max = Math.min(a.length, b.length);
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
  const prefix = a.slice(0, start);
  const suffix = a.slice(a.length - end);
  return {
    prefix: prefix.length > context ? prefix.slice(prefix.length - context) : prefix,
    removed: a.slice(start, a.length - end),
    added: b.slice(start, b.length - end),
    suffix: suffix.length > context ? suffix.slice(0, context) : suffix,
    cutStart: prefix.length > context,
    cutEnd: suffix.length > context,
  };
}

/** One row per state key that differs between two states (keys in order of first appearance). */
export interface StateRow {
  key: string;
  before?: JsonValue;
  after?: JsonValue;
  changed: boolean;
}

export function stateRows(before: JsonObject, after: JsonObject): StateRow[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.map((key) => {
    const b = ownGet(before, key);
    const a = ownGet(after, key);
    const changed = JSON.stringify(b) !== JSON.stringify(a);
    return { key, changed, ...(b !== undefined ? { before: b } : {}), ...(a !== undefined ? { after: a } : {}) };
  });
}
