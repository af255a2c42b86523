import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../web/store/appStore.ts';
import { createWorkspace } from '../../../web/persistence/workspace.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await check()).toBe(true);
};

describe('autosave while typing (workspace service over IndexedDB)', () => {
  it('says "saving" from the first key, saves once when the keys pause, and flushSave saves at once', async () => {
    const db = new HookwireDb(`autosave-${Math.random()}`);
    const app = createAppStore();
    const ws = createWorkspace(app, db);
    await ws.start();
    const s = () => app.getState();
    const id = s().pipelineId!;
    const revision = s().revision;
    // 20 keys in one task (no timer can run between them): nothing is written per key, and nobody is told it is saved.
    for (let i = 1; i <= 20; i++) s().apply([{ type: 'setProps', props: { name: 'Typed'.padEnd(5 + i, 'x') } }], 'Rename pipeline', 'pipeline:name');
    expect(s().save.status).toBe('saving');
    expect((await db.pipelines.get(id))!.revision).toBe(revision);
    await until(() => s().save.status === 'saved');
    const stored = (await db.pipelines.get(id))!;
    expect(stored.name).toBe('Typed'.padEnd(25, 'x'));
    expect(stored.revision).toBe(revision + 1);
    expect(s().savedVersion).toBe(s().version);

    // Closing right after typing: flushSave (what the page's hide and unload call) saves without waiting.
    s().apply([{ type: 'setProps', props: { name: 'Closing' } }], 'Rename pipeline', 'pipeline:name');
    await ws.flushSave();
    expect((await db.pipelines.get(id))!.name).toBe('Closing');
    expect(s().save.status).toBe('saved');
    ws.dispose();
  });
});
