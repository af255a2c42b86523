import { isJsonObject, JsonTooDeepError, ownGet, toJson, type JsonObject, type JsonValue } from '../model/json.ts';
import type { Approver, BlockedResult, EmitResult, GuardResult, GuardSpec, RuntimeTrace } from './types.ts';

/**
 * Runs an action between its before and after events [P6]. A blocked before event means the action is not
 * called and the readable block result is returned; otherwise the action gets the (possibly rewritten)
 * before payload, the after event sees its result, and a block there withholds the result. An action that
 * throws still gets its after event (with the error) and the error is rethrown.
 *
 * @example const r = await trace.guard(spec); if (r.status === 'blocked') return r.message;
 */
export async function guardAction<R>(trace: RuntimeTrace, spec: GuardSpec<R>): Promise<GuardResult<R>> {
  const ids = (stage: string) => (spec.event_id !== undefined ? { event_id: `${spec.event_id}:${stage}` } : {});
  const meta = { ...(spec.meta !== undefined ? { meta: spec.meta } : {}), ...(spec.approver ? { approver: spec.approver } : {}) };
  // [P14] emitAsync: an ASK waits for the approver (sync or async) before the action may run.
  // A before event the caller already dispatched (at a framework's approval hook) is not emitted again.
  const before = spec.dispatched !== undefined ? await spec.dispatched : await trace.emitAsync(spec.before.type, spec.before.payload, { ...ids('before'), ...meta });
  if (before.blocked) return blockedResult(before, 'before');
  let result: R;
  try {
    result = await spec.run(before.payload);
  } catch (error) {
    await trace.emitAsync(spec.after.type, spec.after.error(error, before.payload), { ...ids('after'), ...meta });
    throw error;
  }
  const afterPayload = spec.after.payload(result, before.payload);
  const after = await trace.emitAsync(spec.after.type, afterPayload, { ...ids('after'), ...meta });
  if (after.blocked) return blockedResult(after, 'after');
  // emit dispatches a JSON copy of the payload; "rewritten" means a handler changed that copy.
  const rewritten = after.rewritten;
  return { status: 'ok', value: rewritten ? spec.after.value(after.payload, result) : result, rewritten, before, after };
}

/** The readable block result of a blocked event [P6]. */
export function blockedResult(r: EmitResult, stage: 'before' | 'after'): BlockedResult {
  const decision = r.decision === 'terminate' ? 'terminate' : r.decision === 'ask' ? 'ask' : 'block_action';
  const what = decision === 'terminate' ? 'Run terminated by Hookwire' : decision === 'ask' ? 'Not approved' : 'Blocked by Hookwire';
  // A denied ASK reads as the question and the answer: "Not approved: deploy? (no approver is configured …)".
  const why = decision === 'ask' && r.approval?.reason ? `${r.reason || 'approval required'} (${r.approval.reason})` : r.reason || 'no reason given';
  return {
    status: 'blocked',
    stage,
    decision,
    ...(decision === 'ask' && r.approval ? { approval: r.approval } : {}),
    reason: r.reason,
    trace_id: r.trace_id,
    event_id: r.event_id,
    decided_by: r.decided_by,
    message: `${what}: ${why} (trace ${r.trace_id}, event ${r.event_id})`,
  };
}

/** The canonical tool payloads (COMMON.md): tool.before_call {tool_name, tool_input, tool_use_id} → tool.after_call. */
export function guardToolSpec<R>(
  tool_name: string,
  tool_input: JsonObject,
  run: (input: JsonObject) => R | PromiseLike<R>,
  options: { tool_use_id?: string; event_id?: string; meta?: JsonObject; approver?: Approver; dispatched?: EmitResult | PromiseLike<EmitResult> },
): GuardSpec<R> {
  const id: JsonObject = options.tool_use_id !== undefined ? { tool_use_id: options.tool_use_id } : {};
  const base = options.event_id ?? options.tool_use_id;
  const inputOf = (p: JsonObject): JsonObject => {
    const v = ownGet(p, 'tool_input');
    return isJsonObject(v) ? v : {};
  };
  return {
    before: { type: 'tool.before_call', payload: { tool_name, tool_input, ...id } },
    run: (p) => run(inputOf(p)),
    after: {
      type: 'tool.after_call',
      payload: (result, p) => ({ tool_name, tool_input: inputOf(p), tool_response: responseOf(result), is_error: false, ...id }),
      error: (error, p) => ({ tool_name, tool_input: inputOf(p), tool_response: error instanceof Error ? error.message : String(error), is_error: true, ...id }),
      value: (after, result) => (ownGet(after, 'tool_response') ?? result) as R,
    },
    ...(base !== undefined ? { event_id: base } : {}),
    ...(options.meta !== undefined ? { meta: options.meta } : {}),
    ...(options.approver ? { approver: options.approver } : {}),
    ...(options.dispatched !== undefined ? { dispatched: options.dispatched } : {}),
  };
}

/**
 * A tool's result as JSON (null for what JSON cannot hold). One nested past the depth limit goes to emit as
 * it is, which refuses it with the path under `payload.tool_response` and fails closed [V9][V12].
 */
function responseOf(result: unknown): JsonValue {
  try {
    return toJson(result) ?? null;
  } catch (e) {
    if (e instanceof JsonTooDeepError) return result as JsonValue;
    throw e;
  }
}
