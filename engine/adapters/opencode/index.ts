/**
 * Hookwire for OpenCode, in process: OpenCode takes TypeScript plugins (a file in `.opencode/plugins/` or a
 * package named in `opencode.json` "plugin"), each a function that returns hook functions
 * (https://opencode.ai/docs/plugins; the `Plugin` and `Hooks` types of `@opencode-ai/plugin` 1.18.33). This
 * adapter is such a plugin:
 *
 *   // .opencode/plugins/hookwire.ts
 *   import { loadRuntime } from 'hookwire/node';
 *   import { hookwireOpenCode } from 'hookwire/opencode';
 *   const r = await loadRuntime('pipeline.json');
 *   if (!r.ok) throw new Error('hookwire: the pipeline was refused');
 *   export const Hookwire = hookwireOpenCode(r.runtime);
 *
 * - `tool.execute.before` (input `{tool, sessionID, callID}`, output `{args}`) becomes `tool.before_call` with
 *   `tool_name`, `tool_input` (the args), `tool_use_id`, `session_id` and the portable fields of OpenCode's tools
 *   [AG2] (one rule and table with the session importer, engine/model/toolTables.ts). A block is a thrown Error,
 *   as OpenCode's docs block a call ("throw new Error" in `tool.execute.before`): the tool does not run and the
 *   model reads the message. A rewrite of `tool_input` is written into `output.args` in place (OpenCode runs the
 *   tool with that object). TERMINATE blocks the call (a plugin cannot end the session from this hook). An ASK goes
 *   to the runtime's approver [P14]: approved, the call runs; else it is blocked.
 * - `tool.execute.after` (input `{tool, sessionID, callID, args}`, output `{title, output, metadata}`) becomes
 *   `tool.after_call` with `tool_response` (the output text): a rewrite of it replaces `output.output`, a block or
 *   TERMINATE withholds it (the model reads Hookwire's message instead), context is appended for the model.
 * - Fail closed: anything that keeps Hookwire from deciding (a throw in the runtime, input that is not what the
 *   plugin API says) blocks the call before it runs, and withholds its result after.
 * - One trace per OpenCode session (`sessionID`), started on its first call, its agent id `opencode`.
 * - Not mapped (lost; docs/agents.md "OpenCode"): the prompt (`chat.message`), the model (`chat.params`), the
 *   permission prompt (`permission.ask`) and the session's end; an ASK without an approver is denied.
 */
import { isJsonObject, OPENCODE_TOOLS, portableFields, setPortableFields, type EmitResult, type JsonObject, type JsonValue, type Runtime, type RuntimeTrace } from '../../index.ts';
import { asJson, ownResult } from '../adapterSupport.ts';

/** `tool.execute.before` as `@opencode-ai/plugin` 1.18.33 declares it (index.d.ts `Hooks`). */
export type OpenCodeToolBefore = (input: { tool: string; sessionID: string; callID: string }, output: { args: unknown }) => Promise<void>;
/** `tool.execute.after` as `@opencode-ai/plugin` 1.18.33 declares it. */
export type OpenCodeToolAfter = (
  input: { tool: string; sessionID: string; callID: string; args: unknown },
  output: { title: string; output: string; metadata: unknown },
) => Promise<void>;

/** The hooks this plugin returns (a part of the package's `Hooks`). */
export interface OpenCodeHooks {
  'tool.execute.before': OpenCodeToolBefore;
  'tool.execute.after': OpenCodeToolAfter;
}

/** The package's `Plugin`: called once by OpenCode with its context, returns the hooks. */
export type OpenCodePlugin = (input: unknown, options?: Record<string, unknown>) => Promise<OpenCodeHooks>;

/** The one-line message the model reads for a blocked call or a withheld result. */
function blockedMessage(r: Pick<EmitResult, 'reason' | 'trace_id' | 'event_id' | 'approval'>): string {
  const why = r.approval && r.approval.answer !== 'allow' ? `${r.reason} (not approved${r.approval.reason ? `: ${r.approval.reason}` : ''})` : r.reason;
  return `Blocked by Hookwire: ${why} (trace ${r.trace_id}, event ${r.event_id})`;
}

/** Replaces an object's own keys with another's, in place (OpenCode keeps a reference to the args it runs with). */
function replaceInPlace(target: Record<string, unknown>, next: JsonObject): void {
  for (const k of Object.keys(target)) if (!Object.hasOwn(next, k)) delete target[k];
  for (const [k, v] of Object.entries(next)) Object.defineProperty(target, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/**
 * The OpenCode plugin for a runtime [AG2][P14]: every tool call is decided by the pipeline before it runs and its
 * result before the model reads it, failing closed.
 */
export function hookwireOpenCode(runtime: Pick<Runtime, 'startTrace'>): OpenCodePlugin {
  const traces = new Map<string, RuntimeTrace>();
  const traceOf = (sessionID: string): RuntimeTrace => {
    let t = traces.get(sessionID);
    if (!t) {
      t = runtime.startTrace({ agent_id: 'opencode', source: { kind: 'opencode-plugin', session_id: sessionID, agent: 'opencode' } });
      traces.set(sessionID, t);
    }
    return t;
  };
  const emit = async (type: string, sessionID: string, payload: JsonObject, eventId: string): Promise<EmitResult> =>
    ownResult(await traceOf(sessionID).emitAsync(type, payload, { event_id: eventId, meta: { agent: 'opencode' } }));

  const before: OpenCodeToolBefore = async (input, output) => {
    let r: EmitResult;
    try {
      if (!isJsonObject(input as unknown as JsonValue) || typeof input.tool !== 'string' || typeof input.sessionID !== 'string' || typeof input.callID !== 'string') throw new Error('not the input tool.execute.before takes');
      if (!isJsonObject(output?.args as JsonValue)) throw new Error('the tool\'s args are not an object');
      const args = output.args as JsonObject;
      const payload = setPortableFields({ tool_name: input.tool, tool_input: asJson(args), tool_use_id: input.callID, session_id: input.sessionID }, portableFields(OPENCODE_TOOLS, input.tool, args));
      r = await emit('tool.before_call', input.sessionID, payload, `${input.callID}:before`);
    } catch (err) {
      throw new Error(`Blocked by Hookwire: it could not decide this call (${err instanceof Error ? err.message : String(err)}): failing closed`);
    }
    if (r.blocked || r.decision === 'terminate') throw new Error(blockedMessage(r));
    const next = r.payload.tool_input;
    if (r.rewritten && isJsonObject(next)) replaceInPlace(output.args as Record<string, unknown>, next);
  };

  const after: OpenCodeToolAfter = async (input, output) => {
    try {
      if (!isJsonObject(input as unknown as JsonValue) || typeof input.tool !== 'string' || typeof input.sessionID !== 'string' || typeof input.callID !== 'string') throw new Error('not the input tool.execute.after takes');
      const args = isJsonObject(input.args as JsonValue) ? (input.args as JsonObject) : {};
      const text = typeof output?.output === 'string' ? output.output : '';
      const payload = setPortableFields({ tool_name: input.tool, tool_input: asJson(args), tool_response: text, tool_use_id: input.callID, session_id: input.sessionID }, portableFields(OPENCODE_TOOLS, input.tool, args));
      const r = await emit('tool.after_call', input.sessionID, payload, `${input.callID}:after`);
      if (r.blocked || r.decision === 'terminate') {
        output.output = blockedMessage(r);
        return;
      }
      const response = r.payload.tool_response;
      if (r.rewritten && typeof response === 'string') output.output = response;
      if (r.context.length > 0) output.output = `${output.output}\n\n${r.context.join('\n')}`;
    } catch (err) {
      output.output = `Withheld by Hookwire: it could not check this result (${err instanceof Error ? err.message : String(err)}): failing closed`;
    }
  };

  return async () => ({ 'tool.execute.before': before, 'tool.execute.after': after });
}
