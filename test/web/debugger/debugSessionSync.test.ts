import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { startDebugSessionSync } from '../../../web/debugger/debugSessionSync.ts';
import type { Breakpoint } from '../../../web/debugger/model/breakpoints.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { loadDebugSession } from '../../../web/persistence/debugSession.ts';
import { createAppStore, type AppState } from '../../../web/store/appStore.ts';

// The debugger's breakpoints and pinned version follow the open (trace, pipeline) pair through the stores
// into IndexedDB (fake-indexeddb here; the e2e spec reloads a real Chromium).
let db: HookwireDb;
const store = createAppStore();
let compares = 0;
beforeAll(() => {
  db = new HookwireDb('debug-session-sync');
  store.getState().open('p1', demoPipeline(), 1);
  startDebugSessionSync({ store, db, runCompare: () => void compares++, unpin: () => undefined });
});
afterAll(async () => {
  await db.delete();
});

const d = () => store.getState();
/** The test stands in for the replay service and the panels, which write these through named actions. */
const set = (patch: Partial<AppState>) => store.setState(patch);
const blocked: Breakpoint = { id: 'decision:blocked', kind: 'decision', decision: 'blocked' };
const onInput: Breakpoint = { id: 'type:input.received', kind: 'event_type', type: 'input.received' };
const stored = async (traceId: string, pipelineId: string) => {
  const r = await loadDebugSession(db, traceId, pipelineId);
  return r.ok ? r.session : null;
};
/** Opens a trace the way the controller does (the store's traceId), and waits for `expected` to be restored. */
async function openTrace(id: string, expected: Breakpoint[]): Promise<void> {
  set({ traceId: id });
  await expect.poll(() => d().breakpoints).toEqual(expected);
}

describe('debugger session sync', () => {
  it('saves every change under the open trace and pipeline, and restores it when they open again', async () => {
    set({ breakpoints: [blocked] });
    // t1 had nothing stored: what the store held before is not carried over.
    await openTrace('t1', []);
    set({ breakpoints: [blocked, onInput] });
    const pinned = { doc: demoPipeline(), name: 'Demo', at: 1 };
    set({ pinned });
    await expect.poll(() => stored('t1', 'p1')).toEqual({ breakpoints: [blocked, onInput], pinned });

    await openTrace('t2', []);
    expect(d().pinned).toBeNull();
    set({ breakpoints: [onInput] });
    await expect.poll(() => stored('t2', 'p1')).toEqual({ breakpoints: [onInput], pinned: null });

    await openTrace('t1', [blocked, onInput]);
    expect(d().pinned).toEqual(pinned);
    expect(await stored('t1', 'p1')).toEqual({ breakpoints: [blocked, onInput], pinned });
  });

  it('another pipeline beside the same trace has a session of its own', async () => {
    d().open('p2', demoPipeline(), 1);
    await expect.poll(() => d().pinned).toBeNull();
    expect(d().breakpoints).toEqual([]);
    set({ breakpoints: [blocked] });
    await expect.poll(() => stored('t1', 'p2')).toEqual({ breakpoints: [blocked], pinned: null });
    d().open('p1', demoPipeline(), 1);
    await expect.poll(() => d().breakpoints).toEqual([blocked, onInput]);
  });

  it('a change made before the next trace\'s session is restored is not written under its key', async () => {
    set({ traceId: 't3' });
    set({ breakpoints: [onInput] });
    await expect.poll(() => d().breakpoints).toEqual([]);
    expect(await stored('t3', 'p1')).toBeNull();
    expect(await stored('t1', 'p1')).toEqual(expect.objectContaining({ breakpoints: [blocked, onInput] }));
  });
});
