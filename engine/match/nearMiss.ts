import { distance } from 'fastest-levenshtein';
import { isJsonObject, type JsonValue } from '../model/json.ts';
import { rootValue, step, type ParsedPath, type Scope } from './path.ts';

/**
 * The near-miss hint for a path that is missing [X3]: names the nearest keys that do exist at the deepest
 * existing object. `payload.input` against `{ user_input: … }` →
 * "`payload.input` is missing; the payload has `user_input`".
 */
export function missingPathHint(scope: Scope, path: ParsedPath): string {
  if (path.root === 'event') return `\`${path.text}\` is missing`;
  let value: JsonValue | undefined = rootValue(scope, path.root);
  let depth = 0;
  for (; depth < path.segments.length; depth++) {
    const next = step(value, path.segments[depth]!);
    if (next === undefined) break;
    value = next;
  }
  const parentText = [path.root, ...path.segments.slice(0, depth)].join('.');
  const parentName = depth === 0 ? `the ${path.root === 'meta' ? 'event metadata' : path.root}` : `\`${parentText}\``;
  const wanted = path.segments[depth] ?? '';
  const head = `\`${path.text}\` is missing`;
  if (Array.isArray(value)) return `${head}; ${parentName} is an array of ${value.length}`;
  if (!isJsonObject(value)) return `${head}; ${parentName} is ${describeKind(value)}, not an object`;
  const keys = Object.keys(value);
  if (keys.length === 0) return `${head}; ${parentName} is empty`;
  const near = nearestKeys(wanted, keys);
  if (near.length > 0) return `${head}; ${parentName} has ${near.map((k) => `\`${k}\``).join(', ')}`;
  const shown = keys.slice(0, 6).map((k) => `\`${k}\``).join(', ');
  return `${head}; ${parentName} has ${shown}${keys.length > 6 ? `, … (${keys.length} keys)` : ''}`;
}

/** Keys close to `wanted`: one contains the other, or the edit distance is small for their length. */
export function nearestKeys(wanted: string, keys: readonly string[]): string[] {
  const w = wanted.toLowerCase();
  const scored: { key: string; score: number }[] = [];
  for (const key of keys) {
    const k = key.toLowerCase();
    const d = distance(w, k);
    const contains = w.length >= 2 && (k.includes(w) || w.includes(k));
    const close = d <= Math.max(1, Math.floor(Math.max(w.length, k.length) / 3));
    if (contains || close) scored.push({ key, score: contains ? d - 100 : d });
  }
  scored.sort((a, b) => a.score - b.score || a.key.localeCompare(b.key));
  return scored.slice(0, 3).map((s) => s.key);
}

function describeKind(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return 'missing';
}
