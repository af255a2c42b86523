import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import {
  DEBUG_SESSION_FORMAT, debugSessionKey, loadDebugSession, pruneDebugSessions, readDebugSession, saveDebugSession, type DebugSession,
} from '../../../web/persistence/debugSession.ts';
import { createPipeline } from '../../../web/persistence/library.ts';
import { storeTrace } from '../../../web/persistence/traceLibrary.ts';
import { demoTrace } from '../../../web/demo/demoTrace.ts';

let db: HookwireDb;
let n = 0;
beforeEach(() => {
  db = new HookwireDb(`debug-session-${n++}`);
});
afterEach(async () => {
  await db.delete();
});

const session: DebugSession = {
  breakpoints: [
    { id: 'decision:blocked', kind: 'decision', decision: 'blocked' },
    { id: 'handler:h-redact-secrets', kind: 'handler', handler_id: 'h-redact-secrets' },
    { id: 'type:input.received', kind: 'event_type', type: 'input.received' },
    { id: 'handler:h-block-destructive:blocks', kind: 'handler', handler_id: 'h-block-destructive', on: 'blocks', when: { 'payload.tool_name': 'Bash' }, hits: { count: 3, mode: 'at' } },
    { id: 'matcher:m-dangerous', kind: 'matcher', matcher_id: 'm-dangerous', enabled: false },
    { id: 'condition:x1', kind: 'condition', when: { 'state.n': { gt: 2 } }, hits: { count: 2, mode: 'every' } },
  ],
  pinned: { doc: demoPipeline(), name: 'Demo', at: 1_700_000_000_000 },
};

describe('debugger sessions in IndexedDB', () => {
  it('keeps breakpoints and the pinned version per trace and pipeline, as plain versioned JSON', async () => {
    await saveDebugSession(db, 't1', 'p1', session);
    await saveDebugSession(db, 't1', 'p2', { breakpoints: [], pinned: null });
    expect(await loadDebugSession(db, 't1', 'p1')).toEqual({ ok: true, session });
    expect(await loadDebugSession(db, 't1', 'p2')).toEqual({ ok: true, session: { breakpoints: [], pinned: null } });
    expect(await loadDebugSession(db, 't2', 'p1')).toEqual({ ok: false, reason: 'missing' });
    const row = (await db.settings.get(debugSessionKey('t1', 'p1')))?.value;
    expect(row).toMatchObject({ format: DEBUG_SESSION_FORMAT, version: 2, trace_id: 't1', pipeline_id: 'p1' });
    expect(JSON.parse(JSON.stringify(row))).toEqual(row);
  });

  it('keys cannot collide, whatever the ids hold', () => {
    expect(debugSessionKey('a:b', 'c')).not.toBe(debugSessionKey('a', 'b:c'));
    expect(debugSessionKey('a","b', 'c')).not.toBe(debugSessionKey('a', 'b","c'));
  });

  it('drops what it does not recognise and refuses a row from a newer app', () => {
    const row = {
      format: DEBUG_SESSION_FORMAT, version: 1,
      breakpoints: [
        { kind: 'decision', decision: 'blocked', id: 'forged' }, { kind: 'decision', decision: 'explode' }, { kind: 'handler' }, 'x',
        { kind: 'decision', decision: 'blocked' }, { kind: 'event_type', type: '__proto__' },
      ],
      pinned: { doc: 'not a document', name: 'x', at: 1 },
    };
    expect(readDebugSession(row)).toEqual({
      ok: true,
      session: { breakpoints: [{ id: 'decision:blocked', kind: 'decision', decision: 'blocked' }, { id: 'type:__proto__', kind: 'event_type', type: '__proto__' }], pinned: null },
    });
    expect(readDebugSession({ ...row, version: 3 })).toEqual({ ok: false, reason: 'newer' });
    // Version 2: a hit count that is not a whole number from 1 is dropped (every hit), a condition alone needs its condition.
    expect(readDebugSession({
      format: DEBUG_SESSION_FORMAT, version: 2,
      breakpoints: [
        { kind: 'handler', handler_id: 'h', on: 'explodes', hits: { count: 0, mode: 'at' } }, { kind: 'condition', id: 'condition:a' },
        { kind: 'condition', id: 'condition:b', when: { 'payload.x': 1 }, hits: { count: 2, mode: 'sometimes' }, enabled: false },
      ],
    })).toEqual({
      ok: true,
      session: { breakpoints: [{ id: 'handler:h', kind: 'handler', handler_id: 'h' }, { id: 'condition:b', kind: 'condition', when: { 'payload.x': 1 }, enabled: false }], pinned: null },
    });
    expect(readDebugSession({ ...row, format: 'other' })).toEqual({ ok: false, reason: 'invalid' });
    expect(readDebugSession(null)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('prunes the sessions of traces or pipelines that are gone', async () => {
    const pipelineId = await createPipeline(db, demoPipeline());
    const trace = await storeTrace(db, demoTrace(), { name: 'demo', source_format: 'hookwire-trace' });
    await saveDebugSession(db, trace.id, pipelineId, session);
    await saveDebugSession(db, 'gone-trace', pipelineId, session);
    await saveDebugSession(db, trace.id, 'gone-pipeline', session);
    await db.settings.put({ key: 'debugger.lastTrace', value: trace.id });
    expect(await pruneDebugSessions(db)).toBe(2);
    expect((await db.settings.toArray()).map((r) => r.key).sort()).toEqual([debugSessionKey(trace.id, pipelineId), 'debugger.lastTrace'].sort());
  });
});
