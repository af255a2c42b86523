import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import type { RewriteOp } from '../model/pipelineSchema.ts';
import { parsePath } from '../match/path.ts';
import { compileRegex, type SafeRegex } from '../match/regex.ts';

/** A rewrite compiled once: payload in, new payload out; the input is never mutated [H4]. */
export type Rewrite = (payload: JsonObject) => JsonObject;

export type RewriteCompile = { ok: true; rewrite: Rewrite; fields: string[] } | { ok: false; errors: { index: number; field: string; message: string; code: 'bad_path' | 'bad_regex' }[] };

type Step = (payload: JsonObject) => JsonObject;

/** Compiles rewrite operations; their paths must be under `payload.` (only the payload can be rewritten). */
export function compileRewrite(ops: readonly RewriteOp[]): RewriteCompile {
  const steps: Step[] = [];
  const fields: string[] = [];
  const errors: Extract<RewriteCompile, { ok: false }>['errors'] = [];
  ops.forEach((op, index) => {
    let segments: string[] = [];
    if (op.path !== undefined) {
      const parsed = parsePath(op.path);
      if (!parsed.ok || parsed.path.root !== 'payload' || parsed.path.segments.length === 0) {
        errors.push({ index, field: 'path', code: 'bad_path', message: `rewrite path "${op.path}" must name a field under payload., e.g. payload.tool_input.command` });
        return;
      }
      segments = [...parsed.path.segments];
      fields.push(op.path);
    } else {
      fields.push('payload');
    }
    if (op.op === 'set') steps.push((p) => setIn(p, segments, op.value));
    else if (op.op === 'remove') steps.push((p) => removeIn(p, segments));
    else {
      let regex: SafeRegex | null = null;
      if (op.pattern !== undefined) {
        const compiled = compileRegex(op.pattern);
        if (!compiled.ok) {
          errors.push({ index, field: 'pattern', code: 'bad_regex', message: `redact pattern /${op.pattern}/: ${compiled.message}` });
          return;
        }
        regex = compiled.regex;
      }
      const replacement = op.replacement;
      // A field without a pattern is replaced whole; otherwise strings are redacted wherever they are.
      const redact = regex === null && segments.length > 0 ? () => replacement : (v: JsonValue): JsonValue => redactValue(v, regex, replacement);
      steps.push(segments.length === 0 ? (p) => redact(p) as JsonObject : (p) => updateIn(p, segments, redact));
    }
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, fields, rewrite: (payload) => steps.reduce((p, s) => s(p), payload) };
}

/** Copies along the path and sets the value, creating objects on the way. */
function setIn(obj: JsonObject, segments: string[], value: JsonValue): JsonObject {
  const [head, ...rest] = segments as [string, ...string[]];
  const copy = { ...obj };
  if (rest.length === 0) {
    ownSet(copy, head, value);
    return copy;
  }
  const child = ownGet(obj, head);
  ownSet(copy, head, setIn(isJsonObject(child) ? child : {}, rest, value));
  return copy;
}

function removeIn(obj: JsonObject, segments: string[]): JsonObject {
  const [head, ...rest] = segments as [string, ...string[]];
  if (!Object.prototype.hasOwnProperty.call(obj, head)) return obj;
  const copy = { ...obj };
  if (rest.length === 0) {
    delete copy[head];
    return copy;
  }
  const child = ownGet(obj, head);
  if (!isJsonObject(child)) return obj;
  ownSet(copy, head, removeIn(child, rest));
  return copy;
}

/** Applies `fn` to the value at the path when it exists (a missing field is left alone). */
function updateIn(obj: JsonObject, segments: string[], fn: (v: JsonValue) => JsonValue): JsonObject {
  const [head, ...rest] = segments as [string, ...string[]];
  const child = ownGet(obj, head);
  if (child === undefined) return obj;
  const copy = { ...obj };
  if (rest.length === 0) ownSet(copy, head, fn(child));
  else if (isJsonObject(child)) ownSet(copy, head, updateIn(child, rest, fn));
  else return obj;
  return copy;
}

/** Redacts strings: the whole string, or the parts matching the pattern; recurses into objects and arrays. */
function redactValue(value: JsonValue, regex: SafeRegex | null, replacement: string): JsonValue {
  if (typeof value === 'string') {
    if (!regex) return replacement;
    return regex.test(value) ? regex.replaceAll(value, replacement) : value;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactValue(v, regex, replacement);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (isJsonObject(value)) {
    let out: JsonObject | null = null;
    for (const key of Object.keys(value)) {
      const v = value[key]!;
      const r = redactValue(v, regex, replacement);
      if (r !== v) {
        out ??= { ...value };
        ownSet(out, key, r);
      }
    }
    return out ?? value;
  }
  return value;
}
