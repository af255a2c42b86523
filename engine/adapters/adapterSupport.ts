import { blockedResult, isJsonObject, jsonEqual, JsonTooDeepError, ownGet, toJson, type EmitResult, type JsonObject, type JsonValue, type RuntimeTrace } from '../index.ts';

/**
 * What the framework adapters share: JSON views of framework values and the one-line messages a model or a
 * person reads when Hookwire blocks something. Adapters import the engine only through its public entry.
 */

/**
 * A JSON copy of any framework value (non-JSON parts dropped, as the runtime does [P3]); `null` when nothing is left.
 * A value nested past the depth limit is handed on as it is: `emit` refuses it with the path and fails closed [V9][V12].
 */
export function jsonOf(value: unknown): JsonValue {
  return copyJson(value) ?? null;
}

function copyJson(value: unknown): JsonValue | undefined {
  try {
    return toJson(value);
  } catch (e) {
    if (e instanceof JsonTooDeepError) return value as JsonValue;
    throw e;
  }
}

/**
 * A framework value put into a payload as it is: `emit` copies the payload as JSON [P3] (non-JSON parts dropped), so
 * copying it here first would only double the work on big prompts.
 */
export function asJson(value: unknown): JsonValue {
  return value as JsonValue;
}

/** The value of `key` when a handler rewrote it (compared as JSON with what was emitted), else `undefined`. */
export function rewrittenField(r: EmitResult, key: string, emitted: unknown): JsonValue | undefined {
  if (!r.rewritten) return undefined;
  const v = ownGet(r.payload, key);
  return v !== undefined && changed(v, emitted) ? v : undefined;
}

/** A tool's input as Hookwire's `tool_input` (always an object): objects as they are, a JSON string parsed, anything else as `{input}`. */
export function toolInputOf(input: unknown): JsonObject {
  let v: unknown = input;
  if (typeof input === 'string') {
    try {
      v = JSON.parse(input);
    } catch {
      v = input;
    }
  }
  const j = copyJson(v);
  return isJsonObject(j) ? j : { input: j ?? null };
}

/** The readable line for a blocked event ("Blocked by Hookwire: <reason> (trace …, event …)") [P6]. */
export function blockMessage(r: EmitResult, stage: 'before' | 'after' = 'before'): string {
  return blockedResult(r, stage).message;
}

/** True when the handlers changed a value (compared as JSON with what was emitted). */
export function changed(after: JsonValue | undefined, before: unknown): boolean {
  return !jsonEqual(after, copyJson(before));
}

/** Thrown where a framework has no softer way to end a run than an error: carries the TERMINATE result. */
export class HookwireTerminated extends Error {
  readonly result: EmitResult;
  constructor(result: EmitResult) {
    super(blockMessage(result));
    this.name = 'HookwireTerminated';
    this.result = result;
  }
}

/**
 * An adapter's calls in flight on one trace, by the framework's call id, shared by every adapter made for
 * that trace [E5][O4]. An app that makes an adapter per request (and keeps one trace per conversation)
 * resumes a paused call through a new adapter: it must find the ASK that is waiting, not dispatch the call
 * again behind it (the repeat would wait for that ASK's answer, which the first adapter never gets).
 * `const callsOf = perTrace<Call>()` once per adapter module; `callsOf(trace)` in each adapter.
 */
export function perTrace<V>(): (trace: RuntimeTrace) => Map<string, V> {
  const maps = new WeakMap<RuntimeTrace, Map<string, V>>();
  return (trace) => {
    let calls = maps.get(trace);
    if (!calls) maps.set(trace, (calls = new Map()));
    return calls;
  };
}
