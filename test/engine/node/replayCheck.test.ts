// `hookwire replay --check` [R16] and the ASK outcomes in its table [AP1]: recordings made by the real runtime,
// replayed by the CLI (in-process, plus the real binary for the exit code).
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime, type Approver, type RuntimeTrace } from '../../../engine/runtime/index.ts';
import { GUARD, hookwire, hookwireInProcess, tempDir } from './runCli.ts';

const guard = JSON.parse(readFileSync(GUARD, 'utf8')) as { nodes: { id: string }[]; wires: { from: string; to: string }[] };

/** The guard pipeline without its rm -rf block: a change that decides one recorded event differently. */
function withoutRmBlock(): string {
  return JSON.stringify({ ...guard, nodes: guard.nodes.filter((n) => n.id !== 'block-rm'), wires: guard.wires.filter((w) => w.to !== 'block-rm') });
}

async function record(doc: unknown, emit: (t: RuntimeTrace, clock: { t: number }) => void | Promise<void>, approver?: Approver): Promise<string> {
  const lines: string[] = [];
  const clock = { t: Date.parse('2026-03-01T10:00:00.000Z') };
  const r = createRuntime(doc, { clock: { now: () => (clock.t += 1000) }, record: () => (line) => void lines.push(line), approvalTimeoutMs: 60_000, ...(approver ? { approver } : {}) });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const trace = r.runtime.startTrace({ trace_id: 'rec' });
  await emit(trace, clock);
  await trace.flush();
  return lines.join('');
}

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });

describe('hookwire replay --check [R16]', { timeout: 120_000 }, () => {
  it('[R16] on by default for a recording: agreeing replays exit 0; a changed pipeline prints each differing event with both outcomes and exits 1; --no-check turns it off', async () => {
    const rec = await record(guard, (t) => {
      t.emit('tool.before_call', bash('ls'));
      t.emit('tool.before_call', bash('rm -rf /tmp/x'));
      t.emit('tool.before_call', bash('echo hi'));
    });
    const dir = tempDir({ 'rec.jsonl': rec, 'loose.json': withoutRmBlock() });
    const same = await hookwireInProcess(['replay', GUARD, join(dir, 'rec.jsonl')]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('Check: all 3 recorded decisions match the replay.');

    const loose = join(dir, 'loose.json');
    const changed = await hookwireInProcess(['replay', loose, join(dir, 'rec.jsonl')]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('Check failed: 1 of 3 recorded decisions differ from the replay:');
    expect(changed.stdout).toContain('  #2 rec:2 (tool.before_call): recorded BLOCK_ACTION (destructive command: rm -rf /tmp/x); replayed CONTINUE');

    // --json keeps stdout the stable lines; the report goes to stderr, and the exit code says it.
    const json = await hookwireInProcess(['replay', '--json', loose, join(dir, 'rec.jsonl')]);
    expect(json.code).toBe(1);
    expect(json.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { decision: string }).decision)).toEqual(['continue', 'continue', 'continue']);
    expect(json.stderr).toContain('#2 rec:2 (tool.before_call): recorded BLOCK_ACTION');

    const off = await hookwireInProcess(['replay', '--no-check', loose, join(dir, 'rec.jsonl')]);
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain('Check');
    // The real binary: the same exit codes.
    const [bin, binOff] = await Promise.all([hookwire(['replay', loose, join(dir, 'rec.jsonl')]), hookwire(['replay', '--no-check', loose, join(dir, 'rec.jsonl')])]);
    expect([bin.code, binOff.code]).toEqual([1, 0]);
  });

  it('[R16] a trace without recorded decisions: no check by default (exit 0); --check cannot pass it (exit 1, saying why)', async () => {
    const dir = tempDir({
      't.jsonl': [
        '{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"test"},"created":"2026-03-01T10:00:00Z"}',
        JSON.stringify({ event_id: 'e1', type: 'tool.before_call', ts: '2026-03-01T10:00:01Z', payload: bash('ls') }),
      ].join('\n'),
    });
    const plain = await hookwireInProcess(['replay', GUARD, join(dir, 't.jsonl')]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('Check');
    const asked = await hookwireInProcess(['replay', '--check', GUARD, join(dir, 't.jsonl')]);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('Check: the trace records no decisions, so there is nothing to compare the replay with');
  });

  it('[R16] a replay that ends the run earlier than the recording did reports every later recorded decision as not reached', async () => {
    const budget = { ...guard };
    const rec = await record(guard, (t) => {
      t.emit('model.after_call', { usage: { output_tokens: 600 } });
      t.emit('model.after_call', { usage: { output_tokens: 300 } });
      t.emit('tool.before_call', bash('ls'));
    });
    // The same pipeline with a tighter budget: the second model call now terminates the run.
    const tight = JSON.stringify({ ...budget, nodes: (budget.nodes as { id: string; action?: { limit?: number } }[]).map((n) => (n.id === 'budget' ? { ...n, action: { ...n.action, limit: 800 } } : n)) });
    const dir = tempDir({ 'rec.jsonl': rec, 'tight.json': tight });
    const r = await hookwireInProcess(['replay', join(dir, 'tight.json'), join(dir, 'rec.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Check failed: 2 of 3 recorded decisions differ from the replay');
    expect(r.stdout).toMatch(/#2 rec:2 \(model\.after_call\): recorded CONTINUE; replayed TERMINATE \(token budget exceeded: 900 > 1000\) by budget|#2 rec:2 \(model\.after_call\): recorded CONTINUE; replayed TERMINATE/);
    expect(r.stdout).toContain('#3 rec:3 (tool.before_call): recorded CONTINUE; replayed NOT REACHED (the replay ended the run at step 2)');
  });
});

describe('ASK outcomes in the replay table [AP1]', { timeout: 60_000 }, () => {
  it('[AP1] approved (by whom, when), denied, unanswered and late are told apart, and the check passes: replay reproduces each recorded answer', async () => {
    const doc = {
      format: 'hookwire.pipeline', version: 1, name: 'asks',
      nodes: [
        { id: 'tools', kind: 'event', pattern: 'tool.before_call' },
        { id: 'ask', kind: 'handler', name: 'Ask', order: 10, action: { type: 'ask', reason: 'run {{payload.tool_input.command}}?' } },
      ],
      wires: [{ from: 'tools', to: 'ask' }],
    };
    const rec = await record(doc, async (t, clock) => {
      t.emit('tool.before_call', bash('make deploy'), { approver: () => ({ answer: 'allow', who: 'alice' }) });
      t.emit('tool.before_call', bash('make release'), { approver: () => ({ answer: 'deny', reason: 'not today', who: 'bob' }) });
      t.emit('tool.before_call', bash('make clean'), { approver: () => ((clock.t += 120_000), 'allow') });
      t.emit('tool.before_call', bash('make test'), { approver: () => { throw new Error('pager down'); } });
    });
    const dir = tempDir({ 'asks.json': JSON.stringify(doc), 'rec.jsonl': rec });
    const r = await hookwireInProcess(['replay', join(dir, 'asks.json'), join(dir, 'rec.jsonl')]);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n');
    const row = (id: string) => rows.find((l) => l.includes(id)) ?? '';
    expect(row('rec:1')).toContain('ask → approved');
    expect(row('rec:1')).toMatch(/approved by alice at 2026-03-01T10:00:\d\d\.000Z/);
    expect(row('rec:2')).toContain('ask → denied');
    expect(row('rec:2')).toContain('denied by bob');
    expect(row('rec:3')).toContain('ask → late');
    expect(row('rec:4')).toContain('ask → denied');
    expect(row('rec:4')).toContain('the approver failed');
    expect(r.stdout).toContain('Check: all 4 recorded decisions match the replay.');
    // A recording whose answer was edited afterwards replays the edited answer (replay never asks); the chain
    // names the edit (hookwire verify [K4]).
    writeFileSync(join(dir, 'edited.jsonl'), rec.replace('"by":"late"', '"by":"timeout"'));
    const edited = await hookwireInProcess(['replay', join(dir, 'asks.json'), join(dir, 'edited.jsonl')]);
    expect(edited.stderr).toContain('the hash chain breaks here');
    expect(edited.stdout.split('\n').find((l) => l.includes('rec:3'))).toContain('ask → unanswered');
  });
});
