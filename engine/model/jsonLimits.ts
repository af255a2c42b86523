// How big JSON may be wherever it enters the engine [V9][V12]: depth, one string, the entries of one object
// or array, and the whole. The whole is the trace line limit, so whatever `emit` accepts can be recorded and
// read back as one line [T3]. Checked without recursion, in one walk.
import { MAX_JSON_DEPTH, pathText } from './json.ts';

export interface JsonLimits {
  /** Levels of objects and arrays [V9]. */
  depth: number;
  /** UTF-16 characters of one string (a value or a key). */
  stringChars: number;
  /** Keys of one object, items of one array. */
  entries: number;
  /** Characters of the whole value as JSON, estimated in the walk: strings and keys by their length (escapes not counted), numbers as 8. */
  totalChars: number;
}

/** The limits of every entry point: 128 levels, 4 Mi characters a string, 100 000 entries, 8 Mi characters. */
export const JSON_LIMITS: Readonly<JsonLimits> = Object.freeze({ depth: MAX_JSON_DEPTH, stringChars: 4 * 1024 * 1024, entries: 100_000, totalChars: 8 * 1024 * 1024 });

/** Which limit a value passed, where, and the sentence every entry point shows for it. */
export interface JsonLimitBreach {
  code: 'too_deep' | 'too_large';
  limit: keyof JsonLimits;
  path: (string | number)[];
  message: string;
}

type Frame = { v: unknown; depth: number; key: string | number; up: Frame | null };

function pathOf(f: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let g: Frame | null = f; g && g.up; g = g.up) path.push(g.key);
  return path.reverse();
}

function breach(limit: keyof JsonLimits, f: Frame, root: string, limits: JsonLimits, size?: number): JsonLimitBreach {
  const path = pathOf(f);
  const at = pathText(root, path);
  const message =
    limit === 'depth' ? `${at} is nested more than ${limits.depth} levels deep (the limit for JSON Hookwire reads)`
    : limit === 'stringChars' ? `${at} is a string of ${size} characters, past the limit of ${limits.stringChars} for one string`
    : limit === 'entries' ? `${at} has ${size} entries, past the limit of ${limits.entries} keys or items in one object or array`
    : `${root} is more than ${limits.totalChars} characters as JSON (the limit for one event), reached at ${at}`;
  return { code: limit === 'depth' ? 'too_deep' : 'too_large', limit, path, message };
}

/**
 * The first limit `value` passes, or null. `root` names the value in the message (`payload`, `event`).
 * `jsonLimitBreach({ a: 'x'.repeat(5e6) }, 'payload')?.message` → "payload.a is a string of 5000000 characters, …"
 */
export function jsonLimitBreach(value: unknown, root: string, limits: JsonLimits = JSON_LIMITS): JsonLimitBreach | null {
  // The common answer (within every limit) without a frame per value; only a breach is walked again to say where.
  if (limits.depth < 10_000) {
    const size = withinLimits(value, 0, limits);
    if (size >= 0 && size <= limits.totalChars) return null;
  }
  const stack: Frame[] = [{ v: value, depth: 0, key: '', up: null }];
  let total = 0;
  while (stack.length > 0) {
    const f = stack.pop()!;
    const v = f.v;
    if (typeof v === 'string') {
      if (v.length > limits.stringChars) return breach('stringChars', f, root, limits, v.length);
      total += v.length + 2;
    } else if (typeof v === 'number') total += 8;
    else if (typeof v !== 'object' || v === null) total += 5;
    else {
      const depth = f.depth + 1;
      if (depth > limits.depth) return breach('depth', f, root, limits);
      if (Array.isArray(v)) {
        if (v.length > limits.entries) return breach('entries', f, root, limits, v.length);
        total += 2 + v.length;
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth, key: i, up: f });
      } else {
        const keys = Object.keys(v);
        if (keys.length > limits.entries) return breach('entries', f, root, limits, keys.length);
        total += 2;
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i]!;
          if (k.length > limits.stringChars) return breach('stringChars', { v: k, depth, key: k.slice(0, 40), up: f }, root, limits, k.length);
          total += k.length + 4;
          stack.push({ v: (v as Record<string, unknown>)[k], depth, key: k, up: f });
        }
      }
    }
    if (total > limits.totalChars) return breach('totalChars', f, root, limits);
  }
  return null;
}

/**
 * The walk of jsonLimitBreach without a frame object per value (every event an import makes is checked: the frames
 * were most of the check's cost): the estimated size of `v` as JSON, counted as jsonLimitBreach counts it, or -1
 * when some limit is passed. It may answer -1 where jsonLimitBreach finds nothing (keys are read with `for…in`,
 * which would also see inherited ones), never the other way round. Recursion: at most `limits.depth` + 1 calls deep.
 */
function withinLimits(v: unknown, depth: number, limits: JsonLimits): number {
  if (typeof v === 'string') return v.length > limits.stringChars ? -1 : v.length + 2;
  if (typeof v === 'number') return 8;
  if (typeof v !== 'object' || v === null) return 5;
  if (depth + 1 > limits.depth) return -1;
  let total = 2;
  if (Array.isArray(v)) {
    if (v.length > limits.entries) return -1;
    total += v.length;
    for (let i = 0; i < v.length; i++) {
      const t = withinLimits(v[i], depth + 1, limits);
      if (t < 0 || (total += t) > limits.totalChars) return -1;
    }
    return total;
  }
  let entries = 0;
  for (const k in v) {
    if (++entries > limits.entries || k.length > limits.stringChars) return -1;
    const t = withinLimits((v as Record<string, unknown>)[k], depth + 1, limits);
    if (t < 0 || (total += k.length + 4 + t) > limits.totalChars) return -1;
  }
  return total;
}
