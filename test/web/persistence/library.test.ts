import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookwireDb } from '../../../web/persistence/db.ts';
import {
  createPipeline, deletePipeline, describeStorageError, duplicateStored, listPipelines, purgeDeleted, readPipeline,
  renameStored, restorePipeline, savePipeline,
} from '../../../web/persistence/library.ts';
import { migrateStoredRecord, STORED_VERSION } from '../../../web/persistence/storedPipeline.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';

let db: HookwireDb;
let n = 0;
beforeEach(() => {
  db = new HookwireDb(`test-${n++}`);
});
afterEach(async () => {
  await db.delete();
});

describe('pipeline library (IndexedDB through Dexie)', () => {
  it('creates, lists and reads entries with their envelope version', async () => {
    const id = await createPipeline(db, demoPipeline());
    const list = await listPipelines(db);
    expect(list.map((r) => r.id)).toEqual([id]);
    const read = await readPipeline(db, id);
    expect(read?.ok && read.record.store_version).toBe(STORED_VERSION);
    expect(read?.ok && read.record.revision).toBe(1);
  });

  it('saves only from the current revision: a second writer gets a conflict and nothing is written', async () => {
    const id = await createPipeline(db, demoPipeline());
    const a = await savePipeline(db, id, { ...demoPipeline(), name: 'A' }, 1);
    expect(a).toEqual({ ok: true, revision: 2 });
    const b = await savePipeline(db, id, { ...demoPipeline(), name: 'B' }, 1);
    expect(b).toEqual({ ok: false, reason: 'conflict', theirRevision: 2 });
    expect((await db.pipelines.get(id))?.name).toBe('A');
  });

  it('reports a save to a deleted entry as missing', async () => {
    const id = await createPipeline(db, demoPipeline());
    await deletePipeline(db, id);
    expect(await savePipeline(db, id, demoPipeline(), 1)).toEqual({ ok: false, reason: 'missing' });
  });

  it('deletes softly; restore brings the entry back; purge removes it for good', async () => {
    const id = await createPipeline(db, demoPipeline());
    await deletePipeline(db, id);
    expect(await listPipelines(db)).toEqual([]);
    await restorePipeline(db, id);
    expect((await listPipelines(db)).map((r) => r.id)).toEqual([id]);
    await deletePipeline(db, id);
    expect(await purgeDeleted(db, Date.now() + 1)).toBe(1);
    await restorePipeline(db, id);
    expect(await listPipelines(db)).toEqual([]);
  });

  it('renames and duplicates, keeping document and list name in step', async () => {
    const id = await createPipeline(db, demoPipeline());
    await renameStored(db, id, 'Policy');
    const copy = await duplicateStored(db, id);
    const records = await Promise.all([db.pipelines.get(id), db.pipelines.get(copy!)]);
    expect(records.map((r) => r?.name)).toEqual(['Policy', 'Policy (copy)']);
    expect(records.map((r) => (r?.doc as { name: string }).name)).toEqual(['Policy', 'Policy (copy)']);
    expect(records[1]?.revision).toBe(1);
  });
});

describe('stored record migration', () => {
  it('[V1] refuses a record from a newer app without touching it, and non-records', () => {
    const r = migrateStoredRecord({ id: 'x', format: 'hookwire.stored-pipeline', store_version: STORED_VERSION + 1 });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/newer Hookwire/);
    expect(migrateStoredRecord('nope').ok).toBe(false);
    expect(migrateStoredRecord({ id: 'x' }).ok).toBe(false);
  });
});

describe('describeStorageError', () => {
  it('says what a quota error means and what to do', () => {
    expect(describeStorageError({ name: 'QuotaExceededError', message: 'x' })).toMatch(/storage is full.*export/i);
    expect(describeStorageError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toMatch(/storage is full/);
    expect(describeStorageError(new Error('boom'))).toMatch(/boom/);
  });
});
