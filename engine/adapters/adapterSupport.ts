import { blockedResult, createRepeatWindow, isJsonObject, REPEAT_WINDOW, jsonEqual, JsonTooDeepError, ownGet, toJson, type EmitResult, type GuardResult, type JsonObject, type JsonValue, type RuntimeTrace } from '../index.ts';

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

/** A tool call an adapter dispatched: its tool and input as emitted tell it from another call with the same framework id. */
export interface TableCall {
  readonly tool_name: string;
  readonly tool_input: JsonObject;
  /** The base of its event ids (`<base>:before`, `<base>:after`): the framework's id, made unique in the trace. */
  readonly event_id: string;
}

/**
 * An adapter's tool calls in flight on one trace, by the framework's call id, shared by every adapter made for
 * that trace [O4]. An app that makes an adapter per request (and keeps one trace per conversation) resumes a
 * paused call through a new adapter: it must find the ASK that is waiting, not dispatch the call again behind it
 * (the repeat would wait for that ASK's answer, which the first adapter never gets).
 *
 * The call id is the model's: nothing stops a model from giving two calls one id, in one step or in two. So a
 * call is found only under its id AND its tool and input, and a new call gets event ids no earlier call of the
 * trace had: the engine answers a repeated event id with the first event's recorded result, payload included
 * [E5], so a reused id would run the new call on the old call's decision and input (a blocked `delete_file`
 * ran under an allowed `read_file`'s id).
 */
export class CallTable<C extends TableCall> {
  private readonly inFlight = new Map<string, C[]>();
  /**
   * The event id bases given out lately. Kept only while the engine could still answer their events as repeats:
   * it answers from its latest REPEAT_WINDOW dispatches [E5], and each call dispatches at least one event, so
   * twice that many bases is more than the window holds (calls in flight are also checked, and a collision that
   * gets past both is refused by `ownResult`: fail closed). A long-running trace keeps a bounded table, not one
   * entry per call it ever made (#32).
   */
  private readonly used = createRepeatWindow<true>(2 * REPEAT_WINDOW);

  /** The first call in flight with this id, tool and input (compared as JSON) that `also` accepts, if any. */
  find(id: string, tool_name: string, tool_input: JsonObject, also: (c: C) => boolean = () => true): C | undefined {
    return this.inFlight.get(id)?.find((c) => c.tool_name === tool_name && jsonEqual(c.tool_input, tool_input) && also(c));
  }

  /** The calls in flight with this id. */
  withId(id: string): readonly C[] {
    return this.inFlight.get(id) ?? [];
  }

  /** Every call in flight, with its id. */
  *entries(): IterableIterator<[string, C]> {
    for (const [id, calls] of this.inFlight) for (const c of calls) yield [id, c];
  }

  add(id: string, call: C): void {
    const calls = this.inFlight.get(id);
    if (calls) calls.push(call);
    else this.inFlight.set(id, [call]);
  }

  /** Takes the call out once it runs or is refused: a later call with this id is a new call. */
  remove(id: string, call: C): void {
    const calls = this.inFlight.get(id)?.filter((c) => c !== call) ?? [];
    if (calls.length) this.inFlight.set(id, calls);
    else this.inFlight.delete(id);
  }

  /** The event id base for a new call with this framework id: the id itself the first time, else `<id>#<n>`, never one used before. */
  eventId(id: string): string {
    let base = id;
    for (let n = 2; this.taken(base); n++) base = `${id}#${n}`;
    this.used.add(base, true);
    return base;
  }

  /** How many event id bases the table keeps (at most 2 × REPEAT_WINDOW, plus the calls in flight). */
  get size(): number {
    return this.used.size;
  }

  private taken(base: string): boolean {
    if (this.used.get(base)) return true;
    for (const calls of this.inFlight.values()) if (calls.some((c) => c.event_id === base)) return true;
    return false;
  }
}

/** `const callsOf = callTables<Call>()` once per adapter module; `callsOf(trace)` in each adapter. */
export function callTables<C extends TableCall>(): (trace: RuntimeTrace) => CallTable<C> {
  const tables = new WeakMap<RuntimeTrace, CallTable<C>>();
  return (trace) => {
    let t = tables.get(trace);
    if (!t) tables.set(trace, (t = new CallTable<C>()));
    return t;
  };
}

/**
 * A before event answered from an earlier event with the same id [E5] decided another call (the event id was
 * dispatched in this trace by someone else): the call is refused (fail closed).
 */
export function ownResult(r: EmitResult): EmitResult {
  if (!r.duplicate) return r;
  return { ...r, decision: 'block_action', blocked: true, approval: null, reason: `event ${r.event_id} was already dispatched in this trace for another call`, decided_by: null };
}

/**
 * `trace.guardTool` with the event ids of a table call (`<event_id>:before` / `:after`), which may differ from
 * the framework's call id (`tool_use_id` in the payloads) [P6]. The before event is `dispatched` when the adapter
 * dispatched it at the framework's approval hook, else dispatched here, refused if its id was another's.
 */
export function guardToolCall<R>(
  trace: RuntimeTrace,
  call: { tool_name: string; tool_input: JsonObject; tool_use_id: string; event_id: string },
  run: (input: JsonObject) => R | PromiseLike<R>,
  dispatched?: PromiseLike<EmitResult>,
): Promise<GuardResult<R>> {
  const { tool_name, tool_input, tool_use_id, event_id } = call;
  const before = dispatched ?? trace.emitAsync('tool.before_call', { tool_name, tool_input, tool_use_id }, { event_id: `${event_id}:before` }).then(ownResult);
  return trace.guardTool(tool_name, tool_input, run, { tool_use_id, event_id, dispatched: before });
}
