import { isJsonObject } from '../../engine/app.ts';

/**
 * What one library entry looks like in IndexedDB: an envelope with its own format version around the
 * pipeline document (which carries the pipeline format and version of its own). Plain JSON (STYLE habit 7).
 */
export const STORED_FORMAT = 'hookwire.stored-pipeline';
export const STORED_VERSION = 1;

export interface StoredPipeline {
  id: string;
  format: typeof STORED_FORMAT;
  store_version: number;
  /** The pipeline document as the editor last saw it (possibly with problems the user is fixing). */
  doc: unknown;
  /** Copy of the document's name for the library list. */
  name: string;
  /** Incremented by every save; a save must name the revision it started from (two tabs, one pipeline). */
  revision: number;
  /** Id of the tab that saved last. */
  saved_by: string;
  created_at: number;
  updated_at: number;
  /** Set by delete; the entry comes back with undo and is purged on a later start. */
  deleted_at?: number;
}

export type MigrateResult = { ok: true; record: StoredPipeline; migrated: boolean } | { ok: false; message: string };

type Migration = (record: Record<string, unknown>) => Record<string, unknown>;

/**
 * Envelope migrations, `MIGRATIONS[n]` taking version n to n + 1. Version 1 is the first shipped envelope,
 * so the list is empty; the pipeline document inside migrates separately, through the engine's loader.
 */
const MIGRATIONS: readonly Migration[] = [];

/**
 * Brings a stored record to the current envelope version, step by step. A record from a newer app, or one
 * that is not a record at all, is refused with a message and never rewritten.
 */
export function migrateStoredRecord(raw: unknown): MigrateResult {
  if (!isJsonObject(raw as never) || typeof (raw as { id?: unknown }).id !== 'string') {
    return { ok: false, message: 'The stored entry is not a pipeline record.' };
  }
  let record = raw as Record<string, unknown>;
  const version = typeof record.store_version === 'number' ? record.store_version : -1;
  if (version > STORED_VERSION) {
    return { ok: false, message: `This entry was saved by a newer Hookwire (storage version ${version}); open it there.` };
  }
  if (version < 1 || record.format !== STORED_FORMAT) return { ok: false, message: 'The stored entry has no storage version.' };
  for (let v = version; v < STORED_VERSION; v++) {
    const step = MIGRATIONS[v - 1];
    if (!step) return { ok: false, message: `No migration from storage version ${v}.` };
    record = { ...step(record), store_version: v + 1 };
  }
  return { ok: true, record: record as unknown as StoredPipeline, migrated: version !== STORED_VERSION };
}
