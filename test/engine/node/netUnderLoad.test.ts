// [S7][S13][S14] The wall-clock safety net is far past the fuel, so the fuel decides however busy the machine is.
// A code node with no `timeout_ms` gets a net derived from its fuel (`safetyNetMs`: 100 ms a unit, ten times the
// slowest measured); before, every such node got 5 s whatever its fuel, and a hashing loop that spends the
// default fuel took 6-8 s of wall time on the loaded development machine — the net fired first, and the hook
// answered with the timeout (or let the call through under `on_error: continue`) where an idle machine ran out
// of fuel. Here the real `hookwire claude-hook` and `hookwire serve` run with default limits, idle and then at a
// lower priority beside two real busy processes, and `hookwire replay --check` agrees with serve's recordings.
// (`claude-hook --record` under load, with its kernel-held recording lock: recordingLockLoad.test.ts.)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { codeLimits } from '../../../engine/compile/codeAction.ts';
import { DEFAULT_CODE_FUEL, safetyNetMs } from '../../../engine/sandbox/types.ts';
import { HOOK_INPUTS } from '../runtime/claudeHookInputs.ts';
import { BIN, ROOT, hookwire, tempDir, type CliRun } from './runCli.ts';
import { call, serverPool, workDir } from './serve/serveHelpers.ts';

/** The slowest wall time per unit of fuel measured here (docs/code-limits.md): 7.8 s for the default fuel, run twice. */
const SLOWEST_MS_PER_UNIT = 7.8;

describe('[S7] the safety net derived from the fuel', () => {
  it('[S7][S13] with no timeout_ms, the net is at least ten times the slowest measured time for the fuel (5 s for every fuel before); an explicit timeout_ms wins', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.option(fc.integer({ min: 1, max: 60_000 }), { nil: undefined }), fc.boolean(), (fuel, timeout, onHandler) => {
        const code = onHandler ? {} : { fuel };
        const limits = codeLimits(timeout !== undefined && !onHandler ? { ...code, timeout_ms: timeout } : code, onHandler ? { fuel, ...(timeout !== undefined ? { timeout_ms: timeout } : {}) } : undefined);
        expect(limits.fuel).toBe(fuel);
        if (timeout !== undefined) expect(limits.timeoutMs).toBe(timeout);
        else expect(limits.timeoutMs).toBe(safetyNetMs(fuel));
      }),
    );
    for (const fuel of [1, 50, 500, DEFAULT_CODE_FUEL, 5000, 36_000]) {
      expect(safetyNetMs(fuel), `fuel ${fuel}`).toBeGreaterThanOrEqual(Math.min(3_600_000, 10 * SLOWEST_MS_PER_UNIT * fuel));
    }
    expect(codeLimits({})).toEqual({ timeoutMs: 100_000, memoryBytes: 32 * 1024 * 1024, fuel: DEFAULT_CODE_FUEL });
  });
});

// Default limits everywhere (no fuel, no timeout_ms): a check that hashes for about 70% of its fuel and then blocks
// `rm` (its errors let the call through: the decision depends on it finishing), and a hashing loop that never
// ends for `spin` (it runs out of fuel and fails closed).
const PIPELINE = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'net under load',
  nodes: [
    { id: 'before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'scan', kind: 'handler', name: 'Scan', order: 10, on_error: 'continue', action: { type: 'code', language: 'js', source: 'export default (ctx) => { let h = 0; for (let i = 0; i < 3500000; i++) h = (h * 31 + i) | 0; return String(ctx.payload.tool_input.command).startsWith("rm") ? block("rm (" + (h & 7) + ")") : { decision: "continue", context: "scanned " + (h & 7) }; }' } },
    { id: 'spin', kind: 'handler', name: 'Spin', order: 20, action: { type: 'code', language: 'js', source: 'export default (ctx) => { let h = 0; if (ctx.payload.tool_input.command === "spin") for (;;) h = (h * 31 + 1) | 0; return null; }' } },
  ],
  wires: [
    { from: 'before', to: 'scan' },
    { from: 'before', to: 'spin' },
  ],
};
const COMMANDS = ['rm -rf /', 'spin', 'ls'];

/** One `claude-hook` call at the given priority (0: as the test; higher: nicer to the busy processes). */
function hookAt(priority: number, pipeline: string, command: string, n: number): Promise<CliRun> {
  const input = { ...HOOK_INPUTS.PreToolUse, tool_input: { command }, tool_use_id: `call-${n}` };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'claude-hook', pipeline], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    if (priority !== 0) setPriority(child.pid!, priority);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

/** The commands through a real `hookwire serve` at the given priority: its answers, its recording and what it recorded. */
async function served(dir: string, name: string, priority: number): Promise<{ answers: unknown[]; recorded: unknown[]; file: string }> {
  const state = join(dir, name);
  const s = await serve(join(dir, 'p.json'), state);
  if (priority !== 0) setPriority(s.child.pid!, priority);
  try {
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'load-1' })).status).toBe(201);
    const answers: unknown[] = [];
    for (const command of COMMANDS) {
      const r = await call(s, 'POST', '/v1/traces/load-1/events', { type: 'tool.before_call', payload: { tool_name: 'Bash', tool_input: { command } } });
      expect(r.status, r.body).toBe(200);
      const { decision, reason, decided_by, blocked } = r.json();
      answers.push({ decision, reason, decided_by, blocked });
    }
    const sessions = join(state, 'sessions');
    const file = join(sessions, readdirSync(sessions).find((n) => n.endsWith('.hwtrace.jsonl'))!);
    const recorded = readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => (JSON.parse(l) as { recorded: unknown }).recorded);
    return { answers, recorded, file };
  } finally {
    await s.stop();
  }
}

const { serve } = serverPool();
const burners: ChildProcess[] = [];
afterEach(() => {
  for (const b of burners.splice(0)) b.kill('SIGKILL');
});

async function startBurners(): Promise<void> {
  for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  await Promise.all(burners.map((b) => new Promise((r) => b.once('spawn', r))));
}

describe('[S13] the CLI under two busy processes', { timeout: 600_000 }, () => {
  it('[S13] claude-hook with default limits answers the same idle and under load (at a lower priority beside two busy processes)', async () => {
    const dir = tempDir({ 'p.json': JSON.stringify(PIPELINE) });
    // Each call is a process of its own (Node's start is most of a light call): the two that use most fuel.
    const run = async (priority: number) => {
      const out: CliRun[] = [];
      for (const [n, command] of COMMANDS.slice(0, 2).entries()) out.push(await hookAt(priority, join(dir, 'p.json'), command, n));
      return out;
    };
    const idle = await run(0);
    // What the fuel decides: Scan blocks rm; spin is scanned, then runs out of fuel and fails closed.
    expect(idle.map((a) => a.code), JSON.stringify(idle)).toEqual([0, 0]);
    expect(idle[0]!.stdout).toMatch(/"permissionDecision":"deny","permissionDecisionReason":"rm \(\d\)"/);
    expect(idle[1]!.stdout).toMatch(/Handler \\"Spin\\" failed \(fuel\): the code ran out of fuel \(1000 units.*"additionalContext":"scanned \d"/);
    await startBurners();
    // Niceness 5: the hook gets about a quarter of a core beside a busy process, less when the machine is shared.
    const loaded = await run(5);
    expect(loaded).toEqual(idle);
  });

  it('[S13][S14] hookwire serve with default limits decides and records the same idle and under load, records no wall-clock stop, and replay --check agrees with both recordings', async () => {
    const dir = workDir({ 'p.json': JSON.stringify(PIPELINE) });
    const idle = await served(dir, 'idle', 0);
    expect(idle.answers).toEqual([
      { decision: 'block_action', reason: expect.stringMatching(/^rm \(\d\)$/), decided_by: 'scan', blocked: true },
      { decision: 'block_action', reason: expect.stringMatching(/^Handler "Spin" failed \(fuel\)/), decided_by: 'spin', blocked: true },
      { decision: 'continue', reason: '', decided_by: null, blocked: false },
    ]);
    expect(JSON.stringify(idle.recorded)).not.toContain('wall_clock');
    await startBurners();
    const loaded = await served(dir, 'loaded', 5);
    for (const b of burners.splice(0)) b.kill('SIGKILL');
    expect(loaded.answers).toEqual(idle.answers);
    expect(loaded.recorded).toEqual(idle.recorded);
    for (const file of [idle.file, loaded.file]) {
      const check = await hookwire(['replay', '--check', join(dir, 'p.json'), file]);
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toContain('Check: all 3 recorded decisions match the replay');
    }
  });
});
