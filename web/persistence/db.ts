import Dexie, { type EntityTable, type Table } from 'dexie';
import type { StoredPipeline } from './storedPipeline.ts';
import type { StoredTrace, TraceChunk } from './storedTrace.ts';

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
  }
}

let instance: HookwireDb | null = null;

/** The shared database of the app (one per page). */
export function appDb(): HookwireDb {
  instance ??= new HookwireDb();
  return instance;
}
