import Dexie, { type EntityTable } from 'dexie';
import type { StoredPipeline } from './storedPipeline.ts';

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

  constructor(name = 'hookwire') {
    super(name);
    this.version(1).stores({
      pipelines: 'id, updated_at, deleted_at',
      settings: 'key',
    });
  }
}

let instance: HookwireDb | null = null;

/** The shared database of the app (one per page). */
export function appDb(): HookwireDb {
  instance ??= new HookwireDb();
  return instance;
}
