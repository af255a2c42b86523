import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { demoTrace } from '../../../web/demo/demoTrace.ts';
import { importTraceFile } from '../../../web/persistence/importTraceFile.ts';
import { createTraceImporter, type CreateImportPort, type ImportJob } from '../../../web/persistence/traceImporter.ts';
import { listTraces } from '../../../web/persistence/traceLibrary.ts';
import { traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';

/**
 * The import queue (web/persistence/traceImporter.ts) with a fake worker: the real importTraceFile, run in this
 * process on fake-indexeddb, behind a gate the test opens, so what runs at once is seen. A terminated fake, as a
 * terminated worker, says nothing more.
 */
let db: HookwireDb;
let n = 0;
beforeEach(() => {
  db = new HookwireDb(`importer-test-${n++}`);
});
afterEach(async () => {
  await db.delete();
});

interface Fake {
  made: number;
  live: number;
  /** Files posted to a worker and not yet answered, by name. */
  running: string[];
  /** Lets the oldest running import go on. */
  release(): void;
  /** Makes the worker running `name` crash. */
  crash(name: string): void;
  port: CreateImportPort;
}

function fakeWorkers(): Fake {
  const gates: { go: () => void; ended: () => boolean }[] = [];
  const crashes = new Map<string, (m: string) => void>();
  const fake: Fake = {
    made: 0,
    live: 0,
    running: [],
    // A terminated worker's import never goes on (a real one is stopped where it is).
    release: () => {
      const at = gates.findIndex((g) => !g.ended());
      if (at >= 0) gates.splice(at, 1)[0]!.go();
    },
    crash: (name) => crashes.get(name)?.('the import worker ran out of memory'),
    port: (reply, crash) => {
      fake.made++;
      fake.live++;
      let ended = false;
      return {
        post({ file, id }) {
          fake.running.push(file.name);
          crashes.set(file.name, (m) => !ended && crash(m));
          void (async () => {
            await new Promise<void>((go) => gates.push({ go, ended: () => ended }));
            const result = await importTraceFile(db, file, { id });
            fake.running.splice(fake.running.indexOf(file.name), 1);
            if (!ended) reply({ type: 'done', result });
          })();
        },
        terminate() {
          if (!ended) fake.live--;
          ended = true;
        },
      };
    },
  };
  return fake;
}

const traceFile = (name: string, title: string) => new File([traceToJsonl({ ...demoTrace(), header: { ...demoTrace().header, title } })], name);
const noop = { started: () => undefined, progress: () => undefined };
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('the import queue', () => {
  it('imports many files through two workers, each reused, every file stored, the workers ended once idle', async () => {
    const fake = fakeWorkers();
    const importer = createTraceImporter(db, { workers: 2, createPort: fake.port });
    const started: string[] = [];
    const jobs: ImportJob[] = [];
    for (let i = 0; i < 7; i++) {
      // The listener may name the job: it hears of the start only once start() has returned.
      const job = importer.start(traceFile(`f${i}.jsonl`, `trace ${i}`), { ...noop, started: () => started.push(`${job.fileName}`) });
      jobs.push(job);
    }
    let most = 0;
    while (started.length < 7 || fake.running.length > 0) {
      await settle();
      most = Math.max(most, fake.running.length);
      fake.release();
    }
    const results = await Promise.all(jobs.map((j) => j.result));
    expect(results.map((r) => r?.status)).toEqual(Array(7).fill('ok'));
    expect(started).toEqual(Array.from({ length: 7 }, (_, i) => `f${i}.jsonl`)); // first come, first served
    expect(most).toBe(2);
    expect(fake.made).toBe(2);
    expect(fake.live).toBe(0);
    expect((await listTraces(db)).map((t) => t.name).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `trace ${i}`));
  });

  it('a waiting file cancelled never starts and a running one cancelled leaves nothing stored; the others still import', async () => {
    const fake = fakeWorkers();
    const importer = createTraceImporter(db, { workers: 1, createPort: fake.port });
    const jobs: ImportJob[] = ['a', 'b', 'c'].map((x) => importer.start(traceFile(`${x}.jsonl`, x), noop));
    await settle();
    expect(fake.running).toEqual(['a.jsonl']);
    await jobs[1]!.cancel(); // waiting
    await jobs[0]!.cancel(); // running: its worker ends, the next file gets a fresh one
    expect(await jobs[0]!.result).toBeNull();
    expect(await jobs[1]!.result).toBeNull();
    for (let i = 0; i < 5 && fake.running.length > 0; i++) {
      await settle();
      fake.release();
    }
    expect((await jobs[2]!.result)?.status).toBe('ok');
    expect(fake.made).toBe(2);
    expect(fake.live).toBe(0);
    expect((await listTraces(db)).map((t) => t.name)).toEqual(['c']);
    expect(await db.traceChunks.filter((r) => r.trace_id !== jobs[2]!.id).count()).toBe(0);
  });

  it('a worker that crashes fails its file with the reason; the next file gets a fresh worker', async () => {
    const fake = fakeWorkers();
    const importer = createTraceImporter(db, { workers: 1, createPort: fake.port });
    const a = importer.start(traceFile('a.jsonl', 'a'), noop);
    const b = importer.start(traceFile('b.jsonl', 'b'), noop);
    await settle();
    fake.crash('a.jsonl');
    await expect(a.result).rejects.toThrow('ran out of memory');
    for (let i = 0; i < 5 && (await Promise.race([b.result.then(() => true), settle().then(() => false)])) === false; i++) fake.release();
    expect((await b.result)?.status).toBe('ok');
    expect(fake.made).toBe(2);
    expect(fake.live).toBe(0);
  });
});
