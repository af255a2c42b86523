/**
 * Sandbox benchmark (`npx tsx test/bench/sandbox.bench.ts`): calls per second of a small code handler in
 * Node with one reused runtime, beside the same handler written as a plain TypeScript closure (what a
 * built-in handler costs), run side by side in one process. Prints ratios, asserts nothing.
 */
import { createNodeSandbox } from '../../engine/node/loadQuickJS.ts';
import { readHandlerResult, sandboxInput } from '../../engine/sandbox/codeResult.ts';
import type { HookEvent } from '../../engine/model/event.ts';
import type { HandlerOutcome } from '../../engine/dispatch/types.ts';
import type { JsonObject } from '../../engine/model/json.ts';

const SOURCE = `export default function (ctx: HandlerContext): HandlerResult | void {
  const command = String(ctx.payload.tool_input?.command ?? '');
  if (ctx.payload.tool_name === 'run_shell' && command.includes('rm -rf')) return block('rm -rf is not allowed: ' + command);
  return { state_patch: { shell_calls: (ctx.state.shell_calls ?? 0) + 1 } };
}`;

/** The same rule as a built-in handler would run it: a closure over the same context. */
function builtin(ctx: { payload: JsonObject; state: JsonObject }): HandlerOutcome {
  const input = ctx.payload.tool_input as JsonObject | undefined;
  const command = String(input?.command ?? '');
  if (ctx.payload.tool_name === 'run_shell' && command.includes('rm -rf')) return { decision: 'block_action', reason: `rm -rf is not allowed: ${command}` };
  return { decision: 'continue', state_patch: { shell_calls: ((ctx.state.shell_calls as number | undefined) ?? 0) + 1 } };
}

// Distinct events, so nothing is served from a cache: every call serializes and parses its own input.
const contexts = Array.from({ length: 1000 }, (_, i) => {
  const event: HookEvent = {
    event_id: `evt-${i}`, trace_id: 'trace-1', agent_id: 'agent-1', type: 'tool.before_call', ts: new Date(1_700_000_000_000 + i).toISOString(),
    payload: { tool_name: i % 3 ? 'run_shell' : 'read_file', tool_input: { command: i % 5 ? `ls -la /tmp/${i}` : `rm -rf /tmp/${i}` } },
  };
  return { event, payload: event.payload, state: { shell_calls: i }, now: 1_700_000_000_000 + i };
});

function measure(label: string, run: (i: number) => unknown, ms = 1500): number {
  for (let i = 0; i < 2000; i++) run(i); // warm up (wasm tiers up, V8 optimizes)
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    for (let i = 0; i < 500; i++) run(calls++);
  }
  const perSecond = calls / ((performance.now() - started) / 1000);
  console.log(`${label.padEnd(44)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} calls/s  ${(1e6 / perSecond).toFixed(2).padStart(8)} µs/call`);
  return perSecond;
}

// The limits are not what is measured; a generous wall-clock limit keeps a busy machine from failing a call.
const LIMITS = { timeoutMs: 5000, memoryBytes: 32 * 1024 * 1024 };
const sandbox = await createNodeSandbox();
const compiled = sandbox.compile(SOURCE, { language: 'ts', role: 'handler', name: 'bench' });
if (!compiled.ok) throw new Error(`the benchmark handler does not compile: ${compiled.error.message}`);
const program = compiled.program;

// Both sides do the whole job dispatch does for a code node: build the input, run, validate the result.
const code = measure('code handler (QuickJS, reused runtime)', (i) => {
  const called = sandbox.call(program, sandboxInput(contexts[i % 1000]!), LIMITS);
  if (!called.ok) throw new Error(called.error.message);
  return readHandlerResult(called.value);
});
const plain = measure('built-in handler (TS closure)', (i) => builtin(contexts[i % 1000]!));

// Agreement check, so the two sides are the same rule.
for (const ctx of contexts.slice(0, 50)) {
  const called = sandbox.call(program, sandboxInput(ctx), LIMITS);
  const read = called.ok ? readHandlerResult(called.value) : null;
  if (!read?.ok || JSON.stringify(read.outcome) !== JSON.stringify(builtin(ctx))) throw new Error('the code and built-in handlers disagree');
}

console.log(`\noverhead per call: ${((1e6 / code) - (1e6 / plain)).toFixed(2)} µs; the built-in handler is ${(plain / code).toFixed(0)}x faster`);
console.log(`code handler: ${Math.round(code).toLocaleString('en-US')} calls/s (goal ≥ 30,000): ${code >= 30_000 ? 'met' : 'NOT met'}`);
console.log(`sandbox: ${JSON.stringify(sandbox.stats())}`);
sandbox.dispose();
