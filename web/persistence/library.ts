import type { Pipeline } from '../../engine/app.ts';
import type { HookwireDb } from './db.ts';
import { deleteVersionsOf, recordVersion, type RecordOptions } from './versionHistory.ts';
import { migrateStoredRecord, STORED_FORMAT, STORED_VERSION, type StoredPipeline } from './storedPipeline.ts';

/** Identifies this tab in saved records, so a tab can tell its own saves from another tab's. */
export const TAB_ID: string = crypto.randomUUID();

export type SaveResult =
  | { ok: true; revision: number }
  | { ok: false; reason: 'conflict'; theirRevision: number }
  | { ok: false; reason: 'missing' };

function newRecord(doc: Pipeline, now: number): StoredPipeline {
  return {
    id: crypto.randomUUID(),
    format: STORED_FORMAT,
    store_version: STORED_VERSION,
    doc,
    name: doc.name,
    revision: 1,
    saved_by: TAB_ID,
    created_at: now,
    updated_at: now,
  };
}

/** Library entries that are not deleted, most recently changed first. */
export async function listPipelines(db: HookwireDb): Promise<StoredPipeline[]> {
  const all = await db.pipelines.orderBy('updated_at').reverse().toArray();
  return all.filter((r) => r.deleted_at === undefined);
}

/** `name`, or `name (2)`, `name (3)`… : the first that no stored pipeline has. */
export async function uniquePipelineName(db: HookwireDb, name: string): Promise<string> {
  const taken = new Set((await listPipelines(db)).map((r) => r.name));
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name} (${n})`)) n++;
  return `${name} (${n})`;
}

/** Adds a pipeline to the library and returns its id. */
export async function createPipeline(db: HookwireDb, doc: Pipeline): Promise<string> {
  const record = newRecord(doc, Date.now());
  await db.transaction('rw', db.pipelines, db.versions, async () => {
    await db.pipelines.add(record);
    await recordVersion(db, record.id, doc, record.revision, record.created_at);
  });
  return record.id;
}

/** A stored record brought to the current envelope version, or why it cannot be. */
export async function readPipeline(db: HookwireDb, id: string): Promise<ReturnType<typeof migrateStoredRecord> | null> {
  const raw = await db.pipelines.get(id);
  if (!raw || raw.deleted_at !== undefined) return null;
  return migrateStoredRecord(raw);
}

/**
 * Saves a document if the stored revision is still the one this tab started from; otherwise reports the
 * conflict and writes nothing, so two tabs never silently overwrite each other. Storage errors (quota)
 * are thrown for the caller to show.
 */
export async function savePipeline(db: HookwireDb, id: string, doc: Pipeline, baseRevision: number, record: RecordOptions = {}): Promise<SaveResult> {
  return db.transaction('rw', db.pipelines, db.versions, async (): Promise<SaveResult> => {
    const current = await db.pipelines.get(id);
    if (!current || current.deleted_at !== undefined) return { ok: false, reason: 'missing' };
    if (current.revision !== baseRevision) return { ok: false, reason: 'conflict', theirRevision: current.revision };
    const revision = current.revision + 1;
    const now = Date.now();
    await db.pipelines.put({ ...current, doc, name: doc.name, revision, saved_by: TAB_ID, updated_at: now });
    await recordVersion(db, id, doc, revision, now, record);
    return { ok: true, revision };
  });
}

/** Renames an entry that is not open in the editor (the open one is renamed through an edit). */
export async function renameStored(db: HookwireDb, id: string, name: string): Promise<void> {
  await db.transaction('rw', db.pipelines, db.versions, async () => {
    const current = await db.pipelines.get(id);
    if (!current) return;
    const doc = typeof current.doc === 'object' && current.doc !== null ? { ...(current.doc as object), name } : current.doc;
    const now = Date.now();
    await db.pipelines.put({ ...current, doc, name, revision: current.revision + 1, saved_by: TAB_ID, updated_at: now });
    await recordVersion(db, id, doc, current.revision + 1, now);
  });
}

/** Copies an entry under a new id and name "… (copy)"; returns the new id. */
export async function duplicateStored(db: HookwireDb, id: string): Promise<string | null> {
  const current = await db.pipelines.get(id);
  if (!current) return null;
  const name = `${current.name} (copy)`;
  const doc = typeof current.doc === 'object' && current.doc !== null ? { ...(current.doc as object), name } : current.doc;
  const now = Date.now();
  const copy: StoredPipeline = { ...current, id: crypto.randomUUID(), doc, name, revision: 1, saved_by: TAB_ID, created_at: now, updated_at: now };
  delete copy.deleted_at;
  await db.transaction('rw', db.pipelines, db.versions, async () => {
    await db.pipelines.add(copy);
    await recordVersion(db, copy.id, doc, copy.revision, now);
  });
  return copy.id;
}

/** Marks an entry deleted; `restorePipeline` undoes it until the next start purges it. */
export async function deletePipeline(db: HookwireDb, id: string): Promise<void> {
  await db.pipelines.update(id, { deleted_at: Date.now() });
}

export async function restorePipeline(db: HookwireDb, id: string): Promise<void> {
  await db.transaction('rw', db.pipelines, async () => {
    const current = await db.pipelines.get(id);
    if (!current) return;
    const { deleted_at: _gone, ...rest } = current;
    await db.pipelines.put(rest);
  });
}

/** Removes entries deleted in an earlier session for good. */
export async function purgeDeleted(db: HookwireDb, before: number): Promise<number> {
  const old = (await db.pipelines.toArray()).filter((r) => r.deleted_at !== undefined && r.deleted_at < before);
  await db.transaction('rw', db.pipelines, db.versions, async () => {
    await db.pipelines.bulkDelete(old.map((r) => r.id));
    await deleteVersionsOf(db, old.map((r) => r.id));
  });
  return old.length;
}

export async function getSetting<T>(db: HookwireDb, key: string): Promise<T | undefined> {
  return (await db.settings.get(key))?.value as T | undefined;
}

export async function setSetting(db: HookwireDb, key: string, value: unknown): Promise<void> {
  await db.settings.put({ key, value });
}

/** A storage failure in words a user can act on (quota errors above all). */
export function describeStorageError(e: unknown): string {
  const err = e as { name?: string; message?: string; inner?: { name?: string; message?: string } };
  const names = [err?.name, err?.inner?.name];
  if (names.includes('QuotaExceededError')) {
    return 'The browser refused to save: storage is full (QuotaExceededError). Your latest changes are only in this tab. Free some space or export the pipeline.';
  }
  const message = err?.inner?.message ?? err?.message ?? String(e);
  return `The browser refused to save (${err?.name ?? 'error'}: ${message}). Your latest changes are only in this tab; export the pipeline to keep them.`;
}
