// [S13] The limit that decides is fuel (interrupt polls and built-in work), not time: the same verdict after
// any history of calls, and under load (real busy processes) the same decisions as idle, in process and in the CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import type { QuickJSSandbox } from '../../../engine/sandbox/quickjsSandbox.ts';
import type { SandboxLimits, SandboxProgram } from '../../../engine/sandbox/types.ts';
import { createRuntime } from '../../../engine/runtime/createRuntime.ts';
import { hookwire, tempDir } from '../node/runCli.ts';

const LOOP = 'export default (ctx) => { let i = 0; while (i < ctx.payload.n) i++; return { decision: "continue", reason: String(i) }; }';
// The net is far away: only the fuel may decide here.
const LIMITS: SandboxLimits = { timeoutMs: 120_000, memoryBytes: 32 * 1024 * 1024, fuel: 40 };
const input = (n: number) => ({ event: { type: 'tool.before_call', event_id: 'e1', trace_id: 't', agent_id: 'a', ts: '2026-01-01T00:00:00Z' }, payload: { n }, state: {}, meta: {}, now: 0 });

let sb: QuickJSSandbox;
let loop: SandboxProgram;
beforeAll(async () => {
  sb = await createNodeSandbox();
  const c = sb.compile(LOOP, { language: 'js', role: 'handler', name: 'loop' });
  if (!c.ok) throw new Error(c.error.message);
  loop = c.program;
});
afterAll(() => sb.dispose());

/** The verdict for `n` iterations: the count it reached, or the error kind. */
function verdict(n: number): string {
  const r = sb.call(loop, input(n), LIMITS);
  return r.ok ? `ok ${(r.value as { reason: string }).reason}` : r.error.kind;
}

describe('[S13] fuel', () => {
  it('[S13] the verdict near the fuel boundary is the same after any history of calls (the poll countdown is drained)', () => {
    // Find the boundary from a fresh verdict, then scan around it, each n after warm-ups of different lengths
    // that leave QuickJS's poll countdown at different points.
    let lo = 1_000;
    let hi = 10_000_000;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (verdict(mid).startsWith('ok')) lo = mid;
      else hi = mid;
    }
    const warmups = [0, 1, 777, 2_345, 4_999, 9_876];
    const seen = new Set<string>();
    for (let n = lo - 12_000; n <= lo + 12_000; n += 1_000) {
      const verdicts = warmups.map((w) => {
        if (w > 0) sb.call(loop, input(w), LIMITS);
        return verdict(n);
      });
      expect(new Set(verdicts), `n=${n}: ${verdicts.join(', ')}`).toHaveLength(1);
      seen.add(verdicts[0]!.startsWith('ok') ? 'ok' : verdicts[0]!);
    }
    expect([...seen].sort()).toEqual(['fuel', 'ok']);
  });

  it('[S13] built-in work counts: a loop of large splits runs out of fuel though QuickJS polls rarely', () => {
    const c = sb.compile('const s = "a,".repeat(1e6);\nexport default () => { let n = 0; for (let i = 0; i < 1000; i++) n += s.split(",").length; return { reason: String(n) }; }', { language: 'js', role: 'handler', name: 'splits', limits: { ...LIMITS, fuel: 100_000 } });
    if (!c.ok) throw new Error(c.error.message);
    expect(sb.call(c.program, input(0), LIMITS)).toMatchObject({ ok: false, error: { kind: 'fuel' } });
  });
});

// A pipeline whose code handlers do real work: a check that takes ~120 units of fuel (tens of ms idle, far more
// under load: the old 50 ms wall-clock limit timed it out on a busy machine) and a loop that never ends.
const PIPELINE = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'fuel',
  nodes: [
    { id: 'before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'work', kind: 'handler', name: 'Work', order: 10, on_error: 'block', action: { type: 'code', language: 'js', source: 'export default (ctx) => { let h = 0; for (let i = 0; i < 600_000; i++) h = (h * 31 + i) | 0; return ctx.payload.input.command.startsWith("rm") ? block("rm: " + h) : { decision: "continue" }; }' } },
    { id: 'spin', kind: 'handler', name: 'Spin', order: 20, fuel: 50, on_error: 'block', action: { type: 'code', language: 'js', source: 'export default (ctx) => { if (ctx.payload.input.command === "spin") for (;;) {} return null; }' } },
  ],
  wires: [
    { from: 'before', to: 'work' },
    { from: 'before', to: 'spin' },
  ],
};
const COMMANDS = ['ls', 'rm -rf /', 'spin', 'echo hi', 'rm x', 'spin', 'cat a'];

/** Decisions of the in-process runtime over the commands. */
async function runtimeDecisions(): Promise<string[]> {
  const rt = createRuntime(PIPELINE, { sandbox: await createNodeSandbox() });
  if (!rt.ok) throw new Error(JSON.stringify(rt.problems));
  const t = rt.runtime.startTrace({ trace_id: 't1' });
  return COMMANDS.map((command) => {
    const r = t.emit('tool.before_call', { tool: 'Bash', input: { command } });
    return `${r.decision} ${r.reason ?? ''}`;
  });
}

function burn(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

describe('[S13] decisions under load', { timeout: 300_000 }, () => {
  it('[S13] with two busy processes burning CPU, the runtime and `hookwire replay` decide as when idle, and as replay', async () => {
    const dir = tempDir({ 'p.json': JSON.stringify(PIPELINE) });
    const trace = join(dir, 't.hwtrace.jsonl');
    const rt = createRuntime(PIPELINE, { sandbox: await createNodeSandbox(), record: () => (l) => writeFileSync(trace, l, { flag: 'a' }) });
    if (!rt.ok) throw new Error(JSON.stringify(rt.problems));
    const t = rt.runtime.startTrace({ trace_id: 't1' });
    const recorded = COMMANDS.map((command) => t.emit('tool.before_call', { tool: 'Bash', input: { command } }));
    await t.end({});
    const idle = await runtimeDecisions();
    expect(idle).toEqual(recorded.map((r) => `${r.decision} ${r.reason ?? ''}`));
    expect(idle.filter((d) => d.startsWith('block_action'))).toHaveLength(4); // two rm, two spins out of fuel
    const cliIdle = await hookwire(['replay', join(dir, 'p.json'), trace, '--json']);
    const busy = [burn(), burn()];
    try {
      const loaded = await runtimeDecisions();
      const cliLoaded = await hookwire(['replay', join(dir, 'p.json'), trace, '--json']);
      expect(loaded).toEqual(idle);
      expect(cliLoaded.stdout).toBe(cliIdle.stdout);
      const rows = cliLoaded.stdout.trim().split('\n').map((l) => JSON.parse(l) as { decision: string; reason: string | null });
      // The recording ends with the trace's agent.end; the tool calls come first.
      expect(rows.slice(0, COMMANDS.length).map((r) => `${r.decision} ${r.reason ?? ''}`)).toEqual(idle);
    } finally {
      for (const b of busy) b.kill();
    }
  });
});
