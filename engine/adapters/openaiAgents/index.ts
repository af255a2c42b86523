/**
 * Hookwire for the OpenAI Agents SDK (`@openai/agents` 0.20): `import { hookwireAgents } from 'hookwire/openai-agents'`.
 *
 * - `agent(a)` returns a copy of the agent (and of every agent it hands off to) with its function tools guarded
 *   (those of its MCP servers too, fetched at run time), an input guardrail, an output guardrail and guarded handoffs.
 *   - tools: `tool.before_call` {tool_name, tool_input = the parsed arguments, tool_use_id = call id}; a block
 *     returns Hookwire's message as the tool's output (the model reads it; the tool never runs); a rewritten
 *     `tool_input` is the arguments the tool gets. `tool.after_call` {…, tool_response}: a rewrite is the output
 *     the model sees, a block withholds it. `tool.before_call` is dispatched in the tool's `needsApproval` (once per
 *     call): an ASK there is the SDK's tool approval, an interruption answered with `state.approve/reject` [O4].
 *   - input guardrail (`runInParallel: false`, so it decides before the first model call): `input.received`
 *     {prompt, input}; BLOCK or TERMINATE trips the wire (`InputGuardrailTripwireTriggered`).
 *   - output guardrail: `final_answer.before` {text, agent}; BLOCK or TERMINATE trips the wire
 *     (`OutputGuardrailTripwireTriggered`). Guardrails cannot change the output: a rewrite there is recorded, not applied.
 *   - handoffs: `agent.handoff` {from_agent, to_agent, tool_name, input}, its own event type; a block keeps the
 *     current agent (the SDK lets `onInvokeHandoff` pick the next agent, and has no way to refuse with a message).
 * - `modelProvider(p)` / `model(m)` wrap the model: `model.before_call` {model, system_prompt, messages, tools} and
 *   `model.after_call` {model, response = the output items, usage}. A rewritten `messages`/`system_prompt` is the
 *   request the model gets, a rewritten `response` the output the runner gets; a block or TERMINATE stands in an
 *   assistant message with Hookwire's message and no tool calls, which the runner takes as the final output.
 *   Streamed responses are held until `response_done` and decided on its output (as for the AI SDK).
 */
import { Agent, getHandoff, Usage, type AgentOutputType, type FunctionTool, type RunContext, type Handoff, type InputGuardrail, type Model, type ModelProvider, type ModelRequest, type ModelResponse, type OutputGuardrail, type Tool, type ToolInputParameters } from '@openai/agents';
import { ownGet, type Approver, type ApproverAnswer, type EmitResult, type JsonObject, type RuntimeTrace } from '../../index.ts';
import { asJson, blockMessage, callTables, guardToolCall, ownResult, rewrittenField, toolInputOf, type TableCall } from '../adapterSupport.ts';

type StreamEvent = ReturnType<Model['getStreamedResponse']> extends AsyncIterable<infer E> ? E : never;
/**
 * A function tool of any context, parameters and result (the SDK's own `Tool` union holds them so). The adapter
 * reads no context: it hands the run context back to the tool as it came, so one wrapper fits every tool.
 */
type SomeFunctionTool = FunctionTool<unknown, ToolInputParameters, unknown>;

/** An ASK handed to the SDK's approval: it waits for the person's answer in the run context. */
interface PendingAsk {
  ctx: RunContext<unknown>;
  toolName: string;
  answered: boolean;
  answer(a: ApproverAnswer): void;
}

/** A tool call this trace dispatched: its `tool.before_call`, and the ASK waiting for the SDK's approval. */
interface Call extends TableCall {
  result: Promise<EmitResult>;
  ask: PendingAsk | null;
}
const callsOf = callTables<Call>();

/** The person's answer as the SDK's run state holds it: approved, or rejected with its message. */
function sdkAnswer(ctx: RunContext<unknown>, toolName: string, callId: string, approved: boolean): ApproverAnswer {
  return approved ? 'allow' : { answer: 'deny', reason: ctx.getRejectionMessage(toolName, callId) ?? 'rejected in the Agents SDK' };
}

export interface HookwireAgents {
  /** A guarded copy of the agent, of the same run context and output type (the same copy for the same agent). */
  agent<TContext, TOutput extends AgentOutputType>(agent: Agent<TContext, TOutput>): Agent<TContext, TOutput>;
  tools<TContext>(tools: Tool<TContext>[]): Tool<TContext>[];
  inputGuardrail: InputGuardrail;
  /** Reads the final output of any output type as text (JSON for structured output); fits every agent's guardrails. */
  outputGuardrail: OutputGuardrail<AgentOutputType, unknown>;
  model(model: Model, name?: string): Model;
  modelProvider(provider: ModelProvider): ModelProvider;
}

export function hookwireAgents(trace: RuntimeTrace): HookwireAgents {
  // [O4] An ASK is the SDK's own tool approval: `needsApproval` dispatches `tool.before_call` and answers true on
  // ASK, so the run returns with an interruption; the person answers with `state.approve()` / `state.reject()` and
  // the run resumes. The question waits as the emit's approver; the SDK's answer settles it, and the runtime
  // records it as any approver's answer [P14], so `hookwire replay` reproduces it [R15].
  // Shared by every adapter of this trace (an adapter per request resumes another's pause); a call leaves once
  // its tool runs or is refused. A call is found by its id and tool, never by the id alone (the model's ids may
  // repeat: `CallTable`); not by its input, which the SDK hands `needsApproval` parsed by the tool's schema and
  // `invoke` as the model's text, so the two can differ for one call.
  const calls = callsOf(trace);
  const callOf = (callId: string, toolName: string) => calls.withId(callId).find((c) => c.tool_name === toolName);
  const settle = () => {
    for (const [callId, c] of [...calls.entries()]) {
      const a = c.ask;
      if (!a || a.answered) continue;
      const approved = a.ctx.isToolApproved({ toolName: a.toolName, callId });
      if (approved === undefined) continue;
      a.answer(sdkAnswer(a.ctx, a.toolName, callId, approved));
      if (!approved) calls.remove(callId, c); // the SDK never runs a rejected call
    }
  };
  const before = (f: SomeFunctionTool, ctx: RunContext<unknown>, input: unknown, callId: string) => {
    let ask: PendingAsk | null = null;
    let asked!: () => void;
    const askedNow = new Promise<boolean>((resolve) => (asked = () => resolve(true)));
    const approver: Approver = () =>
      new Promise<ApproverAnswer>((resolve) => {
        const a: PendingAsk = { ctx, toolName: f.name, answered: false, answer: (v) => { if (!a.answered) { a.answered = true; resolve(v); } } };
        ask = a;
        asked();
      });
    const call = dispatch(f, input, callId, approver);
    return Promise.race([askedNow, call.result.then(() => false)]).then((isAsk) => ((call.ask = ask), isAsk));
  };

  // A run resumed from a state this adapter never saw (`RunState.fromString` in another process, or another
  // trace): the SDK runs an approved call without asking `needsApproval` again, so the event is dispatched here,
  // and an ASK is answered by what the person decided in the state (`approve` / `reject`) [O4]. No answer in the
  // state: undefined, and the call is guarded as any other (an ASK goes to the trace's approver, else denied).
  const resumed = (f: SomeFunctionTool, ctx: RunContext<unknown>, input: unknown, callId: string) => {
    const approved = ctx.isToolApproved({ toolName: f.name, callId });
    if (approved === undefined) return undefined;
    const answer = sdkAnswer(ctx, f.name, callId, approved);
    return dispatch(f, input, callId, () => answer);
  };

  /** Dispatches a call's `tool.before_call` under event ids of its own and files it in the trace's table. */
  const dispatch = (f: SomeFunctionTool, input: unknown, callId: string, approver: Approver): Call => {
    const tool_input = toolInputOf(input);
    const event_id = calls.eventId(callId);
    const result = trace.emitAsync('tool.before_call', { tool_name: f.name, tool_input, tool_use_id: callId }, { event_id: `${event_id}:before`, approver }).then(ownResult);
    const call: Call = { tool_name: f.name, tool_input, event_id, result, ask: null };
    calls.add(callId, call);
    return call;
  };

  // The guarded tool hands the run context it gets back to the tool as it came: the context type is the tool's own.
  const tool = <TContext>(t: Tool<TContext>): Tool<TContext> => {
    if (t.type !== 'function') return t;
    const f = t as SomeFunctionTool;
    const needsApproval: SomeFunctionTool['needsApproval'] = async (ctx, input, callId) => {
      const own = await f.needsApproval(ctx, input, callId);
      if (callId === undefined) return own;
      settle();
      // The SDK asks again after a resume: the ASK of this call (answered or not) is not dispatched twice.
      const isAsk = calls.withId(callId).some((c) => c.tool_name === f.name && c.ask !== null) ? true : await before(f, ctx, input, callId);
      return isAsk || own;
    };
    const invoke: SomeFunctionTool['invoke'] = async (ctx, input, details) => {
      const callId = details?.toolCall?.callId;
      settle();
      const run = (rewritten: JsonObject) => f.invoke(ctx, JSON.stringify(rewritten), details);
      if (callId === undefined) {
        const r = await trace.guardTool(f.name, toolInputOf(input), run);
        return r.status === 'blocked' ? r.message : r.value;
      }
      // This call's own before event, taken so that no other call with this id runs on it.
      const call = callOf(callId, f.name) ?? resumed(f, ctx, input, callId);
      if (call) calls.remove(callId, call);
      // The SDK runs an asked call only once the person approved it; anything else fails closed.
      if (call?.ask && !call.ask.answered) call.ask.answer(ctx.isToolApproved({ toolName: f.name, callId }) === true ? 'allow' : { answer: 'deny', reason: 'the Agents SDK ran the tool without an approval' });
      const r = await guardToolCall(trace, { tool_name: f.name, tool_input: toolInputOf(input), tool_use_id: callId, event_id: call?.event_id ?? calls.eventId(callId) }, run, call?.result);
      return r.status === 'blocked' ? r.message : r.value;
    };
    const guarded: SomeFunctionTool = { ...f, needsApproval, invoke };
    return guarded as Tool<TContext>;
  };

  const inputGuardrail: InputGuardrail = {
    name: 'hookwire',
    runInParallel: false,
    execute: async ({ input }) => {
      settle();
      const prompt = typeof input === 'string' ? input : lastUserText(input);
      const r = await trace.emitAsync('input.received', { prompt, input: asJson(input) });
      return { tripwireTriggered: r.blocked, outputInfo: resultInfo(r) };
    },
  };
  const outputGuardrail: OutputGuardrail<AgentOutputType, unknown> = {
    name: 'hookwire',
    execute: async ({ agentOutput, agent }) => {
      settle();
      const text = typeof agentOutput === 'string' ? agentOutput : JSON.stringify(agentOutput);
      const r = await trace.emitAsync('final_answer.before', { text, agent: agent.name });
      return { tripwireTriggered: r.blocked, outputInfo: resultInfo(r) };
    },
  };

  // Each agent's guarded copy, by the agent (a copy has the agent's own context and output type).
  const done = new Map<object, object>();
  const agent = <TContext, TOutput extends AgentOutputType>(a: Agent<TContext, TOutput>): Agent<TContext, TOutput> => {
    const seen = done.get(a);
    if (seen) return seen as Agent<TContext, TOutput>;
    const copy = a.clone({
      tools: a.tools.map(tool),
      inputGuardrails: [...a.inputGuardrails, inputGuardrail],
      outputGuardrails: [...a.outputGuardrails, outputGuardrail],
    });
    done.set(a, copy);
    // The tools of the agent's MCP servers come at run time (`getAllTools` asks `getMcpTools`), never in `tools`:
    // guarded as they come, or an MCP tool call would pass Hookwire by.
    const mcpTools = copy.getMcpTools.bind(copy);
    copy.getMcpTools = async (ctx, parent) => (await mcpTools(ctx, parent)).map(tool);
    copy.handoffs = a.handoffs.map((h) => guardHandoff(copy, getHandoff(h)));
    return copy;
  };
  // A handoff keeps its class (the SDK reads its methods): a copy of the same prototype with the guarded target.
  const guardHandoff = <TContext, TOutput extends AgentOutputType>(from: Agent<TContext, TOutput>, h: Handoff<TContext, TOutput>): Handoff<TContext, TOutput> => {
    const target = agent(h.agent);
    const wrapped: Handoff<TContext, TOutput> = Object.assign(Object.create(Object.getPrototypeOf(h) as object) as Handoff<TContext, TOutput>, h, {
      agent: target,
      onInvokeHandoff: async (ctx: RunContext<TContext>, args: string) => {
        settle();
        const r = await trace.emitAsync('agent.handoff', { from_agent: from.name, to_agent: h.agentName, tool_name: h.toolName, input: toolInputOf(args || '{}') });
        if (r.blocked) return from;
        const next = await h.onInvokeHandoff(ctx, args);
        return next === h.agent ? target : agent(next);
      },
    });
    return wrapped;
  };

  const model = (m: Model, name = 'model'): Model => {
    const beforeModel = async (request: ModelRequest): Promise<{ result: EmitResult; request: ModelRequest }> => {
      settle();
      const system = request.systemInstructions ?? '';
      const result = await trace.emitAsync('model.before_call', { model: name, system_prompt: system, messages: asJson(request.input), tools: request.tools.map((t) => String((t as { name?: unknown; type?: unknown }).name ?? (t as { type?: unknown }).type)) });
      if (result.blocked) return { result, request };
      let next = request;
      const msgs = rewrittenField(result, 'messages', request.input);
      if (typeof msgs === 'string' || Array.isArray(msgs)) next = { ...next, input: msgs as ModelRequest['input'] };
      const sys = ownGet(result.payload, 'system_prompt');
      if (typeof sys === 'string' && sys !== system) next = { ...next, systemInstructions: sys };
      return { result, request: next };
    };
    const after = async (output: ModelResponse['output'], usage: { inputTokens: number; outputTokens: number } | undefined): Promise<{ result: EmitResult; output: ModelResponse['output'] }> => {
      const payload: JsonObject = { model: name, response: asJson(output) };
      if (usage) payload.usage = { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
      const result = await trace.emitAsync('model.after_call', payload);
      if (result.blocked) return { result, output: [assistantText(blockMessage(result, 'after'))] };
      const response = rewrittenField(result, 'response', output);
      return { result, output: Array.isArray(response) ? (response as unknown as ModelResponse['output']) : output };
    };
    const wrapped: Model = {
      async getResponse(request) {
        const b = await beforeModel(request);
        if (b.result.blocked) return { usage: new Usage(), output: [assistantText(blockMessage(b.result))] };
        const res = await m.getResponse(b.request);
        const a = await after(res.output, res.usage);
        return a.output === res.output ? res : { ...res, output: a.output };
      },
      async *getStreamedResponse(request) {
        const b = await beforeModel(request);
        if (b.result.blocked) {
          yield* replacedStream(blockMessage(b.result));
          return;
        }
        const held: StreamEvent[] = [];
        for await (const e of m.getStreamedResponse(b.request)) {
          if (e.type !== 'response_done') {
            if (e.type === 'response_started') yield e;
            else held.push(e);
            continue;
          }
          const a = await after(e.response.output as ModelResponse['output'], e.response.usage);
          if (a.output === e.response.output) yield* held;
          else {
            const text = textOf(a.output);
            if (text) yield { type: 'output_text_delta', delta: text } as StreamEvent;
          }
          yield { ...e, response: { ...e.response, output: a.output } } as StreamEvent;
          return;
        }
        // A stream without response_done gives the runner nothing to act on; what was held is dropped.
      },
    };
    if (m.getRetryAdvice) wrapped.getRetryAdvice = m.getRetryAdvice.bind(m);
    return wrapped;
  };

  const modelProvider = (p: ModelProvider): ModelProvider => ({
    async getModel(name?: string) {
      return model(await p.getModel(name), name ?? 'default');
    },
  });

  return { agent, tools: (ts) => ts.map(tool), inputGuardrail, outputGuardrail, model, modelProvider };
}

function resultInfo(r: EmitResult) {
  return { decision: r.decision, reason: r.reason, decided_by: r.decided_by, trace_id: r.trace_id, event_id: r.event_id, ...(r.blocked ? { message: blockMessage(r) } : {}) };
}

function assistantText(text: string): ModelResponse['output'][number] {
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
}

function textOf(output: ModelResponse['output']): string {
  return output
    .flatMap((o) => (o.type === 'message' && o.role === 'assistant' ? o.content : []))
    .map((c) => (c.type === 'output_text' ? c.text : ''))
    .join('');
}

function lastUserText(items: readonly unknown[]): string {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as { role?: string; content?: unknown };
    if (it.role !== 'user') continue;
    if (typeof it.content === 'string') return it.content;
    if (Array.isArray(it.content)) return it.content.map((c: { text?: unknown }) => (typeof c.text === 'string' ? c.text : '')).join('');
  }
  return '';
}

async function* replacedStream(text: string): AsyncIterable<StreamEvent> {
  yield { type: 'output_text_delta', delta: text } as StreamEvent;
  yield { type: 'response_done', response: { id: 'hookwire', usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: [assistantText(text)] } } as StreamEvent;
}
