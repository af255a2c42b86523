import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { context, trace as otel } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { createRuntime, HOOKWIRE_ATTR, pipelineVersionOf, loadPipeline } from '../../../engine/index.ts';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { PIPELINE, scenarioTools } from '../adapters/adapterFixture.ts';

// [O1] One span per dispatched event, on the real OpenTelemetry SDK with an in-memory exporter.

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('hookwire-test');
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
beforeEach(() => exporter.reset());

function runtime(options: { payloads?: boolean } = {}) {
  const r = createRuntime(PIPELINE, { telemetry: { tracer, ...options }, clock: { now: () => Date.parse('2026-12-01T10:00:00.000Z') } });
  if (!r.ok) throw new Error('refused');
  return r.runtime;
}

describe('OpenTelemetry spans [O1]', () => {
  it('[O1] a span per dispatched event, child of the active span, with the decision, handler, reason, trace id and pipeline', () => {
    const t = runtime().startTrace({ trace_id: 'otel-1' });
    tracer.startActiveSpan('framework tool span', (parent) => {
      t.emit('tool.before_call', { tool_name: 'delete_file', tool_input: { path: '/' }, tool_use_id: 'call-9' });
      parent.end();
    });
    const spans = exporter.getFinishedSpans();
    const parent = spans.find((s) => s.name === 'framework tool span')!;
    const hw = spans.find((s) => s.name === 'hookwire tool.before_call')!;
    expect(hw.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(hw.spanContext().traceId).toBe(parent.spanContext().traceId);
    const doc = loadPipeline(PIPELINE);
    if (!doc.ok) throw new Error('refused');
    expect(hw.attributes).toMatchObject({
      [HOOKWIRE_ATTR.eventType]: 'tool.before_call',
      [HOOKWIRE_ATTR.decision]: 'block_action',
      [HOOKWIRE_ATTR.blocked]: true,
      [HOOKWIRE_ATTR.decidedBy]: 'h-block',
      [HOOKWIRE_ATTR.reason]: 'destructive tool delete_file',
      [HOOKWIRE_ATTR.traceId]: 'otel-1',
      [HOOKWIRE_ATTR.pipelineName]: 'adapter scenario',
      [HOOKWIRE_ATTR.pipelineVersion]: pipelineVersionOf(doc.pipeline),
      'gen_ai.tool.name': 'delete_file',
      'gen_ai.tool.call.id': 'call-9',
      'gen_ai.conversation.id': 'otel-1',
    });
    // Payloads stay off the span unless asked for (they may hold what a rewrite redacts).
    expect(hw.attributes[HOOKWIRE_ATTR.payload]).toBeUndefined();
    const events = hw.events.map((e) => [e.name, e.attributes]);
    expect(events).toEqual([
      ['hookwire.handler', { 'hookwire.handler.id': 'h-block', 'hookwire.handler.name': 'no destructive tools', 'hookwire.handler.action': 'block', 'hookwire.handler.status': 'fired', 'hookwire.handler.decision': 'block_action', 'hookwire.handler.reason': 'destructive tool delete_file' }],
      ['gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'hookwire', 'gen_ai.evaluation.score.label': 'block_action', 'gen_ai.evaluation.explanation': 'destructive tool delete_file' }],
    ]);
  });

  it('[O1] spans say the same as the emit results (rewrites, budgets, terminate, after-terminate) and carry the event when payloads are on', () => {
    const t = runtime({ payloads: true }).startTrace({ trace_id: 'otel-2' });
    const results = [
      t.emit('tool.after_call', { tool_name: 'read_file', tool_input: {}, tool_response: 'key sk-live-0123456789abcdefghijklmnop', is_error: false }),
      t.emit('model.after_call', { model: 'm', usage: { output_tokens: 500 } }),
      t.emit('tool.before_call', { tool_name: 'read_file', tool_input: {} }),
    ];
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.attributes[HOOKWIRE_ATTR.eventId], s.attributes[HOOKWIRE_ATTR.decision], s.attributes[HOOKWIRE_ATTR.decidedBy] ?? null, s.attributes[HOOKWIRE_ATTR.reason]])).toEqual(
      results.map((r) => [r.event_id, r.decision, r.decided_by, r.reason]),
    );
    expect(spans[0]!.attributes[HOOKWIRE_ATTR.rewritten]).toBe(true);
    expect(spans[2]!.attributes[HOOKWIRE_ATTR.afterTerminate]).toBe(true);
    expect(spans[1]!.attributes['gen_ai.request.model']).toBe('m');
    // The event as dispatched (original payload), so an OTLP export can be replayed.
    expect(JSON.parse(String(spans[1]!.attributes[HOOKWIRE_ATTR.payload]))).toEqual({ model: 'm', usage: { output_tokens: 500 } });
    expect(spans[1]!.attributes[HOOKWIRE_ATTR.eventTs]).toBe('2026-12-01T10:00:00.000Z');
    // A handler that fired without deciding (the redaction) is a span event too.
    expect(spans[0]!.events.map((e) => e.attributes?.['hookwire.handler.id'])).toContain('h-redact');
  });

  it('[O1][O4] nests under the AI SDK\'s own spans (experimental_telemetry on the same tracer): the before event at the step (needsApproval runs before the SDK opens its tool span), the after event under ai.toolCall', async () => {
    const r = createRuntime(PIPELINE, { telemetry: { tracer } });
    if (!r.ok) throw new Error('refused');
    const hw = hookwireAiSdk(r.runtime.startTrace({ trace_id: 'otel-ai' }));
    const t = scenarioTools();
    const model = new MockLanguageModelV3({
      doGenerate: [
        { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"/etc/passwd"}' }], finishReason: { unified: 'tool-calls', raw: undefined }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }, warnings: [] },
        { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }, warnings: [] },
      ],
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware: hw.middleware }),
      tools: hw.tools({ read_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async (i) => t.read_file(i) }) }),
      stopWhen: stepCountIs(3),
      prompt: 'x',
      experimental_telemetry: { isEnabled: true, tracer },
    });
    const spans = exporter.getFinishedSpans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const parentName = (name: string) => spans.filter((s) => s.name === name).map((s) => byId.get(s.parentSpanContext?.spanId ?? '')?.name);
    expect(parentName('hookwire tool.before_call')).toEqual(['ai.generateText']);
    expect(parentName('hookwire tool.after_call')).toEqual(['ai.toolCall']);
    expect(parentName('hookwire model.before_call').every((n) => n === 'ai.generateText.doGenerate' || n === 'ai.generateText')).toBe(true);
    expect(otel.getActiveSpan()).toBeUndefined();
  });

  it('[O1] the engine and the adapters never import OpenTelemetry: without a tracer no OTel code is loaded', () => {
    const root = join(__dirname, '..', '..', '..', 'engine');
    const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : /\.(ts|mjs)$/.test(n) ? [join(d, n)] : []));
    const offenders = walk(root).filter((f) => /from\s+['"]@opentelemetry\//.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });
});
