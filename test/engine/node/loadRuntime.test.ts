import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { compilePipeline } from '../../../engine/index.ts';
import { createNodeSandbox, decideTrace, formatProblems, jsonLinesTo, loadRuntime, readTraceFile, recordToDirectory } from '../../../engine/node/index.ts';
import type { AuditRecord } from '../../../engine/index.ts';
import { GUARD, tempDir } from './runCli.ts';

// A code handler whose decision depends on the clock, the random source and the trace state: only a replay
// that dispatches each event at its recorded time, with the same state, can agree with the runtime.
const CODE_PIPELINE = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'office-hours',
  nodes: [
    { id: 'tools', kind: 'event', pattern: 'tool.before_call' },
    {
      id: 'hours', kind: 'handler', name: 'Office hours',
      action: {
        type: 'code', language: 'ts',
        source: `export default function (ctx: HandlerContext) {
  const calls = Number(ctx.state.calls ?? 0) + 1;
  const hour = new Date().getHours();
  if (hour >= 18) return { decision: 'block_action', reason: 'after hours (' + hour + ':00), call ' + calls, state_patch: { calls } };
  return { decision: 'continue', state_patch: { calls }, new_payload: { ...ctx.payload, lucky: Math.random() < 0.5 } };
}`,
      },
    },
  ],
  wires: [{ from: 'tools', to: 'hours' }],
};

describe('loadRuntime (Node)', () => {
  it('[P1][P7] a code pipeline gets a QuickJS sandbox; its recording replays to the same decisions and payloads', async () => {
    const dir = tempDir({ 'office.json': JSON.stringify(CODE_PIPELINE) });
    let t = Date.parse('2026-03-02T16:30:00.000Z');
    const audit: AuditRecord[] = [];
    const r = await loadRuntime(join(dir, 'office.json'), { clock: { now: () => t }, record: recordToDirectory(join(dir, 'traces')), sinks: { audit: (a) => void audit.push(a) } });
    if (!r.ok) throw new Error(formatProblems(r.problems));
    const trace = r.runtime.startTrace({ trace_id: 'day/1' });
    const results = [];
    for (let i = 0; i < 6; i++) {
      results.push(trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { i } }));
      t += 45 * 60 * 1000; // 16:30, 17:15, 18:00, …
    }
    await trace.end({ status: 'ok' });
    expect(results.map((x) => x.decision)).toEqual(['continue', 'continue', 'block_action', 'block_action', 'block_action', 'block_action']);
    expect(results[2]!.reason).toBe('after hours (18:00), call 3');
    expect(audit).toHaveLength(6);

    // The id "day/1" is made safe for a file name.
    expect(readdirSync(join(dir, 'traces'))).toEqual(['day_1.hwtrace.jsonl']);
    const read = await readTraceFile(join(dir, 'traces', 'day_1.hwtrace.jsonl'));
    expect(read.status).toBe('ok');
    expect(read.events).toHaveLength(7);
    const sandbox = await createNodeSandbox();
    try {
      const compiled = compilePipeline(CODE_PIPELINE, { sandbox });
      if (!compiled.ok) throw new Error('compile');
      const rows = [...decideTrace(compiled.compiled, read.events)];
      expect(rows.slice(0, 6).map((x) => [x.decision, x.reason, x.payload])).toEqual(results.map((x) => [x.decision, x.reason, x.payload]));
      expect(rows.map((x) => x.decision)).toEqual(read.events.map((e) => e.recorded?.decision));
    } finally {
      sandbox.dispose();
    }
  });

  it('[P1] a bad file is refused with every problem; an unreadable one throws with the path and why', async () => {
    const dir = tempDir({ 'bad.json': '{"format": "hookwire.pipeline", "version": 1, "name": "x", "nodes": [{"id": "a", "kind": "event", "pattern": "tool..x"}, {"id": "a", "kind": "handler"}], "wires": []}' });
    const r = await loadRuntime(join(dir, 'bad.json'));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const text = formatProblems(r.problems);
      expect(text.split('\n').length).toBeGreaterThanOrEqual(2);
      expect(text).toMatch(/^error +nodes\[0\]\.pattern .*\(bad_pattern\)$/m);
    }
    await expect(loadRuntime(join(dir, 'missing.json'))).rejects.toThrow(`cannot read pipeline ${join(dir, 'missing.json')}: no such file`);
  });

  it('[P5] file sinks append JSON lines in order', async () => {
    const dir = tempDir();
    const file = join(dir, 'audit.jsonl');
    const r = await loadRuntime(GUARD, { sinks: { audit: jsonLinesTo(file) } });
    if (!r.ok) throw new Error('load');
    const trace = r.runtime.startTrace();
    for (const command of ['ls', 'rm -rf /', 'pwd']) trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command } });
    await r.runtime.flush();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.decision)).toEqual(['continue', 'block_action', 'continue']);
  });

  it('[R17] a loaded file\'s recording names its version (sha256 of the text, by node:crypto here); createRuntime without one names none', async () => {
    const dir = tempDir();
    const r = await loadRuntime(GUARD, { record: recordToDirectory(join(dir, 'traces')) });
    if (!r.ok) throw new Error('load');
    const trace = r.runtime.startTrace({ trace_id: 'v' });
    trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    await trace.flush();
    const file = join(dir, 'traces', readdirSync(join(dir, 'traces'))[0]!);
    const events = (await readTraceFile(file)).events;
    const expected = `sha256:${createHash('sha256').update(readFileSync(GUARD)).digest('hex').slice(0, 16)}`;
    expect(events.map((e) => e.recorded?.pipeline)).toEqual([expected]);
    const lines: string[] = [];
    const plain = (await import('../../../engine/runtime/index.ts')).createRuntime(JSON.parse(readFileSync(GUARD, 'utf8')), { record: () => (l) => void lines.push(l) });
    if (!plain.ok) throw new Error('load');
    const t2 = plain.runtime.startTrace();
    t2.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    await t2.flush();
    expect(lines.slice(1).map((l) => (JSON.parse(l) as { recorded: { pipeline?: string } }).recorded.pipeline)).toEqual([undefined]);
  });
});
