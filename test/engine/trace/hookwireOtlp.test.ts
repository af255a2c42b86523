import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { compilePipeline, importTrace, replayTrace, type PipelineInput } from '../../../engine/index.ts';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { PIPELINE, scenarioTools, startLive } from '../adapters/adapterFixture.ts';

// [O3] Closing the loop: a run's spans, written as OTLP/JSON the way a collector's file exporter writes them
// (one ExportTraceServiceRequest per line, serialised by OpenTelemetry's own OTLP transformer), import back as a
// trace whose recorded decisions are the ones Hookwire made live.

const usage = (n: number) => ({ inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: n, text: n, reasoning: 0 } });
const call = (id: string, toolName: string, input: object) => ({ type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) });

async function recordRun() {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('hookwire');
  const live = startLive({ telemetry: { tracer, payloads: true } }, 'otlp-run');
  const hw = hookwireAiSdk(live.trace);
  const t = scenarioTools();
  const tc = { unified: 'tool-calls' as const, raw: undefined };
  const model = new MockLanguageModelV3({
    doGenerate: [
      { content: [call('c1', 'delete_file', { path: '/' })], finishReason: tc, usage: usage(30), warnings: [] },
      { content: [call('c2', 'read_file', { path: '/etc/passwd' })], finishReason: tc, usage: usage(30), warnings: [] },
      { content: [call('c3', 'send_email', { to: 'ops@example.com' })], finishReason: tc, usage: usage(500), warnings: [] },
    ],
  });
  const path = z.object({ path: z.string() });
  await generateText({
    model: wrapLanguageModel({ model, middleware: hw.middleware }),
    tools: hw.tools({
      delete_file: tool({ inputSchema: path, execute: async (i) => t.delete_file(i) }),
      read_file: tool({ inputSchema: path, execute: async (i) => t.read_file(i) }),
      send_email: tool({ inputSchema: z.object({ to: z.string() }), execute: async (i) => t.send_email(i) }),
    }),
    stopWhen: [stepCountIs(10), hw.stopWhen],
    prompt: 'tidy up the disk',
    experimental_telemetry: { isEnabled: true, tracer }, // the framework's own spans share the file
  });
  // Two export batches, as a collector flushing twice would write them: two lines.
  const spans = exporter.getFinishedSpans();
  const half = Math.floor(spans.length / 2);
  const line = (s: typeof spans) => new TextDecoder().decode(JsonTraceSerializer.serializeRequest(s as never));
  return { live, text: `${line(spans.slice(half))}\n${line(spans.slice(0, half))}\n`, frameworkSpans: spans.filter((s) => !s.name.startsWith('hookwire ')).length };
}

describe('OTLP/JSON of Hookwire spans → trace v1 [O3]', () => {
  it('[O3] imports with the live decisions as the recording\'s, in dispatch order; the framework spans are counted, not mapped', async () => {
    const { live, text, frameworkSpans } = await recordRun();
    expect(frameworkSpans).toBeGreaterThan(0);
    const out = importTrace(text, { fileName: 'collector.jsonl' });
    expect(out.format).toBe('otlp-json');
    expect(out.problems).toEqual([]);
    const events = out.trace!.events;
    expect(events.map((e) => [e.event_id, e.type, e.recorded?.decision, e.recorded?.reason ?? ''])).toEqual(live.results.map((r) => [r.event_id, r.type, r.decision, r.reason]));
    expect(out.trace!.header).toMatchObject({ source: { kind: 'otlp-json' } });
    expect(Object.values(out.report!.skipped).reduce((a: number, b) => a + Number(b), 0)).toBe(frameworkSpans);
    expect(events.map((e) => e.ts)).toEqual(live.lines.slice(1).map((l) => (JSON.parse(l) as { ts: string }).ts)); // the event's own time (the runtime's clock), not the span's

    // Replayed with the same pipeline: no step diverges. With the block removed: the delete_file call diverges.
    const same = compilePipeline(PIPELINE);
    if (!same.ok) throw new Error('refused');
    expect(replayTrace(same.compiled, events).filter((s) => s.divergent)).toEqual([]);
    const loosened: PipelineInput = { ...PIPELINE, nodes: PIPELINE.nodes.filter((n) => n.id !== 'h-block'), wires: PIPELINE.wires.filter((w) => w.to !== 'h-block') };
    const other = compilePipeline(loosened);
    if (!other.ok) throw new Error('refused');
    const divergent = replayTrace(other.compiled, events).filter((s) => s.divergent);
    expect(divergent.map((s) => [s.event.type, s.recorded?.decision, s.decision])).toEqual([['tool.before_call', 'block_action', 'continue']]);
  });

  it('[O3] hookwire replay --json reads the collector file and gives the live decisions', async () => {
    const { live, text } = await recordRun();
    const dir = mkdtempSync(join(tmpdir(), 'hookwire-otlp-'));
    writeFileSync(join(dir, 'pipeline.json'), JSON.stringify(PIPELINE));
    writeFileSync(join(dir, 'spans.jsonl'), text);
    const bin = join(__dirname, '..', '..', '..', 'engine', 'node', 'bin.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'replay', '--json', join(dir, 'pipeline.json'), join(dir, 'spans.jsonl')]);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { event_id: string; decision: string; reason: string; decided_by: string | null });
    expect(lines.map((l) => [l.event_id, l.decision, l.reason, l.decided_by])).toEqual(live.results.map((r) => [r.event_id, r.decision, r.reason, r.decided_by]));
  });
});
