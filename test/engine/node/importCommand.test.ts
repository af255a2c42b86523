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
});
