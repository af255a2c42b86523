import { isJsonObject, type JsonObject } from './json.ts';

/** One step that turns a document of `from` into one of `from + 1`. It must not mutate its input. */
export type Migration = (doc: JsonObject) => JsonObject;

export type MigrateResult =
  | { ok: true; doc: JsonObject; from: number }
  | { ok: false; code: 'future_version' | 'migration_failed' | 'schema'; message: string };

/**
 * Brings a versioned document to `current` step by step [V1]. A newer version is refused, a failing step
 * refuses the document; the input is never changed. `migrations.get(n)` migrates version n to n + 1.
 */
export function migrate(doc: JsonObject, current: number, migrations: ReadonlyMap<number, Migration>, what: string): MigrateResult {
  const version = doc.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return { ok: false, code: 'schema', message: `${what}: "version" must be a whole number, got ${JSON.stringify(version ?? null)}` };
  }
  if (version > current) {
    return { ok: false, code: 'future_version', message: `${what} is version ${version}; this Hookwire reads up to version ${current}. Update Hookwire to open it.` };
  }
  let out: JsonObject = doc;
  for (let v = version; v < current; v++) {
    const step = migrations.get(v);
    if (!step) return { ok: false, code: 'migration_failed', message: `${what}: no migration from version ${v} to ${v + 1}` };
    try {
      const next = step(structuredCloneJson(out));
      if (!isJsonObject(next)) throw new Error('migration returned no document');
      out = { ...next, version: v + 1 };
    } catch (e) {
      return { ok: false, code: 'migration_failed', message: `${what}: migrating version ${v} to ${v + 1} failed: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  return { ok: true, doc: out, from: version };
}

function structuredCloneJson(doc: JsonObject): JsonObject {
  return JSON.parse(JSON.stringify(doc)) as JsonObject;
}
