import { describe, expect, it } from 'vitest';
import { createSession, replaySteps, type AuditRecord, type RawLogRecord, type TraceEvent } from '../../../engine/index.ts';
import { audit, block, compile, terminate, ev, event, fixedClock, handler, match, pipeline } from '../helpers.ts';

const doc = pipeline(
  [ev('t', 'tool.before_call'), ev('all', '*'), match('rm', { 'payload.tool_name': 'rm' }), handler('no-rm', block('no {{payload.tool_name}}')), handler('count', { type: 'budget', key: 'n', limit: 100 }, { order: 1 })],
  ['t->rm', 'rm->no-rm', 'all->count'],
);

describe('sessions', () => {
  it('[E5] a repeated event_id returns the recorded result and runs no handler again', () => {
    const s = createSession(compile(doc), { clock: fixedClock() });
    const first = s.dispatch(event('tool.before_call', { tool_name: 'rm' }, { event_id: 'x1' }));
    const again = s.dispatch(event('tool.before_call', { tool_name: 'ls' }, { event_id: 'x1' }));
    expect(first).toMatchObject({ decision: 'block_action', duplicate: false });
    expect(again).toMatchObject({ decision: 'block_action', reason: 'no rm', duplicate: true });
    expect(s.state.vars).toEqual({ n: 1 }); // the budget counted once
  });

  it('[E6] every event leaves a raw log record; every sync decision an audit record with the seed\'s fields', () => {
    const raw: RawLogRecord[] = [];
    const audits: AuditRecord[] = [];
    const s = createSession(compile(doc), { clock: fixedClock(Date.parse('2026-05-01T12:00:00Z')) }, { sinks: { raw: (r) => raw.push(r), audit: (a) => audits.push(a) } });
    s.dispatch(event('tool.before_call', { tool_name: 'rm' }, { event_id: 'a', meta: { user_id: 'u-42' } }));
    s.dispatch(event('unmatched.kind', {}, { event_id: 'b' }));
    s.dispatch(event('agent.end', {}, { event_id: 'c' })); // async: raw record only
    expect(raw.map((r) => r.event_id)).toEqual(['a', 'b', 'c']);
    expect(audits).toEqual([
      { trace_id: 't1', agent_id: 'agent-1', user_id: 'u-42', event_type: 'tool.before_call', tool_name: 'rm', decision: 'block_action', reason: 'no rm', timestamp: '2026-05-01T12:00:00.000Z', event_id: 'a', decided_by: 'no-rm' },
      { trace_id: 't1', agent_id: 'agent-1', user_id: null, event_type: 'unmatched.kind', tool_name: null, decision: 'continue', reason: '', timestamp: '2026-05-01T12:00:00.000Z', event_id: 'b', decided_by: null },
    ]);
  });

  it('[D4][E6] after TERMINATE later events are still logged raw, and dispatch nothing', () => {
    const raw: RawLogRecord[] = [];
    const term = pipeline([ev('e', '*'), handler('t', { type: 'terminate', reason: 'stop' }), handler('a', audit())], ['e->t', 'e->a']);
    const s = createSession(compile(term), { clock: fixedClock() }, { sinks: { raw: (r) => raw.push(r) } });
    s.dispatch(event('x', {}, { event_id: '1' }));
    const later = s.dispatch(event('y', {}, { event_id: '2' }));
    expect(later).toMatchObject({ after_terminate: true, audit: [] });
    expect(raw).toHaveLength(2);
  });

  it('[E5][R5] a session is a loop over replay\'s step: a repeat has no audit records or errors of its own, as in replay', () => {
    const audited = pipeline([ev('e', '*'), handler('a', audit(), { order: 1 }), handler('t', terminate('bye'), { order: 2 })], ['e->a', 'e->t']);
    const c = compile(audited);
    const events: TraceEvent[] = [event('tool.before_call', { n: 1 }, { event_id: 'k' }), event('tool.before_call', { n: 2 }, { event_id: 'k' }), event('tool.after_call', {}, { event_id: 'z' })];
    const s = createSession(c, { clock: fixedClock() });
    const live = events.map((e) => s.dispatch(e));
    expect(live[0]!.audit).toHaveLength(1);
    expect(live[1]).toMatchObject({ duplicate: true, audit: [], errors: [], decision: 'terminate', payload: { n: 1 } });
    expect(live[2]).toMatchObject({ after_terminate: true, decision: 'terminate', reason: 'bye', decided_by: 't' });
    const clock = fixedClock();
    const replayed = [...replaySteps(c, events, { clock: () => clock.now() })];
    expect(live.map((r) => [r.decision, r.reason, r.decided_by, r.payload, r.audit.length, r.errors.length, r.duplicate, r.after_terminate])).toEqual(
      replayed.map((r) => [r.decision, r.reason, r.decided_by, r.payload_after, r.audit.length, r.errors.length, r.duplicate, r.not_reached]),
    );
  });
});
