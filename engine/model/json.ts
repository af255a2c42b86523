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

/** Own-property write that defines `__proto__` as a data property instead of changing the prototype. */
export function ownSet(obj: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
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

/**
 * A deep copy that keeps only JSON (drops undefined, functions; rejects cycles and non-finite numbers by
 * returning undefined). Used where untrusted values enter the engine.
 */
export function toJson(value: unknown, seen: Set<object> = new Set()): JsonValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'object') return undefined;
  if (seen.has(value)) return undefined;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const out: JsonValue[] = [];
      for (const item of value) {
        const j = toJson(item, seen);
        out.push(j === undefined ? null : j);
      }
      return out;
    }
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      const j = toJson((value as Record<string, unknown>)[key], seen);
      if (j !== undefined) ownSet(out, key, j);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
