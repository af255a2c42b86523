// Bad input on the CLI's way in [P9][T3]: binary files refused at the first verdict, huge traces printed
// without spreading into the call stack, partial reads ending with exit 1 as the README's table says.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTraceFile, readTraceFile } from '../../../engine/node/readTraceFile.ts';
import { GUARD, hookwire, hookwireInProcess, tempDir } from './runCli.ts';

const HEADER = '{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"test"},"created":"2026-03-01T10:00:00.000Z"}\n';
const line = (i: number) => `{"event_id":"e${i}","type":"tool.before_call","ts":"2026-03-01T10:00:00.000Z","payload":{"tool_name":"Bash","tool_input":{"command":"ls ${i}"}}}\n`;

describe('binary input stops at the first verdict [T3]', () => {
  it('[T3] readTraceFile and importTraceFile refuse /dev/zero (an endless NUL stream) at once', async () => {
    const r = await readTraceFile('/dev/zero');
    expect(r.status).toBe('failed');
    expect(r.problems[0]?.code).toBe('binary');
    const i = await importTraceFile('/dev/zero');
    expect(i.trace).toBeNull();
    expect(i.problems[0]?.code).toBe('binary');
  });

  it('[P9] replay p.json /dev/zero refuses with exit 2 and says binary', async () => {
    const r = await hookwireInProcess(['replay', GUARD, '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/binary/);
  });
});

describe('exit codes of a partial read [P9]', () => {
  it('[P9] replay exits 1 when every event line was dropped', async () => {
    const dir = tempDir({ 't.jsonl': `${HEADER}not json\n{"also": "not an event"}\n` });
    const r = await hookwireInProcess(['replay', GUARD, join(dir, 't.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 2: not valid JSON/);
  });

  it('[P9] replay and replay --json exit 1 when the last line was truncated, after printing the good events', async () => {
    const dir = tempDir({ 't.jsonl': `${HEADER}${line(1)}${line(2).slice(0, 40)}` });
    const table = await hookwireInProcess(['replay', GUARD, join(dir, 't.jsonl')]);
    expect(table.code).toBe(1);
    expect(table.stderr).toMatch(/ends in the middle of this line/);
    const json = await hookwireInProcess(['replay', '--json', GUARD, join(dir, 't.jsonl')]);
    expect(json.code).toBe(1);
    expect(json.stdout.trim().split('\n').map((l) => JSON.parse(l).event_id)).toEqual(['e1']);
  });

  it('[P9] a clean trace still exits 0', async () => {
    const dir = tempDir({ 't.jsonl': `${HEADER}${line(1)}` });
    expect((await hookwireInProcess(['replay', GUARD, join(dir, 't.jsonl')])).code).toBe(0);
  });
});

describe('huge traces in table output [P10]', () => {
  it('[P10] replay and diff print a table for a 160k-event trace', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, HEADER + Array.from({ length: 160_000 }, (_, i) => line(i)).join(''));
    // A real process: vitest's workers run with a larger stack than `node`, where the spread overflowed.
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'all', nodes: [{ id: 'e', kind: 'event', pattern: '*' }, { id: 'h', kind: 'handler', name: 'h', action: { type: 'block', reason: 'no' } }], wires: [{ from: 'e', to: 'h' }] }));
    const [r, d] = await Promise.all([hookwire(['replay', GUARD, path]), hookwire(['diff', GUARD, other, path])]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n160000 events: 160000 continue\n/);
    expect(d).toMatchObject({ code: 1, stderr: '' });
    expect(d.stdout).toContain('160000 of 160000 events differ');
  });
});
