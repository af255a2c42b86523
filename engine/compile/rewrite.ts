import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import type { RewriteOp } from '../model/pipelineTypes.ts';
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

const INDEX = /^(0|[1-9][0-9]*)$/;
type Container = JsonObject | JsonValue[];

/** The child a segment names in a container: own keys of objects, integer indexes of arrays [C2][V8]. */
function childOf(c: Container, seg: string): JsonValue | undefined {
  if (!Array.isArray(c)) return ownGet(c, seg);
  return INDEX.test(seg) ? c[Number(seg)] : undefined;
}

/**
 * A copy of the container with the child at `seg` replaced, or null when the segment names no slot there:
 * a key into an array, or an index past the end (which would leave holes). An index equal to the length
 * appends.
 */
function withChild(c: Container, seg: string, value: JsonValue): Container | null {
  if (!Array.isArray(c)) {
    const copy = { ...c };
    ownSet(copy, seg, value);
    return copy;
  }
  if (!INDEX.test(seg) || Number(seg) > c.length) return null;
  const copy = c.slice();
  copy[Number(seg)] = value;
  return copy;
}

const isContainer = (v: JsonValue | undefined): v is Container => typeof v === 'object' && v !== null;

/**
 * Copies along the path and sets the value [H4]. Objects are created only for missing steps; a step that
 * exists but is not a container (or names no slot in an array) leaves the payload as it was, so a set never
 * turns an array into an object or overwrites a value on the way.
 */
function setIn(obj: JsonObject, segments: string[], value: JsonValue): JsonObject {
  return (setInto(obj, segments, 0, value) as JsonObject | null) ?? obj;
}

function setInto(c: Container, segments: string[], i: number, value: JsonValue): Container | null {
  const seg = segments[i]!;
  if (i === segments.length - 1) return withChild(c, seg, value);
  const child = childOf(c, seg);
  if (child !== undefined && !isContainer(child)) return null;
  const next = setInto(child ?? {}, segments, i + 1, value);
  return next === null ? null : withChild(c, seg, next);
}

/** Removes the field (or array element) at the path; a missing path leaves the payload as it was. */
function removeIn(obj: JsonObject, segments: string[]): JsonObject {
  return (removeFrom(obj, segments, 0) as JsonObject | null) ?? obj;
}

function removeFrom(c: Container, segments: string[], i: number): Container | null {
  const seg = segments[i]!;
  const child = childOf(c, seg);
  if (child === undefined) return null;
  if (i === segments.length - 1) {
    if (Array.isArray(c)) return c.filter((_, k) => k !== Number(seg));
    const copy = { ...c };
    delete copy[seg];
    return copy;
  }
  if (!isContainer(child)) return null;
  const next = removeFrom(child, segments, i + 1);
  return next === null ? null : withChild(c, seg, next);
}

/** Applies `fn` to the value at the path when it exists (a missing field is left alone). */
function updateIn(obj: JsonObject, segments: string[], fn: (v: JsonValue) => JsonValue): JsonObject {
  return (updateAt(obj, segments, 0, fn) as JsonObject | null) ?? obj;
}

function updateAt(c: Container, segments: string[], i: number, fn: (v: JsonValue) => JsonValue): Container | null {
  const seg = segments[i]!;
  const child = childOf(c, seg);
  if (child === undefined) return null;
  if (i === segments.length - 1) return withChild(c, seg, fn(child));
  if (!isContainer(child)) return null;
  const next = updateAt(child, segments, i + 1, fn);
  return next === null ? null : withChild(c, seg, next);
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
