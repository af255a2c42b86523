import type { HookEvent } from '../model/event.ts';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';

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
      return scope.event.meta ?? {};
    case 'event':
      return undefined; // event paths are read by field, see getPath
  }
}

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
  for (const seg of path.segments) {
    value = step(value, seg);
    if (value === undefined) return undefined;
  }
  return value;
}

/** A reader compiled once for a path, so dispatch does no string work [V5]. */
export type Getter = (scope: Scope) => JsonValue | undefined;

/**
 * Compiles a parsed path into a fast reader [V5]. A key that no object inherits (`tool_name`, not
 * `constructor`) is read by plain indexing, which for JSON objects can only find an own property; inherited
 * names go through the own-property check [V8].
 */
export function compileGetter(path: ParsedPath): Getter {
  if (path.root === 'event') return (scope) => getPath(scope, path);
  const segs = path.segments;
  const plain = segs.every((s) => !(s in Object.prototype) && !/^(0|[1-9][0-9]*)$/.test(s));
  if (path.root === 'payload' && plain && segs.length === 1) {
    const a = segs[0]!;
    return (scope) => readKey(scope.payload, a);
  }
  if (path.root === 'payload' && plain && segs.length === 2) {
    const [a, b] = segs as [string, string];
    return (scope) => {
      const v = readKey(scope.payload, a);
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? readKey(v, b) : undefined;
    };
  }
  return (scope) => getPath(scope, path);
}

/** `obj[key]` for a key no prototype provides: own property or nothing. */
function readKey(obj: JsonObject, key: string): JsonValue | undefined {
  return obj[key];
}
