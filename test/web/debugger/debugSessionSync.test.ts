import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { startDebugSessionSync } from '../../../web/debugger/debugSessionSync.ts';
import { useDebugger } from '../../../web/debugger/debuggerStore.ts';
import type { Breakpoint } from '../../../web/debugger/model/breakpoints.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { loadDebugSession } from '../../../web/persistence/debugSession.ts';
import { useEditor } from '../../../web/store/editorStore.ts';

// The debugger's breakpoints and pinned version follow the open (trace, pipeline) pair through the stores
// into IndexedDB (fake-indexeddb here; the e2e spec reloads a real Chromium).
let db: HookwireDb;
beforeAll(() => {
  db = new HookwireDb('debug-session-sync');
  useEditor.getState().open('p1', demoPipeline(), 1);
  startDebugSessionSync(db);
});
afterAll(async () => {
  await db.delete();
});

const d = () => useDebugger.getState();
const blocked: Breakpoint = { id: 'decision:blocked', kind: 'decision', decision: 'blocked' };
const onInput: Breakpoint = { id: 'type:input.received', kind: 'event_type', type: 'input.received' };
const stored = async (traceId: string, pipelineId: string) => {
  const r = await loadDebugSession(db, traceId, pipelineId);
  return r.ok ? r.session : null;
};
/** Opens a trace the way the controller does (the store's traceId), and waits for `expected` to be restored. */
async function openTrace(id: string, expected: Breakpoint[]): Promise<void> {
  d().set({ traceId: id });
  await expect.poll(() => d().breakpoints).toEqual(expected);
}

describe('debugger session sync', () => {
  it('saves every change under the open trace and pipeline, and restores it when they open again', async () => {
    d().set({ breakpoints: [blocked] });
    // t1 had nothing stored: what the store held before is not carried over.
    await openTrace('t1', []);
    d().set({ breakpoints: [blocked, onInput] });
    const pinned = { doc: demoPipeline(), name: 'Demo', at: 1 };
    d().set({ pinned });
    await expect.poll(() => stored('t1', 'p1')).toEqual({ breakpoints: [blocked, onInput], pinned });

    await openTrace('t2', []);
    expect(d().pinned).toBeNull();
    d().set({ breakpoints: [onInput] });
    await expect.poll(() => stored('t2', 'p1')).toEqual({ breakpoints: [onInput], pinned: null });

    await openTrace('t1', [blocked, onInput]);
    expect(d().pinned).toEqual(pinned);
    expect(await stored('t1', 'p1')).toEqual({ breakpoints: [blocked, onInput], pinned });
  });

  it('another pipeline beside the same trace has a session of its own', async () => {
    useEditor.getState().open('p2', demoPipeline(), 1);
    await expect.poll(() => d().pinned).toBeNull();
    expect(d().breakpoints).toEqual([]);
    d().set({ breakpoints: [blocked] });
    await expect.poll(() => stored('t1', 'p2')).toEqual({ breakpoints: [blocked], pinned: null });
    useEditor.getState().open('p1', demoPipeline(), 1);
    await expect.poll(() => d().breakpoints).toEqual([blocked, onInput]);
  });

  it('a change made before the next trace\'s session is restored is not written under its key', async () => {
    d().set({ traceId: 't3' });
    d().set({ breakpoints: [onInput] });
    await expect.poll(() => d().breakpoints).toEqual([]);
    expect(await stored('t3', 'p1')).toBeNull();
    expect(await stored('t1', 'p1')).toEqual(expect.objectContaining({ breakpoints: [blocked, onInput] }));
  });
});
