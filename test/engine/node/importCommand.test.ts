import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCommand, relineEvent } from '../../../engine/node/commands/importCommand.ts';
import type { Io } from '../../../engine/node/cliIo.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { traceEventLine, traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { FORMAT_DIR, readFormat } from '../../shared/formatFixtures.ts';
import { writeWorkload } from '../../bench/formatWorkloads.ts';
import { importSweAgentWhole } from '../trace/sweAgentWhole.ts';
import { hookwire } from './runCli.ts';

// #29 (memory bounded for a 200 MB file): `hookwire import` spools the event lines to a temporary file and keeps
// the event ids in a spilled index [I3], then writes the header and the spooled lines. What it writes must be,
// byte for byte, the engine's in-memory import of the same bytes serialised (traceToJsonl), to stdout and to
// `-o` alike, also when source ids repeat (the #2, #3 ids come from the spilled index). Lines are spooled against
// the first event's ids; a header with others has them written again (relineEvent).
const dir = mkdtempSync(join(tmpdir(), 'hookwire-import-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): Io & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

async function both(file: string, name: string) {
  const toStdout = capture();
  const code = await importCommand(file, {}, toStdout);
  const out = join(dir, `${name}.out.jsonl`);
  const toFile = capture();
  const fileCode = await importCommand(file, { output: out }, toFile);
  return { code, fileCode, stdout: toStdout.stdout, written: readFileSync(out, 'utf8'), stderr: toStdout.stderr };
}

function expected(text: string, name: string): string {
  const r = importTrace(text, { fileName: name });
  return traceToJsonl(r.trace!);
}

describe('hookwire import writes what the in-memory import makes (spooled, spilled ids)', () => {
  it('every format fixture: stdout and -o equal traceToJsonl of importTrace', async () => {
    const names = readdirSync(FORMAT_DIR).filter((n) => !n.startsWith('.'));
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) {
      const r = await both(join(FORMAT_DIR, name), name);
      const want = expected(readFormat(name), name);
      expect(r.stdout, name).toBe(want);
      expect(r.written, name).toBe(want);
      expect(r.fileCode, name).toBe(r.code);
    }
  });

  it('[I3] repeated source ids: the #2, #3 ids come from the spilled index', async () => {
    const lines = readFormat('codex-rollout.jsonl').trimEnd().split('\n');
    // Every function call and its output three times.
    const text = `${lines.flatMap((l) => (/"function_call(_output)?"/.test(l) ? [l, l, l] : [l])).join('\n')}\n`;
    const file = join(dir, 'rollout-repeats.jsonl');
    writeFileSync(file, text);
    const want = expected(text, 'rollout-repeats.jsonl');
    expect(want).toMatch(/"event_id":"[^"]+#3"/);
    const r = await both(file, 'repeats');
    expect(r.stdout).toBe(want);
    expect(r.written).toBe(want);
  });

  it('[T4] a line written against the first event\'s ids, written again against a header with others, is the line written against that header', () => {
    const events: TraceEvent[] = [
      { event_id: 'a', trace_id: 't1', agent_id: 'main', type: 'agent.start', ts: '2026-03-02T10:00:00.000Z', payload: {} },
      { event_id: 'b', trace_id: 't1', agent_id: 'sub', type: 'input.received', ts: '2026-03-02T10:00:01.000Z', payload: { prompt: 'x' } },
      { event_id: 'c', trace_id: 't0', agent_id: 'main', type: 'model.before_call', ts: '2026-03-02T10:00:02.000Z', payload: { model: 'm' } },
    ];
    const first = { trace_id: 't1', agent_id: 'main' };
    for (const header of [{ trace_id: 't2', agent_id: 'main' }, { trace_id: 't1', agent_id: 'other' }, { trace_id: 't0', agent_id: 'sub' }, first]) {
      for (const e of events) expect(relineEvent(traceEventLine(e, first), first, header)).toBe(traceEventLine(e, header));
    }
  });

  it('[I1][I6] a SWE-agent trajectory of both formats, its steps and messages kept in the spill file: the whole import as it was', async () => {
    for (const format of ['swe-agent', 'swe-agent-fc'] as const) {
      const parts: string[] = [];
      writeWorkload(format, 1500, (t) => parts.push(t));
      const text = parts.join('');
      const file = join(dir, `${format}.traj`);
      writeFileSync(file, text);
      const r = importSweAgentWhole(JSON.parse(text), { fileName: `${format}.traj`, fallbackTraceId: `swe-agent-${format}` });
      if (!r.ok) throw new Error(r.problem.message);
      const got = await both(file, format);
      expect(got.stdout, format).toBe(traceToJsonl(r.trace));
      expect(got.written, format).toBe(traceToJsonl(r.trace));
      expect(got.code, format).toBe(0);
    }
  });

  it('[I1][P9] a SWE-agent trajectory cut inside its history, through the real binary: the events of what was read, the cut named, exit 1', async () => {
    const parts: string[] = [];
    writeWorkload('swe-agent', 40, (t) => parts.push(t));
    const text = parts.join('');
    const cut = text.indexOf('"Step 30: search.', text.indexOf('"history"'));
    const file = join(dir, 'cut.traj');
    writeFileSync(file, text.slice(0, cut + 5));
    const r = await hookwire(['import', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cut\.traj: error: line \d+: the file ends inside an element of "history" \(a truncated file\?\)/);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { event_id?: string; type?: string });
    expect(lines.filter((l) => l.type === 'tool.after_call')).toHaveLength(40);
    expect(lines.at(-1)).toMatchObject({ type: 'agent.end' });
  });

  it('[I1][P9] a streamed document with a key written twice, through the real binary: the first read, the later listed, exit 1', async () => {
    const pretty = JSON.stringify(JSON.parse(readFormat('opencode-export.json')), null, 2);
    const file = join(dir, 'twice.json');
    writeFileSync(file, `${pretty.slice(0, pretty.lastIndexOf('}'))},\n  "messages": []\n}\n`);
    const r = await hookwire(['import', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/twice\.json: error: line \d+: the key "messages" appears again in the object; this later value was skipped/);
    const want = expected(readFormat('opencode-export.json'), 'twice.json');
    expect(r.stdout).toBe(want);
  });
});
