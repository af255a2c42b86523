/**
 * Sandbox benchmark (`npx tsx test/bench/sandbox.bench.ts`): calls per second of a small code handler in
 * Node with one reused runtime, beside the same handler written as a plain TypeScript closure (what a
 * built-in handler costs), run side by side in one process. Prints ratios, asserts nothing.
 */
import { createNodeSandbox } from '../../engine/node/loadQuickJS.ts';
import { readHandlerResult, sandboxInput } from '../../engine/sandbox/codeResult.ts';
import type { HookEvent } from '../../engine/model/event.ts';
import type { HandlerOutcome } from '../../engine/sandbox/types.ts';
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

interface Rate {
  /** Calls per second of wall-clock time. */
  wall: number;
  /** Calls per second of this process's CPU time: steadier than wall-clock on a shared, busy machine. */
  cpu: number;
}

function measure(label: string, run: (i: number) => unknown, ms = 1500): Rate {
  for (let i = 0; i < 2000; i++) run(i); // warm up (wasm tiers up, V8 optimizes)
  let calls = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < ms) {
    for (let i = 0; i < 500; i++) run(calls++);
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const rate = { wall: calls / wallSeconds, cpu: calls / ((cpu.user + cpu.system) / 1e6) };
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
  console.log(`${label.padEnd(40)} ${fmt(rate.wall)} calls/s  ${(1e6 / rate.wall).toFixed(2).padStart(8)} µs/call   (${fmt(rate.cpu)} per CPU-second)`);
  return rate;
}

export async function runSandboxBench(): Promise<void> {
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

  console.log(`\noverhead per call: ${(1e6 / code.wall - 1e6 / plain.wall).toFixed(2)} µs wall, ${(1e6 / code.cpu - 1e6 / plain.cpu).toFixed(2)} µs CPU`);
  console.log(`ratio: the built-in handler is ${(plain.wall / code.wall).toFixed(0)}x faster (wall), ${(plain.cpu / code.cpu).toFixed(0)}x (CPU)`);
  console.log(`code handler: ${Math.round(code.wall).toLocaleString('en-US')} calls/s wall, ${Math.round(code.cpu).toLocaleString('en-US')} per CPU-second (goal ≥ 30,000 calls/s)`);
  console.log(`sandbox: ${JSON.stringify(sandbox.stats())}`);
  sandbox.dispose();
}

if (import.meta.url === `file://${process.argv[1]}`) await runSandboxBench();
