import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../web/store/appStore.ts';
import { createWorkspace } from '../../../web/persistence/workspace.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { listVersions } from '../../../web/persistence/versionHistory.ts';

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await check()).toBe(true);
};

describe('restoring a version (workspace service over IndexedDB)', () => {
  it('is one undoable edit: the document becomes the version, the save records it, undo takes it back', async () => {
    const db = new HookwireDb(`restore-${Math.random()}`);
    const app = createAppStore();
    const ws = createWorkspace(app, db);
    await ws.start();
    const s = () => app.getState();
    const id = s().pipelineId!;
    const seeded = s().doc!;
    s().apply([{ type: 'setProps', props: { name: 'Edited' } }], 'rename');
    await ws.flushSave();
    const versions = await listVersions(db, id);
    expect(versions.map((v) => v.name)).toEqual(['Edited', seeded.name]);

    await ws.restoreVersion(versions[1]!);
    expect(s().doc).toEqual(seeded);
    expect(s().history.past.at(-1)?.label).toMatch(/^Restore the version of/);
    await ws.flushSave();
    expect((await db.pipelines.get(id))?.name).toBe(seeded.name);
    // Within the fold window too, the version left stays in the history: the restore is a version of its own.
    const kept = await listVersions(db, id);
    expect(kept.map((v) => v.name)).toEqual([seeded.name, 'Edited', seeded.name]);
    expect(kept[0]!.summary).toMatch(/^Restored \d\d:\d\d:\d\d · renamed to “/);

    s().undo();
    expect(s().doc!.name).toBe('Edited');
    await ws.flushSave();
    await until(async () => (await db.pipelines.get(id))?.name === 'Edited');
    // Undone at once: the restore leaves no version behind.
    expect((await listVersions(db, id)).map((v) => v.name)).toEqual(['Edited', seeded.name]);
    ws.dispose();
    await db.delete();
  });

  it('refuses a version of another pipeline and one that cannot be opened, changing nothing', async () => {
    const db = new HookwireDb(`restore-${Math.random()}`);
    const app = createAppStore();
    const ws = createWorkspace(app, db);
    await ws.start();
    const before = app.getState().doc;
    const id = app.getState().pipelineId!;
    await ws.restoreVersion({ pipeline_id: 'other', doc: before, name: 'x', first_at: 0, at: 0, revision: 1, summary: '' });
    expect(app.getState().doc).toBe(before);
    await ws.restoreVersion({ pipeline_id: id, doc: { format: 'nope' }, name: 'x', first_at: 0, at: 0, revision: 1, summary: '' });
    expect(app.getState().doc).toBe(before);
    expect(app.getState().toasts.at(-1)?.message).toMatch(/cannot be opened/);
    ws.dispose();
    await db.delete();
  });
});
