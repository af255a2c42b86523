/**
 * Hookwire for the Vercel AI SDK 6 (`ai`, language model specification v3): `import { hookwireAiSdk } from 'hookwire/ai-sdk'`.
 *
 * - `middleware` (for `wrapLanguageModel`) emits `model.before_call` and `model.after_call` around every model call of
 *   `generateText` and `streamText`. A rewritten `messages` is the prompt the model gets; a rewritten `response` is
 *   the content the SDK gets. A block or TERMINATE replaces the model call (before) or its answer (after) with one
 *   text part carrying Hookwire's message and no tool calls, so the SDK's loop ends there without an exception.
 *   Streams: the step's parts are held back until its `finish` part, then `model.after_call` decides on the step's
 *   final content (text, reasoning, tool calls), and the parts are released as they came, rewritten, or replaced by
 *   the block message. Enforcement over token latency: nothing of a step reaches the caller before the decision.
 * - `tools(toolSet)` wraps every tool's `execute` in `guardTool`: `tool.before_call` (a block returns Hookwire's
 *   message to the model as the tool's result; the tool never runs; a rewritten `tool_input` is what the tool gets),
 *   then `tool.after_call` (a rewritten `tool_response` is what the model sees; a block withholds it). The before event
 *   is dispatched in the tool's `needsApproval` (once per call): an ASK there is the SDK's tool approval [O4].
 * - `stopWhen` ends the SDK's loop after the step in which the trace was terminated (add it to `stopWhen`).
 */
import type { LanguageModelMiddleware, ToolSet } from 'ai';
import type { Approver, ApproverAnswer, EmitResult, JsonObject, RuntimeTrace } from '../../index.ts';
import { asJson, blockMessage, callTables, guardToolCall, ownResult, rewrittenField, toolInputOf, type TableCall } from '../adapterSupport.ts';

// The v3 model types, read off the middleware type that `ai` exports (so `ai` is the one peer dependency).
type LanguageModelV3Middleware = LanguageModelMiddleware;
type LanguageModelV3CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type LanguageModelV3GenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>;
type LanguageModelV3Content = LanguageModelV3GenerateResult['content'][number];
type LanguageModelV3Usage = LanguageModelV3GenerateResult['usage'];
type LanguageModelV3StreamPart = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>['stream'] extends ReadableStream<infer P> ? P : never;

export interface HookwireAiSdk {
  middleware: LanguageModelV3Middleware;
  tools<T extends ToolSet>(tools: T): T;
  stopWhen: () => boolean;
}

/** A tool call this trace dispatched: its `tool.before_call`, and the answer its ASK waits for. */
interface Call extends TableCall {
  result: Promise<EmitResult>;
  ask: ((a: ApproverAnswer) => void) | null;
  answered: boolean;
}
const callsOf = callTables<Call>();

export function hookwireAiSdk(trace: RuntimeTrace): HookwireAiSdk {
  const before = async (params: LanguageModelV3CallOptions, model: { modelId: string; provider: string }): Promise<{ result: EmitResult; params: LanguageModelV3CallOptions }> => {
    settle(params.prompt);
    const result = await trace.emitAsync('model.before_call', { model: model.modelId, provider: model.provider, messages: asJson(params.prompt), tools: (params.tools ?? []).map((t) => t.name) });
    const rewritten = result.blocked ? undefined : rewrittenField(result, 'messages', params.prompt);
    const next = Array.isArray(rewritten) ? { ...params, prompt: rewritten as unknown as LanguageModelV3CallOptions['prompt'] } : params;
    return { result, params: next };
  };
  const after = async (model: { modelId: string; provider: string }, content: LanguageModelV3Content[], usage: LanguageModelV3Usage | undefined, finish: string): Promise<{ result: EmitResult; content: LanguageModelV3Content[] }> => {
    const payload: JsonObject = { model: model.modelId, provider: model.provider, response: asJson(content), finish_reason: finish };
    if (usage) payload.usage = usageOf(usage);
    const result = await trace.emitAsync('model.after_call', payload);
    if (result.blocked) return { result, content: [{ type: 'text', text: blockMessage(result, 'after') }] };
    const response = rewrittenField(result, 'response', content);
    return { result, content: Array.isArray(response) ? (response as unknown as LanguageModelV3Content[]) : content };
  };

  const middleware: LanguageModelV3Middleware = {
    specificationVersion: 'v3',
    async wrapGenerate({ params, model }) {
      const b = await before(params, model);
      if (b.result.blocked) return replaced(blockMessage(b.result));
      const res = await model.doGenerate(b.params);
      const a = await after(model, res.content, res.usage, res.finishReason.unified);
      if (a.result.blocked) return { ...res, content: a.content, finishReason: { unified: 'stop', raw: 'hookwire' } };
      return a.content === res.content ? res : { ...res, content: a.content };
    },
    async wrapStream({ params, model }) {
      const b = await before(params, model);
      if (b.result.blocked) return { stream: streamOf(textParts(blockMessage(b.result)).concat(finishPart(zeroUsage()))) };
      const res = await model.doStream(b.params);
      const held: LanguageModelV3StreamPart[] = [];
      const release = async (ctl: TransformStreamDefaultController<LanguageModelV3StreamPart>, finish: Extract<LanguageModelV3StreamPart, { type: 'finish' }> | null) => {
        const content = contentOf(held);
        const a = await after(model, content, finish?.usage, finish?.finishReason.unified ?? 'other');
        const parts = a.content === content ? held : partsOf(a.content);
        for (const p of parts) ctl.enqueue(p);
        if (finish) ctl.enqueue(a.result.blocked ? { ...finish, finishReason: { unified: 'stop', raw: 'hookwire' } } : finish);
        held.length = 0;
      };
      let decided = false;
      const stream = res.stream.pipeThrough(
        new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          async transform(part, ctl) {
            if (part.type === 'finish') {
              decided = true;
              await release(ctl, part);
            } else if (part.type === 'stream-start' || part.type === 'response-metadata' || part.type === 'raw' || part.type === 'error') ctl.enqueue(part);
            else held.push(part);
          },
          async flush(ctl) {
            // A stream that ended without a finish part still gets its after event: nothing unchecked leaves.
            if (!decided) await release(ctl, null);
          },
        }),
      );
      return { ...res, stream };
    },
  };

  // [O4] An ASK is the SDK's own tool approval: `needsApproval` dispatches `tool.before_call` and answers true on
  // ASK, so the step ends with a `tool-approval-request`; the app adds a `tool-approval-response` and calls the SDK
  // again. The question waits as the emit's approver; the answer in the messages settles it (an approved call's
  // `execute`, a denied one's `execution-denied` result in the next prompt), recorded as an approver's answer [P14].
  // Shared by every adapter of this trace (an adapter per request resumes another's pause); a call leaves once
  // its tool runs or is denied. A call is found by its id, tool and input, never by the id alone (the model's ids
  // may repeat: `CallTable`).
  const calls = callsOf(trace);
  const answer = (toolCallId: string, a: ApproverAnswer) => {
    const denied = a === 'deny' || (typeof a === 'object' && a.answer === 'deny');
    const waiting = calls.withId(toolCallId);
    // The SDK keeps one approval per tool call id: with two calls of one id in flight, it cannot say which one the
    // person saw, so neither is approved.
    const answerOfCall = waiting.length > 1 && !denied ? { answer: 'deny' as const, reason: `tool call id ${toolCallId} names ${waiting.length} calls: the approval cannot say which` } : a;
    for (const c of waiting) {
      if (c.ask && !c.answered) {
        c.answered = true;
        c.ask(answerOfCall);
      }
      if (denied) calls.remove(toolCallId, c); // a denied call never executes (also when its own needsApproval asked)
    }
  };
  /** Reads the person's answers from messages or a prompt: approval responses, and denied results. */
  const settle = (messages: unknown) => {
    if (!Array.isArray(messages)) return;
    const requests = new Map<string, string>();
    for (const m of messages as { content?: unknown }[]) {
      if (!Array.isArray(m?.content)) continue;
      for (const p of m.content as { type?: string; approvalId?: string; toolCallId?: string; approved?: boolean; reason?: string; output?: { type?: string; reason?: string } }[]) {
        if (p?.type === 'tool-approval-request' && p.approvalId && p.toolCallId) requests.set(p.approvalId, p.toolCallId);
        else if (p?.type === 'tool-approval-response' && p.approvalId && requests.has(p.approvalId)) {
          const id = requests.get(p.approvalId)!;
          answer(id, p.approved === true ? (p.reason ? { answer: 'allow', reason: p.reason } : 'allow') : { answer: 'deny', reason: p.reason || 'denied in the AI SDK' });
        } else if (p?.type === 'tool-result' && p.toolCallId && p.output?.type === 'execution-denied') answer(p.toolCallId, { answer: 'deny', reason: p.output.reason || 'denied in the AI SDK' });
      }
    }
  };
  const dispatchBefore = (name: string, input: JsonObject, toolCallId: string): Promise<boolean> => {
    const call: Call = { tool_name: name, tool_input: input, event_id: calls.eventId(toolCallId), result: null as unknown as Promise<EmitResult>, ask: null, answered: false };
    let asked!: () => void;
    const askedNow = new Promise<boolean>((resolve) => (asked = () => resolve(true)));
    const approver: Approver = () => new Promise<ApproverAnswer>((resolve) => ((call.ask = resolve), asked()));
    call.result = trace.emitAsync('tool.before_call', { tool_name: name, tool_input: input, tool_use_id: toolCallId }, { event_id: `${call.event_id}:before`, approver }).then(ownResult);
    calls.add(toolCallId, call);
    return Promise.race([askedNow, call.result.then(() => false)]);
  };

  const tools = <T extends ToolSet>(set: T): T => {
    const out: Record<string, unknown> = {};
    for (const [name, t] of Object.entries(set)) {
      const execute = t.execute;
      if (!execute) {
        out[name] = t;
        continue;
      }
      const own = t.needsApproval;
      out[name] = {
        ...t,
        needsApproval: async (input: unknown, options: { toolCallId: string; messages: unknown[] }) => {
          const mine = typeof own === 'function' ? await (own as (i: unknown, o: unknown) => boolean | PromiseLike<boolean>)(input, options) : own === true;
          settle(options.messages);
          const toolInput = toolInputOf(input);
          // The ASK of this very call (asked again on a resume, answered or not) is not dispatched twice.
          const isAsk = calls.find(options.toolCallId, name, toolInput, (c) => c.ask !== null) ? true : await dispatchBefore(name, toolInput, options.toolCallId);
          return isAsk || mine;
        },
        execute: async (input: unknown, options: { toolCallId: string; messages?: unknown[] }) => {
          settle(options.messages);
          const id = options.toolCallId;
          const toolInput = toolInputOf(input);
          // This call's own before event (dispatched in needsApproval), taken so that no other execute runs on it.
          const call = calls.find(id, name, toolInput);
          if (call) calls.remove(id, call);
          // The SDK executes an asked call only after an approval response; without one in the messages it fails closed.
          if (call?.ask && !call.answered) {
            call.answered = true;
            call.ask({ answer: 'deny', reason: 'the AI SDK ran the tool without an approval response' });
          }
          const r = await guardToolCall(trace, { tool_name: name, tool_input: toolInput, tool_use_id: id, event_id: call?.event_id ?? calls.eventId(id) }, (rewritten) => execute(rewritten as never, options as never), call?.result);
          return r.status === 'blocked' ? r.message : r.value;
        },
      };
    }
    return out as T;
  };

  return { middleware, tools, stopWhen: () => trace.terminated !== null };
}

function usageOf(u: LanguageModelV3Usage): JsonObject {
  const o: JsonObject = {};
  if (typeof u.inputTokens.total === 'number') o.input_tokens = u.inputTokens.total;
  if (typeof u.outputTokens.total === 'number') o.output_tokens = u.outputTokens.total;
  return o;
}

function zeroUsage(): LanguageModelV3Usage {
  return { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
}

/** A model result that stands in for a call Hookwire did not let through. */
function replaced(text: string): LanguageModelV3GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'hookwire' }, usage: zeroUsage(), warnings: [] };
}

/** The content a stream step carried: texts and reasonings joined per id (in order of their start), tool calls as they are. */
function contentOf(parts: LanguageModelV3StreamPart[]): LanguageModelV3Content[] {
  const out: LanguageModelV3Content[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
  for (const p of parts) {
    if (p.type === 'text-start' || p.type === 'reasoning-start') {
      const item = { type: p.type === 'text-start' ? ('text' as const) : ('reasoning' as const), text: '' };
      open.set(`${item.type}:${p.id}`, item);
      out.push(item);
    } else if (p.type === 'text-delta' || p.type === 'reasoning-delta') {
      const item = open.get(`${p.type === 'text-delta' ? 'text' : 'reasoning'}:${p.id}`);
      if (item) item.text += p.delta;
    } else if (p.type === 'tool-call' || p.type === 'tool-result' || p.type === 'source' || p.type === 'file' || p.type === 'tool-approval-request') out.push(p);
  }
  return out;
}

/** Stream parts that carry this content. */
function partsOf(content: LanguageModelV3Content[]): LanguageModelV3StreamPart[] {
  return content.flatMap((c, i): LanguageModelV3StreamPart[] => {
    if (c.type === 'text') return textParts(c.text, `hookwire-${i}`);
    if (c.type === 'reasoning') {
      const id = `hookwire-${i}`;
      return [{ type: 'reasoning-start', id }, { type: 'reasoning-delta', id, delta: c.text }, { type: 'reasoning-end', id }];
    }
    return [c];
  });
}

function textParts(text: string, id = 'hookwire'): LanguageModelV3StreamPart[] {
  return [{ type: 'text-start', id }, { type: 'text-delta', id, delta: text }, { type: 'text-end', id }];
}

function finishPart(usage: LanguageModelV3Usage): LanguageModelV3StreamPart {
  return { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'hookwire' } };
}

function streamOf(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(ctl) {
      for (const p of parts) ctl.enqueue(p);
      ctl.close();
    },
  });
}
