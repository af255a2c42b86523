// Tests engine/node/readTraceFile.ts (Node-only reading on top of the pure reader); kept beside the
// trace tests it shares fixtures with.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importTraceFile, readTraceFile } from '../../../engine/node/readTraceFile.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';
import type { Trace } from '../../../engine/trace/traceTypes.ts';
import { FIXTURE, FIXTURES_DIR, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'hookwire-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const trace: Trace = {
  header: { format: 'hookwire.trace', version: 1, trace_id: 't', agent_id: 'a', source: { kind: 'test' }, created: '2026-01-01T00:00:00.000Z' },
  events: Array.from({ length: 50 }, (_, i) => ({
    event_id: `e${i}`,
    trace_id: 't',
    agent_id: 'a',
    type: 'input.received',
    ts: '2026-01-01T00:00:00.000Z',
    payload: { prompt: `héllo ${'日本語🙂'.repeat(i % 5)} ${i}` },
  })),
};

describe('readTraceFile (Node)', () => {
  it('[T3] streams a file in small chunks that split multi-byte characters, same result as one string', async () => {
    const text = traceToJsonl(trace);
    const path = join(dir, 'utf8.hwtrace.jsonl');
    writeFileSync(path, text);
    const r = await readTraceFile(path, { chunkBytes: 7 });
    expect(r).toEqual(readTrace(text));
    expect(r.status).toBe('ok');
    expect(r.events[4]?.payload.prompt).toBe(`héllo ${'日本語🙂'.repeat(4)} 4`);
  });

  it('[T5] a missing file is a fatal, readable problem', async () => {
    const r = await readTraceFile(join(dir, 'nope.jsonl'));
    expect(r.status).toBe('failed');
    expect(r.problems[0]).toMatchObject({ code: 'unreadable', message: expect.stringMatching(/cannot read .*nope\.jsonl: ENOENT/) });
  });

  it('[T5] binary bytes are refused', async () => {
    const path = join(dir, 'x.bin');
    writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0xfe]));
    expect((await readTraceFile(path)).problems[0]?.code).toBe('binary');
    expect((await importTraceFile(path)).problems[0]?.code).toBe('binary');
  });

  it('[I1] importTraceFile streams trace v1 and refuses a foreign file past the size limit', async () => {
    const path = join(dir, 'run.hwtrace.jsonl');
    writeFileSync(path, traceToJsonl(trace));
    const r = await importTraceFile(path);
    expect(r.format).toBe('hookwire-trace');
    expect(r.report).toMatchObject({ events: 50, event_counts: { 'input.received': 50 } });
    const big = join(dir, 'big.json');
    // A document read whole (mini-swe-agent; an OpenHands array streams element by element, each within the cap).
    writeFileSync(big, `{"info": {"mini_version": "1.9.0"}, "messages": [${'{"role": "user", "content": "hello"},'.repeat(100)}{}], "trajectory_format": "mini-swe-agent-1"}`);
    const refused = await importTraceFile(big, { maxDocumentChars: 1000 });
    expect(refused.problems[0]).toMatchObject({ code: 'too_large', fatal: true });
  });

  it.skipIf(!HAVE_FIXTURES)('[I1] importTraceFile on a fixture equals importTrace on its text', async () => {
    const fromFile = await importTraceFile(join(FIXTURES_DIR, FIXTURE.swe));
    expect(fromFile).toEqual(importTrace(readFixture(FIXTURE.swe), { fileName: 'pydicom__pydicom-1458.gpt4.traj', format: 'swe-agent' }));
  });
});
