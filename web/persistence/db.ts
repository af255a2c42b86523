import Dexie, { type EntityTable, type Table } from 'dexie';
import type { StoredPipeline } from './storedPipeline.ts';
import type { StoredTrace, TraceChunk } from './storedTrace.ts';
import type { PipelineVersion } from './versionHistory.ts';

/** A key/value row for small app settings (which pipeline was open, whether the demo was seeded). */
export interface SettingRow {
  key: string;
  value: unknown;
}

/**
 * The app's IndexedDB database. Each feature owns its tables; a feature that adds tables declares a new
 * `version(n)` below with the tables it adds (Dexie keeps the earlier ones).
 */
export class HookwireDb extends Dexie {
  pipelines!: EntityTable<StoredPipeline, 'id'>;
  settings!: EntityTable<SettingRow, 'key'>;
  /** The debugger's trace library: one row per trace, its events in `traceChunks` (storedTrace.ts). */
  traces!: EntityTable<StoredTrace, 'id'>;
  traceChunks!: Table<TraceChunk, [string, number]>;
  /** Automatic version history of each pipeline (versionHistory.ts). */
  versions!: EntityTable<PipelineVersion, 'seq'>;

  constructor(name = 'hookwire') {
    super(name);
    this.version(1).stores({
      pipelines: 'id, updated_at, deleted_at',
      settings: 'key',
    });
    this.version(2).stores({
      traces: 'id, updated_at',
      traceChunks: '[trace_id+chunk]',
    });
    // Version 3 keeps every earlier table and its rows; each pipeline stored before gets its current
    // document as the first version of its history, so Compare and Restore have something to start from.
    this.version(3)
      .stores({ versions: '++seq, [pipeline_id+seq]' })
      .upgrade(async (tx) => {
        const now = Date.now();
        const pipelines = await tx.table('pipelines').toArray();
        const rows = pipelines
          .filter((p) => p.deleted_at === undefined)
          .map((p): PipelineVersion => ({ pipeline_id: p.id, doc: p.doc, name: p.name, first_at: p.updated_at ?? now, at: p.updated_at ?? now, revision: p.revision, summary: 'As saved before version history began' }));
        await tx.table('versions').bulkAdd(rows);
      });
  }
}

let instance: HookwireDb | null = null;

/** The shared database of the app (one per page). */
export function appDb(): HookwireDb {
  instance ??= new HookwireDb();
  return instance;
}
