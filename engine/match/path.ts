import type { HookEvent } from '../model/event.ts';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';
import type { FlowSessions } from '../model/flowTypes.ts';

/** Where a condition path starts [C2]. */
export type PathRoot = 'payload' | 'state' | 'meta' | 'event';
export const PATH_ROOTS: readonly PathRoot[] = ['payload', 'state', 'meta', 'event'];

/** What matchers, templates and built-in handlers read from: one event at one moment of its chain. */
export interface Scope {
  event: HookEvent;
  payload: JsonObject;
  state: JsonObject;
  /** Clock time of the dispatch, ms since the epoch. */
  now: number;
  /** The flow memory of the sessions before this event, which flow rules read [F3]; absent: none. */
  flows?: FlowSessions | undefined;
}

export interface ParsedPath {
  text: string;
  root: PathRoot;
  segments: readonly string[];
}

export type PathParse = { ok: true; path: ParsedPath } | { ok: false; message: string };

const EVENT_FIELDS = new Set(['event_id', 'trace_id', 'agent_id', 'type', 'ts']);

/**
 * Parses a dotted path such as `payload.tool_input.command` or `payload.messages.0.content` [C2].
 * `parsePath('payload.tool_name')` → `{ ok: true, path: { root: 'payload', segments: ['tool_name'] } }`.
 */
export function parsePath(text: string): PathParse {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, message: 'a path must be a non-empty string' };
  const parts = text.split('.');
  const root = parts[0] as PathRoot;
  if (!PATH_ROOTS.includes(root)) {
    return { ok: false, message: `path "${text}" must start with payload., state., meta. or event.` };
  }
  const segments = parts.slice(1);
  if (segments.some((s) => s.length === 0)) return { ok: false, message: `path "${text}" has an empty segment` };
  if (root === 'event') {
    if (segments.length !== 1 || !EVENT_FIELDS.has(segments[0]!)) {
      return { ok: false, message: `path "${text}": event fields are event.event_id, event.trace_id, event.agent_id, event.type, event.ts` };
    }
  }
  return { ok: true, path: { text, root, segments } };
}

/** The value a root names in a scope. */
export function rootValue(scope: Scope, root: PathRoot): JsonValue | undefined {
  switch (root) {
    case 'payload':
      return scope.payload;
    case 'state':
      return scope.state;
    case 'meta':
      return scope.event.meta ?? NO_META;
    case 'event':
      return undefined; // event paths are read by field, see getPath
  }
}

const NO_META: JsonObject = Object.freeze({}) as JsonObject;

/** Steps one segment into a value: own keys of objects, integer indexes of arrays [C2][V8]. */
export function step(value: JsonValue | undefined, segment: string): JsonValue | undefined {
  if (isJsonObject(value)) return ownGet(value, segment);
  if (Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(segment)) return value[Number(segment)];
  return undefined;
}

/** Reads a path in a scope; `undefined` means missing. */
export function getPath(scope: Scope, path: ParsedPath): JsonValue | undefined {
  if (path.root === 'event') {
    const field = path.segments[0] as 'event_id' | 'trace_id' | 'agent_id' | 'type' | 'ts';
    return scope.event[field];
  }
  let value = rootValue(scope, path.root);
  const segs = path.segments;
  for (let i = 0; i < segs.length; i++) {
    value = step(value, segs[i]!);
    if (value === undefined) return undefined;
  }
  return value;
}

/** A reader compiled once for a path, so dispatch does no string work [V5]. */
export type Getter = (scope: Scope) => JsonValue | undefined;

/**
 * Compiles a parsed path into a fast reader [V5]. A key that no object inherits (`tool_name`, not
 * `constructor`) is read by plain indexing, which for JSON objects can only find an own property; inherited
 * names go through the own-property check [V8]. Payload and state paths of one to three such keys get a
 * closure of their own (no loop, no allocation); the rest walk the segments.
 */
export function compileGetter(path: ParsedPath): Getter {
  if (path.root === 'event') {
    const field = path.segments[0] as 'event_id' | 'trace_id' | 'agent_id' | 'type' | 'ts';
    return (scope) => scope.event[field];
  }
  const segs = path.segments;
  const plain = segs.every((s) => !(s in Object.prototype) && !/^(0|[1-9][0-9]*)$/.test(s));
  if (!plain || segs.length > 3 || path.root === 'meta') return (scope) => getPath(scope, path);
  const state = path.root === 'state';
  const [a, b, c] = segs as [string, string | undefined, string | undefined];
  if (b === undefined) return state ? (scope) => scope.state[a] : (scope) => scope.payload[a];
  if (c === undefined) {
    return state
      ? (scope) => { const v = scope.state[a]; return isObject(v) ? v[b] : undefined; }
      : (scope) => { const v = scope.payload[a]; return isObject(v) ? v[b] : undefined; };
  }
  return state
    ? (scope) => { const v = scope.state[a]; if (!isObject(v)) return undefined; const w = v[b]; return isObject(w) ? w[c] : undefined; }
    : (scope) => { const v = scope.payload[a]; if (!isObject(v)) return undefined; const w = v[b]; return isObject(w) ? w[c] : undefined; };
}

/**
 * Reads a number at a path into `slot[0]`; false (slot untouched) when the value there is not a number. A
 * getter that returns a double boxes it (a heap number per call); this writes it unboxed, so numeric compares
 * and the range index allocate nothing [fast path].
 */
export type NumberReader = (scope: Scope, slot: Float64Array) => boolean;

export function compileNumberReader(path: ParsedPath, getter: Getter = compileGetter(path)): NumberReader {
  const segs = path.segments;
  const plain = segs.every((s) => !(s in Object.prototype) && !/^(0|[1-9][0-9]*)$/.test(s));
  const key = `${path.root}.${segs.join('.')}`;
  let site = siteOf.get(key);
  if (site === undefined && plain && segs.length <= 3 && (path.root === 'payload' || path.root === 'state') && siteOf.size < READER_SITES.length) {
    site = siteOf.size;
    siteOf.set(key, site);
  }
  if (site === undefined) {
    return (scope, slot) => {
      const v = getter(scope);
      if (typeof v !== 'number') return false;
      slot[0] = v;
      return true;
    };
  }
  const last = segs[segs.length - 1]!;
  return READER_SITES[site]!(path.root === 'state', segs.length > 1 ? segs[0] : undefined, segs.length > 2 ? segs[1] : undefined, last);
}

type ReaderSite = (state: boolean, a: string | undefined, b: string | undefined, last: string) => NumberReader;

// Copies of one reader, each its own function literal on purpose. V8 keeps a property load's feedback per
// source site, shared by every closure made there: a site that has seen a second key name goes megamorphic,
// and a megamorphic load boxes every double it reads (16 bytes per read). So each distinct numeric path (up
// to the number of copies, across all pipelines of the process) gets a site of its own and reads its number
// unboxed; later paths share the generic reader (same answers, may box).
const READER_SITES: ReaderSite[] = [
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
  (st, a, b, last) => (s, slot) => { let o = st ? s.state : s.payload; if (a !== undefined) { const p = o[a]; if (!isObject(p)) return false; o = p; if (b !== undefined) { const q = o[b]; if (!isObject(q)) return false; o = q; } } const v = o[last]; if (typeof v !== 'number') return false; slot[0] = v; return true; },
];
const siteOf = new Map<string, number>();

/** A JSON object (not null, not an array). */
function isObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
