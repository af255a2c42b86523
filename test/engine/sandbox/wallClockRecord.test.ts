// [S14] When the wall-clock safety net stops code, the recording says so, and replay reproduces the recorded
// outcome (and says so) instead of timing the code again on another machine.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { createRuntime } from '../../../engine/runtime/createRuntime.ts';
import { compilePipeline } from '../../../engine/compile/compilePipeline.ts';
import { replaySteps } from '../../../engine/replay/replaySteps.ts';
import { readTrace } from '../../../engine/trace/index.ts';
import { hookwireInProcess, tempDir } from '../node/runCli.ts';

// A handler and a code matcher that loop far past a 100 ms net with fuel to spare (the fuel is set very high, the
// case where the net is what stops code), for the "slow" commands only: about 1 s of CPU here, so a quiet machine
// stops them ten times over, while the quick calls keep 100 ms of wall clock (a 1 ms net stopped them too, on a
// loaded CI machine).
const SPIN = 'let i = 0; while (i < 5e7) i++;';
function pipeline(timeoutMs: number) {
  return {
    format: 'hookwire.pipeline', version: 1, name: 'net',
    nodes: [
      { id: 'before', kind: 'event', pattern: 'tool.before_call' },
      { id: 'slow-check', kind: 'handler', name: 'Slow check', order: 10, on_error: 'block', timeout_ms: timeoutMs, fuel: 10_000_000, action: { type: 'code', language: 'js', source: `export default (ctx) => { if (ctx.payload.command === "slow") { ${SPIN} } return { decision: "continue" }; }` } },
      { id: 'slow-match', kind: 'matcher', label: 'slow matcher', code: { language: 'js', timeout_ms: timeoutMs, fuel: 10_000_000, source: `export default (ctx) => { if (ctx.payload.command === "slow-m") { ${SPIN} } return ctx.payload.command.startsWith("slow"); }` } },
      { id: 'after-match', kind: 'handler', name: 'Behind the matcher', order: 20, on_error: 'terminate', action: { type: 'ask', reason: 'slow?' } },
    ],
    wires: [{ from: 'before', to: 'slow-check' }, { from: 'before', to: 'slow-match' }, { from: 'slow-match', to: 'after-match' }],
  };
}
const COMMANDS = ['ls', 'slow', 'slow-m', 'ls'];

describe('[S14] the wall-clock safety net in the recording', { timeout: 300_000 }, () => {
  it('[S14] the recording names the stopped handler and matcher; replay (engine and CLI) reproduces the recorded outcome with a note, even where the code would now finish', async () => {
    const lines: string[] = [];
    const rt = createRuntime(pipeline(100), { sandbox: await createNodeSandbox(), record: () => (l) => void lines.push(l) });
    if (!rt.ok) throw new Error(JSON.stringify(rt.problems));
    const t = rt.runtime.startTrace({ trace_id: 'net' });
    const live = COMMANDS.map((command) => t.emit('tool.before_call', { command }));
    await t.flush();
    expect(live.map((r) => r.decision)).toEqual(['continue', 'block_action', 'terminate', 'terminate']);
    expect(live[1]!.errors[0]).toMatchObject({ kind: 'timeout', handler_id: 'slow-check' });
    expect(live[2]!.errors[0]).toMatchObject({ kind: 'timeout', handler_id: 'after-match', matcher_id: 'slow-match' });
    const read = readTrace(lines.join(''));
    expect(read.events.map((e) => e.recorded?.wall_clock)).toEqual([undefined, ['slow-check'], ['slow-match'], undefined]);

    // Replayed with a net of 60 s (a faster machine, or a quiet one): the code would finish and continue, but
    // the recorded stop is reproduced.
    const patient = compilePipeline(pipeline(60_000), { sandbox: await createNodeSandbox() });
    if (!patient.ok) throw new Error(JSON.stringify(patient.problems));
    const steps = [...replaySteps(patient.compiled, read.events)];
    expect(steps.map((s) => s.outcome)).toEqual(['continue', 'block_action', 'terminate', 'not_reached']);
    expect(steps.map((s) => s.divergent)).toEqual([false, false, false, false]);
    expect(steps[1]!.notes.map((n) => n.kind)).toEqual(['wall_clock']);
    expect(steps[1]!.notes[0]!.text).toContain('When recorded, the wall-clock safety net stopped “Slow check”: replay reproduces that outcome');
    expect(steps[1]!.errors[0]!.message).toContain('stopped this code when the trace was recorded');
    expect(steps[2]!.notes[0]!.text).toContain('“slow-match”');
    // Without the note, the same events are decided again by running the code: it finishes and continues.
    const unnoted = read.events.map((e) => (e.recorded ? { ...e, recorded: { ...e.recorded, wall_clock: undefined } } : e));
    expect([...replaySteps(patient.compiled, unnoted)].map((s) => s.decision)).toEqual(['continue', 'ask', 'ask', 'continue']);

    // The CLI: the check passes, and the table says why.
    const dir = tempDir({ 'patient.json': JSON.stringify(pipeline(60_000)), 'rec.jsonl': lines.join('') });
    const cli = await hookwireInProcess(['replay', join(dir, 'patient.json'), join(dir, 'rec.jsonl')]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('Check: all 4 recorded decisions match the replay.');
    expect(cli.stdout.split('\n').find((l) => l.includes('net:2'))).toContain('wall-clock net as recorded');
  });
});
