/**
 * Hookwire for LangChain.js v1 agents (`createAgent` middleware): `import { hookwireMiddleware } from 'hookwire/langchain'`.
 *
 * - `wrapModelCall` emits `model.before_call` {model, system_prompt, messages} and `model.after_call` {model,
 *   response {content, tool_calls}, usage}. A rewritten `messages[i].content` or `system_prompt` is what the model
 *   gets; a rewritten `response` is the AIMessage the agent gets. A block or TERMINATE stands in an AIMessage
 *   carrying Hookwire's message and no tool calls (before: the model is not called).
 * - `wrapToolCall` emits `tool.before_call` {tool_name, tool_input = the call's args, tool_use_id} and
 *   `tool.after_call` {…, tool_response = the ToolMessage's content, is_error}. A block returns a ToolMessage with
 *   the message (status "error") and the tool never runs; a rewritten `tool_input` is the args the tool gets; a
 *   rewritten `tool_response` is the content the model sees. An ASK is a LangGraph `interrupt()` with a HITL request,
 *   resumed with `Command({resume: {decisions: [...]}})` [O4].
 * - `beforeModel` and `afterModel` jump to the end (`jumpTo: "end"`) once the trace is terminated, so a TERMINATE
 *   at a tool call or a model answer ends the run at the next step.
 */
import { interrupt } from '@langchain/langgraph';
import { AIMessage, createMiddleware, ToolMessage, type BaseMessage } from 'langchain';
import { isJsonObject, ownGet, type ApprovalRequest, type Approver, type ApproverAnswer, type EmitResult, type JsonObject, type JsonValue, type RuntimeTrace } from '../../index.ts';
import { asJson, blockMessage, callTables, changed, jsonOf, ownResult, rewrittenField, toolInputOf, type TableCall } from '../adapterSupport.ts';

/** The resume value of a Hookwire interrupt, as `humanInTheLoopMiddleware` takes it: one decision. */
export interface HookwireResume {
  decisions: ({ type: 'approve' } | { type: 'reject'; message?: string })[];
}

/** A tool call this trace dispatched: its `tool.before_call`, and the ASK waiting for the resume value. */
interface Call extends TableCall {
  result: Promise<EmitResult>;
  isAsk: Promise<boolean>;
  request: ApprovalRequest | null;
  answer: ((a: ApproverAnswer) => void) | null;
  answered: boolean;
  /** A `wrapToolCall` is on it now (a second call with the same id, tool and input gets its own event). */
  busy: boolean;
}
const callsOf = callTables<Call>();

export function hookwireMiddleware(trace: RuntimeTrace, options: { name?: string } = {}) {
  // [O4] An ASK is LangGraph's human-in-the-loop interrupt: `wrapToolCall` dispatches `tool.before_call` once per
  // call; on ASK it calls `interrupt()` with a HITL request (as `humanInTheLoopMiddleware` does), the run stops
  // (it needs a checkpointer) and resumes with `new Command({ resume: { decisions: [...] } })`, when the tool node
  // runs again and `interrupt()` returns the person's decision. The question waits as the emit's approver; the
  // decision settles it, recorded as an approver's answer [P14].
  // Shared by every middleware of this trace (one made per request resumes another's interrupt); a call leaves
  // once its tool runs or is refused. A call is found by its id, tool and input, never by the id alone (the
  // model's ids may repeat: `CallTable`).
  const calls = callsOf(trace);
  const dispatchBefore = (name: string, input: JsonObject, id: string) => {
    let asked!: () => void;
    const askedNow = new Promise<boolean>((resolve) => (asked = () => resolve(true)));
    const event_id = id ? calls.eventId(id) : '';
    const call: Call = { tool_name: name, tool_input: input, event_id, result: null as unknown as Promise<EmitResult>, isAsk: askedNow, request: null, answer: null, answered: false, busy: true };
    const approver: Approver = (req) => new Promise<ApproverAnswer>((resolve) => ((call.request = req), (call.answer = resolve), asked()));
    call.result = trace.emitAsync('tool.before_call', { tool_name: name, tool_input: input, tool_use_id: id }, { ...(event_id ? { event_id: `${event_id}:before` } : {}), approver }).then(ownResult);
    call.isAsk = Promise.race([askedNow, call.result.then(() => false)]);
    if (id) calls.add(id, call);
    return call;
  };
  /** The paused call this one resumes (same id, tool and input, no `wrapToolCall` on it), taken for this run. */
  const resumedCall = (id: string, name: string, input: JsonObject) => {
    const c = id ? calls.find(id, name, input) : undefined;
    if (!c || c.busy) return undefined;
    c.busy = true;
    return c;
  };
  const endIfTerminated = () => (trace.terminated ? { jumpTo: 'end' as const } : undefined);
  return createMiddleware({
    name: options.name ?? 'HookwireMiddleware',
    beforeModel: { canJumpTo: ['end'], hook: endIfTerminated },
    afterModel: { canJumpTo: ['end'], hook: endIfTerminated },
    wrapModelCall: async (request, handler) => {
      const model = modelName(request.model);
      const messages = request.messages.map(messageJson);
      const before = await trace.emitAsync('model.before_call', { model, system_prompt: request.systemPrompt ?? '', messages });
      if (before.blocked) return new AIMessage({ content: blockMessage(before) });
      const next = { ...request, messages: rewriteMessages(request.messages, messages, rewrittenField(before, 'messages', messages)) };
      const system = ownGet(before.payload, 'system_prompt');
      if (typeof system === 'string' && system !== (request.systemPrompt ?? '')) next.systemPrompt = system;
      // LangGraph's `messages` stream mode hands the model's tokens and answer to the reader as the model makes them,
      // before `model.after_call` decides (a key the pipeline redacts, an answer it blocks, were read as they
      // came). Its handler skips a chat model run tagged `nostream` (@langchain/langgraph pregel/messages.js,
      // handleChatModelStart) and streams the node's output instead, which is the answer as decided: enforcement
      // over token latency, as for the AI SDK's streams. (`messages` mode: https://docs.langchain.com/oss/javascript/langgraph/streaming)
      const m = request.model as { withConfig?: (c: { tags: string[] }) => typeof request.model };
      if (typeof m.withConfig === 'function') next.model = m.withConfig({ tags: ['nostream'] });
      const ai = await handler(next);
      const response = { content: asJson(ai.content), tool_calls: asJson((ai.tool_calls ?? []).map((c) => ({ name: c.name, args: c.args, id: c.id ?? null }))) };
      const payload: JsonObject = { model, response };
      if (ai.usage_metadata) payload.usage = { input_tokens: ai.usage_metadata.input_tokens, output_tokens: ai.usage_metadata.output_tokens };
      const after = await trace.emitAsync('model.after_call', payload);
      if (after.blocked) return new AIMessage({ content: blockMessage(after, 'after'), id: ai.id });
      const rewritten = rewrittenField(after, 'response', response);
      if (!isJsonObject(rewritten)) return ai;
      const calls = ownGet(rewritten, 'tool_calls');
      return new AIMessage({
        content: contentOf(ownGet(rewritten, 'content'), ai.content),
        tool_calls: Array.isArray(calls) ? calls.filter(isJsonObject).map((c) => ({ name: String(ownGet(c, 'name')), args: toolInputOf(ownGet(c, 'args')), id: String(ownGet(c, 'id') ?? '') })) : [],
        ...(ai.id !== undefined ? { id: ai.id } : {}),
        ...(ai.usage_metadata ? { usage_metadata: ai.usage_metadata } : {}),
        response_metadata: ai.response_metadata,
      });
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const name = call.name;
      const id = call.id ?? '';
      const input = toolInputOf(call.args);
      const asked = resumedCall(id, name, input) ?? dispatchBefore(name, input, id);
      if ((await asked.isAsk) && !asked.answered) {
        const q = asked.request!;
        let decision: unknown;
        try {
          // Throws the first time (the run stops); returns the person's decision when the run resumes.
          decision = interrupt({
            actionRequests: [{ name, args: ownGet(q.payload, 'tool_input') ?? input, description: q.reason }],
            reviewConfigs: [{ actionName: name, allowedDecisions: ['approve', 'reject'] }],
            hookwire: { trace_id: q.trace_id, event_id: q.event_id, decided_by: q.decided_by },
          });
        } catch (e) {
          asked.busy = false; // paused: the resumed run's wrapToolCall takes it up
          throw e;
        }
        asked.answered = true;
        asked.answer!(answerOf(decision));
      }
      if (id) calls.remove(id, asked); // past the interrupt: this call runs or is refused now
      const r = await trace.guard<Awaited<ReturnType<typeof handler>>>({
        dispatched: asked.result,
        before: { type: 'tool.before_call', payload: { tool_name: name, tool_input: input, tool_use_id: id } },
        run: (p) => handler({ ...request, toolCall: { ...call, args: toolInputOf(ownGet(p, 'tool_input')) } }),
        after: {
          type: 'tool.after_call',
          payload: (result, p) => ({
            tool_name: name, tool_input: jsonOf(ownGet(p, 'tool_input')), tool_use_id: id,
            tool_response: ToolMessage.isInstance(result) ? jsonOf(result.content) : jsonOf(result),
            is_error: ToolMessage.isInstance(result) && result.status === 'error',
          }),
          error: (error, p) => ({ tool_name: name, tool_input: jsonOf(ownGet(p, 'tool_input')), tool_use_id: id, tool_response: error instanceof Error ? error.message : String(error), is_error: true }),
          value: (after, result) =>
            ToolMessage.isInstance(result)
              ? new ToolMessage({ content: contentOf(ownGet(after, 'tool_response'), result.content), tool_call_id: result.tool_call_id, name: result.name, status: result.status, ...(result.id !== undefined ? { id: result.id } : {}) })
              : result,
        },
        event_id: asked.event_id || undefined,
      });
      if (r.status === 'blocked') return new ToolMessage({ content: r.message, tool_call_id: id, name, status: 'error' });
      return r.value;
    },
  });
}

/** The person's decision as an answer: `approve` allows; `reject` denies with its message; anything else denies (fail closed). */
function answerOf(resume: unknown): ApproverAnswer {
  const d = (resume as { decisions?: unknown } | null)?.decisions;
  const first = Array.isArray(d) && d.length === 1 ? (d[0] as { type?: unknown; message?: unknown }) : null;
  if (first?.type === 'approve') return 'allow';
  if (first?.type === 'reject') return { answer: 'deny', reason: typeof first.message === 'string' && first.message ? first.message : 'rejected in LangGraph' };
  return { answer: 'deny', reason: 'the resume value is not one HITL decision ({decisions: [{type: "approve" | "reject"}]})' };
}

function modelName(model: unknown): string {
  const m = model as { model?: unknown; modelName?: unknown; _llmType?: () => string };
  if (typeof m.model === 'string') return m.model;
  if (typeof m.modelName === 'string') return m.modelName;
  return typeof m._llmType === 'function' ? m._llmType() : 'unknown';
}

/** A message as JSON: {role, content, tool_calls?, tool_call_id?}. */
function messageJson(m: BaseMessage): JsonObject {
  const o: JsonObject = { role: m.type, content: asJson(m.content) };
  const calls = (m as { tool_calls?: unknown[] }).tool_calls;
  if (Array.isArray(calls) && calls.length) o.tool_calls = asJson(calls);
  const callId = (m as { tool_call_id?: unknown }).tool_call_id;
  if (typeof callId === 'string') o.tool_call_id = callId;
  return o;
}

/** The messages with each rewritten `content` put back (same message class, same ids and tool calls). */
function rewriteMessages(messages: BaseMessage[], sent: JsonObject[], got: JsonValue | undefined): BaseMessage[] {
  if (!Array.isArray(got)) return messages;
  return messages.map((m, i) => {
    const g = got[i];
    const content = isJsonObject(g) ? ownGet(g, 'content') : undefined;
    if (content === undefined || !changed(content, sent[i] ? ownGet(sent[i]!, 'content') : undefined)) return m;
    const Ctor = m.constructor as new (fields: Record<string, unknown>) => BaseMessage;
    const f = m as unknown as Record<string, unknown>;
    return new Ctor({
      content: contentOf(content, m.content), id: m.id, name: m.name, additional_kwargs: m.additional_kwargs, response_metadata: m.response_metadata,
      ...(f.tool_calls !== undefined ? { tool_calls: f.tool_calls } : {}), ...(f.tool_call_id !== undefined ? { tool_call_id: f.tool_call_id } : {}), ...(f.status !== undefined ? { status: f.status } : {}),
    });
  });
}

/** A rewritten content: a string, or content blocks; anything else keeps the original. */
function contentOf<C>(value: JsonValue | undefined, original: C): C {
  if (typeof value === 'string' || Array.isArray(value)) return value as unknown as C;
  return value === undefined || value === null ? original : (JSON.stringify(value) as unknown as C);
}
