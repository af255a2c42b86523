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
 *   resumed with `Command({resume: {decisions: [...]}})` [O4]: `approve`, `reject` {message}, or `edit`
 *   {editedAction: {name, args}}, an approval with an edit [AP2]: the edited args go through the pipeline again as
 *   their own event and, if it lets them, are what the tool gets (an edit naming another tool is denied: this
 *   middleware wraps one tool's call).
 * - `beforeModel` and `afterModel` jump to the end (`jumpTo: "end"`) once the trace is terminated, so a TERMINATE
 *   at a tool call or a model answer ends the run at the next step.
 */
import { interrupt } from '@langchain/langgraph';
import { AIMessage, createMiddleware, ToolMessage, type BaseMessage } from 'langchain';
import { isJsonObject, ownGet, type ApprovalRequest, type Approver, type ApproverAnswer, type EmitResult, type JsonObject, type JsonValue, type RuntimeTrace } from '../../index.ts';
import { asJson, blockMessage, callTables, changed, jsonOf, ownResult, rewrittenField, toolInputOf, type TableCall } from '../adapterSupport.ts';

/** The resume value of a Hookwire interrupt, as `humanInTheLoopMiddleware` takes it: one decision. */
export interface HookwireResume {
  decisions: ({ type: 'approve' } | { type: 'reject'; message?: string } | { type: 'edit'; editedAction: { name: string; args: Record<string, unknown> } })[];
}

/** One question of the approver, waiting for a resume value. */
interface Ask {
  request: ApprovalRequest;
  answer: (a: ApproverAnswer) => void;
  answered: boolean;
}

/** A tool call this trace dispatched: its `tool.before_call`, and the ASKs waiting for resume values. */
interface Call extends TableCall {
  result: Promise<EmitResult>;
  /** The approver's questions in order: the call's ASK, then its edited call's when that asks again [AP2]. */
  asks: Ask[];
  /** Settles when the next question comes. */
  nextAsk: Promise<void>;
  /** A `wrapToolCall` is on it now (a second call with the same id, tool and input gets its own event). */
  busy: boolean;
}

/** The call's `i`-th question: asked already, or the next one to come before its result settles; null when none comes. */
async function askAt(call: Call, i: number): Promise<Ask | null> {
  while (call.asks.length <= i) {
    const more = await Promise.race([call.nextAsk.then(() => true), call.result.then(() => false)]);
    if (!more && call.asks.length <= i) return null;
  }
  return call.asks[i]!;
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
    const event_id = id ? calls.eventId(id) : '';
    let asked = () => {};
    const arm = () => new Promise<void>((resolve) => (asked = resolve));
    const call: Call = { tool_name: name, tool_input: input, event_id, result: null as unknown as Promise<EmitResult>, asks: [], nextAsk: arm(), busy: true };
    const approver: Approver = (request) =>
      new Promise<ApproverAnswer>((answer) => {
        call.asks.push({ request, answer, answered: false });
        const told = asked;
        call.nextAsk = arm();
        told();
      });
    call.result = trace.emitAsync('tool.before_call', { tool_name: name, tool_input: input, tool_use_id: id }, { ...(event_id ? { event_id: `${event_id}:before` } : {}), approver }).then(ownResult);
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
      // Each question is one `interrupt()` of this node, in order: a resumed run calls them again and LangGraph hands
      // back the answers given so far (already settled here), then throws at the first one still unanswered.
      for (let i = 0; ; i++) {
        const ask = await askAt(asked, i);
        if (!ask) break;
        const q = ask.request;
        let decision: unknown;
        try {
          // Throws the first time (the run stops); returns the person's decision when the run resumes.
          decision = interrupt({
            actionRequests: [{ name, args: ownGet(q.payload, 'tool_input') ?? input, description: q.reason }],
            reviewConfigs: [{ actionName: name, allowedDecisions: ['approve', 'edit', 'reject'] }],
            hookwire: { trace_id: q.trace_id, event_id: q.event_id, decided_by: q.decided_by },
          });
        } catch (e) {
          asked.busy = false; // paused: the resumed run's wrapToolCall takes it up
          throw e;
        }
        if (!ask.answered) {
          ask.answered = true;
          ask.answer(answerOf(decision, q.payload, name));
        }
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

/**
 * The person's decision as an answer: `approve` allows; `reject` denies with its message; `edit` allows with the
 * shown payload's `tool_input` replaced by the edited args [AP2] (the runtime checks them as a new event); an edit
 * that names another tool, or args that are not an object, and anything else deny (fail closed).
 */
function answerOf(resume: unknown, shown: JsonObject, toolName: string): ApproverAnswer {
  const d = (resume as { decisions?: unknown } | null)?.decisions;
  const first = Array.isArray(d) && d.length === 1 ? (d[0] as { type?: unknown; message?: unknown; editedAction?: unknown }) : null;
  if (first?.type === 'approve') return 'allow';
  if (first?.type === 'reject') return { answer: 'deny', reason: typeof first.message === 'string' && first.message ? first.message : 'rejected in LangGraph' };
  if (first?.type === 'edit') {
    const action = isJsonObject(jsonOf(first.editedAction)) ? (jsonOf(first.editedAction) as JsonObject) : null;
    const name = action ? ownGet(action, 'name') : undefined;
    const args = action ? ownGet(action, 'args') : undefined;
    if (name !== toolName) return { answer: 'deny', reason: `the edit names ${typeof name === 'string' ? `the tool ${name}` : 'no tool'}, not ${toolName}: Hookwire runs the call it asked about or none` };
    if (!isJsonObject(args)) return { answer: 'deny', reason: 'the edit\'s args are not an object' };
    return { answer: 'allow', edit: { ...shown, tool_input: args } };
  }
  return { answer: 'deny', reason: 'the resume value is not one HITL decision ({decisions: [{type: "approve" | "edit" | "reject"}]})' };
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
