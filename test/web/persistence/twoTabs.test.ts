import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';

/**
 * Two tabs on one pipeline, as two fresh copies of the app's modules (each with its own store and tab id)
 * over one IndexedDB. Both edit before either save lands: the second save must be refused as a conflict,
 * not written over the first.
 */
async function tab() {
  vi.resetModules();
  const store = await import('../../../web/store/appStore.ts');
  const workspace = await import('../../../web/persistence/workspace.ts');
  const { HookwireDb } = await import('../../../web/persistence/db.ts');
  const db = new HookwireDb('two-tabs');
  const app = store.createAppStore();
  const ws = workspace.createWorkspace(app, db);
  await ws.start();
  return { s: () => app.getState(), workspace: ws, db };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('two tabs editing one pipeline', () => {
  it('the later save is a conflict with a clear choice, and keeping mine overwrites only when asked', async () => {
    const a = await tab();
    const b = await tab();
    expect(b.s().pipelineId).toBe(a.s().pipelineId);

    a.s().apply([{ type: 'setProps', props: { name: 'Renamed in A' } }], 'rename');
    b.s().apply([{ type: 'setProps', props: { name: 'Renamed in B' } }], 'rename');
    await until(() => a.s().save.status === 'saved' && b.s().save.status === 'conflict');

    const id = a.s().pipelineId!;
    expect((await a.db.pipelines.get(id))?.name).toBe('Renamed in A');
    const state = b.s().save;
    expect(state.status === 'conflict' && state.theirRevision).toBe(2);
    // B keeps editing: still nothing is written over A's save.
    b.s().apply([{ type: 'setProps', props: { description: 'more' } }], 'describe');
    await new Promise((r) => setTimeout(r, 30));
    expect((await a.db.pipelines.get(id))?.name).toBe('Renamed in A');

    await b.workspace.keepMine();
    await until(() => b.s().save.status === 'saved');
    expect((await a.db.pipelines.get(id))?.name).toBe('Renamed in B');
    expect((await a.db.pipelines.get(id))?.revision).toBe(3);
    await a.db.delete();
  });
});
