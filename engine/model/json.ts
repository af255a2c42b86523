/** JSON values: everything that crosses the engine's boundary (payloads, state, pipeline files) is plain JSON. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own-property lookup: `__proto__`, `constructor` and friends are plain names, never the prototype. */
export function ownGet(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/**
 * Own-property write that defines `__proto__` as a data property instead of changing the prototype. Any other
 * name is a plain assignment, which makes an own data property too (Object.prototype's other names are writable
 * data properties): defineProperty for every key was ~5% of an import's CPU.
 */
export function ownSet(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** Structural equality of JSON values (key order does not matter). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !jsonEqual(a[k], b[k])) return false;
  }
  return true;
}

/** Thrown by `toJson` for a value nested past MAX_JSON_DEPTH; `path` leads to it. */
export class JsonTooDeepError extends TypeError {
  constructor(readonly path: (string | number)[]) {
    super('nested too deep');
  }
}

/**
 * A deep copy that keeps only JSON (drops undefined, functions; rejects cycles and non-finite numbers by
 * returning undefined). Used where untrusted values enter the engine. A value nested past MAX_JSON_DEPTH
 * throws JsonTooDeepError with its path (the recursion is bounded by the limit, never by the stack).
 */
export function toJson(value: unknown, seen: Set<object> = new Set(), depth = 0): JsonValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'object') return undefined;
  if (seen.has(value)) return undefined;
  if (depth >= MAX_JSON_DEPTH) throw new JsonTooDeepError([]);
  seen.add(value);
  let key: string | number = '';
  try {
    if (Array.isArray(value)) {
      const out: JsonValue[] = [];
      for (let i = 0; i < value.length; i++) {
        key = i;
        const j = toJson(value[i], seen, depth + 1);
        out.push(j === undefined ? null : j);
      }
      return out;
    }
    const out: JsonObject = {};
    for (const k of Object.keys(value)) {
      key = k;
      const j = toJson((value as Record<string, unknown>)[k], seen, depth + 1);
      if (j !== undefined) ownSet(out, k, j);
    }
    return out;
  } catch (e) {
    if (e instanceof JsonTooDeepError) {
      e.path.unshift(key);
      if (depth === 0) e.message = tooDeepMessage('value', e.path);
    }
    throw e;
  } finally {
    seen.delete(value);
  }
}

/**
 * How deep JSON may nest wherever it enters the engine (pipeline documents, trace lines, imports, `emit`,
 * the sandbox): objects and arrays count one level each, so `{"a":[1]}` is 2 deep. Real payloads are a few
 * levels deep; the limit is what keeps every recursive walk of accepted input (schema checks, conditions,
 * rewrites, structural equality) far from the call stack's end.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * The path of the first object or array nested past `limit` levels, or null when the value is within it.
 * Iterative, so it cannot overflow on any input; for parsed JSON (a tree: no cycles, no sharing).
 *
 * @example tooDeepAt({ a: { b: {} } }, 2) → ['a', 'b']; tooDeepAt({ a: 1 }, 2) → null
 */
export function tooDeepAt(value: unknown, limit: number = MAX_JSON_DEPTH): (string | number)[] | null {
  // The common answer (within the limit) without a frame per value: a walk at most `limit` + 1 calls deep.
  if (limit < 10_000 && !nestedPast(value, limit)) return null;
  type Frame = { v: unknown; depth: number; key: string | number; up: Frame | null };
  const stack: Frame[] = [{ v: value, depth: 0, key: '', up: null }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (typeof f.v !== 'object' || f.v === null) continue;
    const depth = f.depth + 1;
    if (depth > limit) {
      const path: (string | number)[] = [];
      for (let g: Frame | null = f; g && g.up; g = g.up) path.push(g.key);
      return path.reverse();
    }
    if (Array.isArray(f.v)) f.v.forEach((v, i) => stack.push({ v, depth, key: i, up: f }));
    else for (const k of Object.keys(f.v)) stack.push({ v: (f.v as Record<string, unknown>)[k], depth, key: k, up: f });
  }
  return null;
}

/** True when an object or array in `v` is nested more than `levels` levels deep (recursion depth ≤ levels + 1). */
function nestedPast(v: unknown, levels: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (nestedPast(v[i], levels - 1)) return true;
    return false;
  }
  for (const k in v) if (nestedPast((v as Record<string, unknown>)[k], levels - 1)) return true;
  return false;
}

/** `payload.a[3].b`: a path for messages, after a root name. */
export function pathText(root: string, path: readonly (string | number)[]): string {
  let out = root;
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  return out;
}

/** The sentence every entry point uses for too-deep input, so the limit reads the same everywhere. */
export function tooDeepMessage(root: string, path: readonly (string | number)[], limit: number = MAX_JSON_DEPTH): string {
  return `${pathText(root, path)} is nested more than ${limit} levels deep (the limit for JSON Hookwire reads)`;
}
