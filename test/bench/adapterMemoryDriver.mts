// The child of test/bench/adapterMemory.bench.ts: drives the AI SDK adapter of the checkout at argv[2] and prints
// one JSON line per tenth of the calls (heap in use after GC, RSS). Run with --expose-gc.
const [root, mode, callsText, sessionsText] = process.argv.slice(2);
const calls = Number(callsText), sessions = Number(sessionsText);
const { createRuntime } = await import(root + '/engine/index.ts');
const { hookwireAiSdk } = await import(root + '/engine/adapters/aiSdk/index.ts');
const { tool } = await import('ai');
const { z } = await import('zod');
const pipeline = { format: 'hookwire.pipeline', version: 1, name: 'mem', nodes: [
  { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
  { id: 'm', kind: 'matcher', when: { 'payload.tool_name': { eq: 'delete_file' } } },
  { id: 'h', kind: 'handler', name: 'no deletes', order: 10, action: { type: 'block', reason: 'no deletes' } },
], wires: [{ from: 'ev', to: 'm' }, { from: 'm', to: 'h' }] };
let t = Date.parse('2026-12-01T00:00:00Z');
const r = createRuntime(pipeline, { clock: { now: () => (t += 1) } });
if (!r.ok) throw new Error(JSON.stringify(r.problems));
const sample = (done: number) => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  console.log(JSON.stringify({ done, heap: m.heapUsed, rss: m.rss }));
};
const perTrace = mode === 'long' ? calls : Math.ceil(calls / sessions);
let done = 0, traceNo = 0;
const tenth = Math.floor(calls / 10);
while (done < calls) {
  const trace = r.runtime.startTrace({ trace_id: 'trace-' + traceNo++ });
  const hw = hookwireAiSdk(trace);
  const tools = hw.tools({ read_file: tool({ description: 'read', inputSchema: z.object({ path: z.string() }), execute: async () => 'ok' }) });
  for (let k = 0; k < perTrace && done < calls; k++) {
    await tools.read_file.execute({ path: '/w/' + k }, { toolCallId: 'call_' + traceNo + '_' + k, messages: [] });
    if (++done % tenth === 0) sample(done);
  }
  await trace.end({});
}
