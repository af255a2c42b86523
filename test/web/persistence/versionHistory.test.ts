import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { createPipeline, purgeDeleted, deletePipeline, readPipeline, savePipeline } from '../../../web/persistence/library.ts';
import { COALESCE_MS, KEEP, lastExported, listVersions, markExported, nameVersion } from '../../../web/persistence/versionHistory.ts';
import { STORED_FORMAT, STORED_VERSION } from '../../../web/persistence/storedPipeline.ts';
import { summarizeVersionChange } from '../../../web/model/versionSummary.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import type { Pipeline } from '../../../engine/model/pipelineTypes.ts';

let n = 0;
const open: Dexie[] = [];
function freshDb(): HookwireDb {
  const db = new HookwireDb(`history-${n++}-${Math.random()}`);
  open.push(db);
  return db;
}
afterEach(async () => {
  for (const db of open.splice(0)) await db.delete();
});

/** Dexie's Date.now is the one the library reads: step it by hand so coalescing is deterministic. */
let clock = 1_700_000_000_000;
const realNow = Date.now;
function at<T>(t: number, f: () => Promise<T>): Promise<T> {
  Date.now = () => t;
  return f().finally(() => {
    Date.now = realNow;
  });
}

const renamed = (name: string): Pipeline => ({ ...demoPipeline(), name });

describe('automatic version history', () => {
  it('records the first version on create, then one per save; equal documents record nothing', async () => {
    const db = freshDb();
    clock += 1e6;
    const id = await at(clock, () => createPipeline(db, demoPipeline()));
    expect((await listVersions(db, id)).map((v) => v.summary)).toEqual(['First version']);
    await at(clock + 1000, () => savePipeline(db, id, renamed('A'), 1));
    // Saving the same document again (a no-op save) adds nothing.
    await at(clock + 2000, () => savePipeline(db, id, renamed('A'), 2));
    const list = await listVersions(db, id);
    expect(list.map((v) => v.summary)).toEqual(['renamed to “A”', 'First version']);
    expect(list[0]!.revision).toBe(3);
  });

  it(`folds saves within ${COALESCE_MS / 1000} s into one version (never into the first), and starts a new one after`, async () => {
    const db = freshDb();
    clock += 1e6;
    const id = await at(clock, () => createPipeline(db, demoPipeline()));
    await at(clock + 1_000, () => savePipeline(db, id, renamed('A'), 1));
    await at(clock + 20_000, () => savePipeline(db, id, renamed('AB'), 2));
    await at(clock + 50_000, () => savePipeline(db, id, renamed('ABC'), 3));
    let list = await listVersions(db, id);
    expect(list.map((v) => v.name)).toEqual(['ABC', demoPipeline().name]);
    expect(list[0]!.summary).toBe('renamed to “ABC”');
    await at(clock + 1_000 + COALESCE_MS, () => savePipeline(db, id, renamed('ABCD'), 4));
    list = await listVersions(db, id);
    expect(list.map((v) => v.name)).toEqual(['ABCD', 'ABC', demoPipeline().name]);
    expect(list[0]!.summary).toBe('renamed to “ABCD”');
  });

  it(`keeps the newest ${KEEP} unnamed versions and every named one; a named version is never folded into`, async () => {
    const db = freshDb();
    clock += 1e7;
    const id = await at(clock, () => createPipeline(db, demoPipeline()));
    const first = (await listVersions(db, id))[0]!;
    await nameVersion(db, first.seq!, 'as seeded');
    let rev = 1;
    for (let i = 0; i < KEEP + 5; i++) {
      const r = await at(clock + (i + 1) * COALESCE_MS, () => savePipeline(db, id, renamed(`v${i}`), rev));
      if (!r.ok) throw new Error('save failed');
      rev = r.revision;
    }
    const list = await listVersions(db, id);
    expect(list.filter((v) => v.label === undefined)).toHaveLength(KEEP);
    expect(list.at(-1)!.label).toBe('as seeded');
    expect(list[0]!.name).toBe(`v${KEEP + 4}`);
    // Named: a save right after does not fold into it.
    await nameVersion(db, list[0]!.seq!, 'release');
    await at(clock + (KEEP + 6) * COALESCE_MS + 10, () => savePipeline(db, id, renamed('after release'), rev));
    const after = await listVersions(db, id);
    expect(after[0]!.name).toBe('after release');
    expect(after[1]!.label).toBe('release');
  });

  it('drops the history of a pipeline purged for good', async () => {
    const db = freshDb();
    const id = await createPipeline(db, demoPipeline());
    await deletePipeline(db, id);
    await purgeDeleted(db, Date.now() + 1);
    expect(await listVersions(db, id)).toEqual([]);
  });

  it('upgrades a database of the previous schema (version 2) with data in it: every row kept, each pipeline gets a first version', async () => {
    const name = `upgrade-${Math.random()}`;
    // The schema as the previous release declared it, written with data.
    const old = new Dexie(name);
    old.version(1).stores({ pipelines: 'id, updated_at, deleted_at', settings: 'key' });
    old.version(2).stores({ traces: 'id, updated_at', traceChunks: '[trace_id+chunk]' });
    const doc = renamed('Stored before history');
    const record = { id: 'p1', format: STORED_FORMAT, store_version: STORED_VERSION, doc, name: doc.name, revision: 7, saved_by: 'tab', created_at: 1, updated_at: 5000 };
    await old.table('pipelines').bulkAdd([record, { ...record, id: 'gone', deleted_at: 6000 }]);
    await old.table('settings').put({ key: 'editor.lastOpened', value: 'p1' });
    await old.table('traces').put({ id: 't1', updated_at: 1, name: 'trace' });
    await old.table('traceChunks').put({ trace_id: 't1', chunk: 0, events: [] });
    old.close();

    const db = new HookwireDb(name);
    open.push(db);
    const read = await readPipeline(db, 'p1');
    expect(read?.ok && read.record.doc).toEqual(doc);
    expect(read?.ok && read.record.revision).toBe(7);
    expect(await db.settings.get('editor.lastOpened')).toEqual({ key: 'editor.lastOpened', value: 'p1' });
    expect(await db.traces.get('t1')).toMatchObject({ name: 'trace' });
    expect(await db.traceChunks.count()).toBe(1);
    const versions = await listVersions(db, 'p1');
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ doc, revision: 7, at: 5000, summary: 'As saved before version history began' });
    expect(await listVersions(db, 'gone')).toEqual([]);
    // And history goes on from there.
    await savePipeline(db, 'p1', renamed('After the upgrade'), 7);
    expect((await listVersions(db, 'p1')).map((v) => v.summary)).toEqual(['renamed to “After the upgrade”', 'As saved before version history began']);
  });
});

describe('summarizeVersionChange', () => {
  it('names added, removed and changed nodes, wires and moves', () => {
    const a = demoPipeline();
    const b: Pipeline = JSON.parse(JSON.stringify(a));
    b.nodes = b.nodes.filter((x) => x.id !== 'm-dangerous-tools');
    b.wires = b.wires.filter((w) => w.from !== 'm-dangerous-tools' && w.to !== 'm-dangerous-tools');
    b.nodes.push({ id: 'ev-new', kind: 'event', pattern: 'agent.start', label: 'Start' });
    const h = b.nodes.find((x) => x.kind === 'handler')!;
    if (h.kind === 'handler') h.order += 1;
    b.layout!.nodes[0] = { ...b.layout!.nodes[0]!, x: b.layout!.nodes[0]!.x + 10 };
    const s = summarizeVersionChange(a, b);
    expect(s).toContain('added “Start”');
    expect(s).toContain('removed “Dangerous tools”');
    expect(s).toMatch(/changed “/);
    expect(s).toMatch(/wires? removed/);
    expect(s).toContain('moved 1 node');
    expect(summarizeVersionChange(a, a)).toBe('No visible change');
    expect(summarizeVersionChange(null, a)).toBe('First version');
    // Stored documents may be anything: no throw, and __proto__ is just an id.
    expect(summarizeVersionChange({ nodes: [{ id: '__proto__', kind: 'event' }] }, 42)).toContain('removed');
  });
});

describe('automatic version history, undo', () => {
  it('an edit undone within the fold window leaves no version behind', async () => {
    const db = freshDb();
    clock += 1e8;
    const id = await at(clock, () => createPipeline(db, demoPipeline()));
    await at(clock + 2 * COALESCE_MS, () => savePipeline(db, id, renamed('A'), 1));
    await at(clock + 4 * COALESCE_MS, () => savePipeline(db, id, renamed('B'), 2));
    await at(clock + 4 * COALESCE_MS + 5, () => savePipeline(db, id, renamed('A'), 3));
    const list = await listVersions(db, id);
    expect(list.map((v) => v.name)).toEqual(['A', demoPipeline().name]);
    expect(list[0]!.revision).toBe(4);
  });
});

describe('the last export [B1 in the app: current edit vs last export]', () => {
  it('marks the exported version; an edit within the fold window does not fold into it; the newest export is never pruned', async () => {
    const db = freshDb();
    clock += 1e9;
    const id = await at(clock, () => createPipeline(db, demoPipeline()));
    await at(clock + 2 * COALESCE_MS, () => savePipeline(db, id, renamed('shipped'), 1));
    // Exported as saved: the newest version is marked, no version is added.
    await at(clock + 2 * COALESCE_MS + 10, () => markExported(db, id, renamed('shipped'), clock + 2 * COALESCE_MS + 10));
    let list = await listVersions(db, id);
    expect(list.map((v) => [v.name, v.exported_at])).toEqual([['shipped', clock + 2 * COALESCE_MS + 10], [demoPipeline().name, undefined]]);
    // An edit seconds later would fold into the newest version: not into an exported one.
    await at(clock + 2 * COALESCE_MS + 20, () => savePipeline(db, id, renamed('edited'), 2));
    list = await listVersions(db, id);
    expect(list.map((v) => v.name)).toEqual(['edited', 'shipped', demoPipeline().name]);
    expect(lastExported(list)?.name).toBe('shipped');
    // Many later saves: the unnamed versions are pruned to KEEP, the exported one stays.
    for (let k = 0; k < KEEP + 5; k++) await at(clock + (4 + 2 * k) * COALESCE_MS, () => savePipeline(db, id, renamed(`v${k}`), 3 + k));
    list = await listVersions(db, id);
    expect(lastExported(list)?.name).toBe('shipped');
    expect(list.filter((v) => v.label === undefined && v.exported_at === undefined)).toHaveLength(KEEP);
  });

  it('an export of an edit not saved yet adds a version of it, and the save of that document adds nothing', async () => {
    const db = freshDb();
    clock += 1e9;
    const id = await at(clock, () => createPipeline(db, demoPipeline()));
    await at(clock + 10, () => markExported(db, id, renamed('unsaved'), clock + 10));
    let list = await listVersions(db, id);
    expect(list.map((v) => [v.name, v.exported_at !== undefined])).toEqual([['unsaved', true], [demoPipeline().name, false]]);
    expect(list[0]!.summary).toMatch(/^Exported · /);
    await at(clock + 20, () => savePipeline(db, id, renamed('unsaved'), 1));
    list = await listVersions(db, id);
    expect(list).toHaveLength(2);
    // A later export moves "last export" to the newer version.
    await at(clock + 3 * COALESCE_MS, () => savePipeline(db, id, renamed('newer'), 2));
    await at(clock + 3 * COALESCE_MS + 1, () => markExported(db, id, renamed('newer'), clock + 3 * COALESCE_MS + 1));
    expect(lastExported(await listVersions(db, id))?.name).toBe('newer');
  });
});
