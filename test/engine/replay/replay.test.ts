import { describe, expect, it } from 'vitest';
import { createReplayRun, createSession, initialState, replaySteps, replayTrace, type TraceEvent } from '../../../engine/index.ts';
import { audit, block, compile, ev, handler, match, pipeline, stop, terminate } from '../helpers.ts';
import { at, outcomes, te } from './helpers.ts';

const budget = (limit: number, on_exceed: 'block' | 'terminate' = 'block') => ({ type: 'budget' as const, key: 'calls', limit, on_exceed, reason: 'over budget: {{state.calls}}' });
const redact = { type: 'rewrite' as const, ops: [{ op: 'set' as const, path: 'payload.secret', value: '[REDACTED]' }] };

/** Blocks `rm`, redacts secrets on tool results, counts tool calls (blocks past 3), audits everything. */
const policy = () =>
  compile(
    pipeline(
      [
        ev('before', 'tool.before_call'),
        ev('after', 'tool.after_call'),
        ev('all', '*'),
        match('rm', { 'payload.tool_name': 'rm' }),
        handler('block-rm', block('no rm: {{payload.path}}'), { order: 1, name: 'Block rm' }),
        handler('count', budget(3), { order: 2, name: 'Count calls' }),
        handler('redact', redact, { order: 3, name: 'Redact' }),
        handler('log', audit(), { order: 9, name: 'Log' }),
      ],
      ['before->rm', 'rm->block-rm', 'before->count', 'after->redact', 'all->log'],
    ),
  );

describe('replay', () => {
  it('[R1] one step per event, in order, with payloads, decision, deciding handler, state and the explanation', () => {
    const events = [te('e0', 'agent.start'), te('e1', 'tool.before_call', { tool_name: 'rm', path: '/x' }), te('e2', 'tool.after_call', { tool_name: 'ls', secret: 'sk-1' })];
    const steps = replayTrace(policy(), events);
    expect(steps.map((s) => [s.index, s.event.event_id])).toEqual([[0, 'e0'], [1, 'e1'], [2, 'e2']]);
    const b = steps[1]!;
    expect(b).toMatchObject({ decision: 'block_action', outcome: 'block_action', reason: 'no rm: /x', decided_by: 'block-rm', blocked: true, mode: 'sync' });
    expect(b.explanation!.decision).toBe('block_action');
    expect(b.explanation!.handlers.find((h) => h.handler_id === 'count')!.status).toBe('not_reached');
    const r = steps[2]!;
    expect(r.payload_before).toEqual({ tool_name: 'ls', secret: 'sk-1' });
    expect(r.payload_after).toEqual({ tool_name: 'ls', secret: '[REDACTED]' });
    expect(r.explanation!.patch).toEqual([{ op: 'replace', path: '/secret', value: '[REDACTED]' }]);
    expect(r.audit).toHaveLength(1);
    expect(steps.every((s) => !s.divergent && !s.duplicate && !s.not_reached)).toBe(true);
    // No recorded decisions: the blocked rm really ran, so what follows is counterfactual [R7].
    expect(steps.map((s) => s.counterfactual)).toEqual([false, false, true]);
  });

  it('[R2] state (variables) is carried from each step to the next', () => {
    const events = [1, 2, 3, 4, 5].map((i) => te(`e${i}`, 'tool.before_call', { tool_name: 'ls' }));
    const steps = replayTrace(policy(), events);
    expect(steps.map((s) => s.state_after.vars.calls)).toEqual([1, 2, 3, 4, 5]);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.state_before).toBe(steps[i - 1]!.state_after);
    expect(outcomes(steps)).toBe('cccbb');
    expect(steps[3]!.reason).toBe('over budget: 4');
  });

  it('[R2] replay starts from the given initial state', () => {
    const steps = replayTrace(policy(), [te('e1', 'tool.before_call', { tool_name: 'ls' })], { initialState: initialState({ calls: 3 }) });
    expect(steps[0]).toMatchObject({ outcome: 'block_action', reason: 'over budget: 4' });
  });

  it('[R3] each event is dispatched at its own ts by default; a ts that does not parse takes the previous time', () => {
    const events = [te('e1', 'agent.start', {}, { at: 5 }), te('e2', 'agent.start', {}, { ts: 'not a time' }), te('e3', 'agent.start', {}, { at: 9 })];
    const steps = replayTrace(policy(), events);
    expect(steps.map((s) => s.now)).toEqual([at(5), at(5), at(9)]);
    // The clock reaches handlers: the audit record's timestamp.
    expect(steps.map((s) => s.audit[0]!.timestamp)).toEqual([new Date(at(5)).toISOString(), new Date(at(5)).toISOString(), new Date(at(9)).toISOString()]);
    expect(replayTrace(policy(), [te('e0', 'agent.start', {}, { ts: 'bad' })])[0]!.now).toBe(0);
  });

  it('[R3] an injected clock replaces event times', () => {
    const steps = replayTrace(policy(), [te('e1', 'agent.start'), te('e2', 'agent.start')], { clock: (_e, i) => 1000 * (i + 1) });
    expect(steps.map((s) => s.now)).toEqual([1000, 2000]);
    expect(steps[1]!.audit[0]!.timestamp).toBe('1970-01-01T00:00:02.000Z');
  });

  it('[R3] replaying twice gives the same steps', () => {
    const events = [te('e0', 'agent.start'), te('e1', 'tool.before_call', { tool_name: 'rm', path: '/' }), te('e2', 'tool.after_call', { secret: 1 }), te('e3', 'tool.before_call', { tool_name: 'ls' })];
    expect(replayTrace(policy(), events)).toEqual(replayTrace(policy(), events));
  });

  it('[R4][D4] after a TERMINATE later events are not dispatched and say so', () => {
    const c = compile(pipeline([ev('e', 'tool.before_call'), ev('any', '*'), match('m', { 'payload.kill': true }), handler('t', terminate('stop everything'), { name: 'Kill switch', order: 1 }), handler('log', audit(), { order: 2 })], ['e->m', 'm->t', 'any->log']));
    const events = [te('e0', 'agent.start'), te('e1', 'tool.before_call', { kill: true }), te('e2', 'tool.before_call', { kill: false }), te('e3', 'agent.end')];
    const steps = replayTrace(c, events);
    expect(outcomes(steps)).toBe('ctnn');
    const after = steps[2]!;
    expect(after).toMatchObject({ not_reached: true, ended_at: 1, decision: 'terminate', reason: 'stop everything', decided_by: 't', blocked: true, explanation: null, audit: [], errors: [] });
    expect(after.payload_after).toBe(after.payload_before);
    expect(after.state_after).toBe(steps[1]!.state_after);
    expect(after.notes[0]).toEqual({ kind: 'not_reached', text: 'Not dispatched: the run ended at step 2, where “Kill switch” decided TERMINATE (stop everything).' });
    expect(steps[3]!.mode).toBe('async');
  });

  it('[R5][E5] a repeated event id returns the earlier step\'s result and runs nothing', () => {
    const events = [te('a', 'tool.before_call', { tool_name: 'rm', path: '/x' }), te('b', 'tool.before_call', { tool_name: 'ls' }), te('a', 'tool.before_call', { tool_name: 'ls', path: 'changed' }), te('b', 'tool.before_call', { tool_name: 'ls' })];
    const steps = replayTrace(policy(), events);
    const dup = steps[2]!;
    expect(dup).toMatchObject({ duplicate: true, duplicate_of: 0, decision: 'block_action', reason: 'no rm: /x', decided_by: 'block-rm', explanation: null, blocked: true, audit: [], errors: [] });
    // The log ran on step 2; its repeat audits nothing again.
    expect(steps[1]!.audit).toHaveLength(1);
    expect(steps[3]).toMatchObject({ duplicate_of: 1, decision: 'continue', audit: [] });
    expect(dup.payload_after).toBe(steps[0]!.payload_after);
    expect(dup.payload_before).toEqual({ tool_name: 'ls', path: 'changed' });
    // Nothing ran: the budget did not count it.
    expect(dup.state_after).toBe(steps[1]!.state_after);
    expect(dup.state_after.vars.calls).toBe(1);
    expect(dup.notes[0]).toMatchObject({ kind: 'duplicate', text: expect.stringMatching(/^Same event id as step 1/) });
  });

  it('[R5] a repeated id after a TERMINATE still gets its earlier answer, as the session gives it', () => {
    const c = compile(pipeline([ev('e', '*'), match('m', { 'payload.kill': true }), handler('t', terminate('bye')), handler('s', stop('ok'), { order: 200 })], ['e->m', 'm->t', 'e->s']));
    const events = [te('x', 'custom.a', {}), te('k', 'custom.a', { kill: true }), te('x', 'custom.a', {}), te('y', 'custom.a', {})];
    const steps = replayTrace(c, events);
    expect(outcomes(steps)).toBe('stsn');
    expect(steps[2]).toMatchObject({ duplicate: true, duplicate_of: 0, not_reached: false, decision: 'stop_propagation' });
    const session = createSession(c, { clock: { now: () => 0 } });
    const fromSession = events.map((e) => session.dispatch(e));
    expect(fromSession.map((r) => [r.decision, r.duplicate, r.after_terminate])).toEqual(steps.map((s) => [s.decision, s.duplicate, s.not_reached]));
  });

  it('[R6] a recorded decision that differs from the replayed one is a divergence, with a summary', () => {
    const events: TraceEvent[] = [
      te('e1', 'tool.before_call', { tool_name: 'ls' }, { recorded: { decision: 'continue' } }),
      te('e2', 'tool.before_call', { tool_name: 'ls' }, { recorded: { decision: 'block_action', reason: 'old policy' } }),
      te('e3', 'tool.before_call', { tool_name: 'ls' }),
    ];
    const steps = replayTrace(policy(), events);
    expect(steps.map((s) => s.divergent)).toEqual([false, true, false]);
    expect(steps[1]!.recorded).toEqual({ decision: 'block_action', reason: 'old policy' });
    expect(steps[1]!.divergence).toBe('Recorded BLOCK_ACTION (old policy); replay decides CONTINUE. The action was blocked when recorded, so the trace does not show what it would have done.');
    // A block recorded and not replayed does not make later steps counterfactual: nothing ran that replay stopped.
    expect(steps.some((s) => s.counterfactual)).toBe(false);
  });

  it('[R7] after replay blocks an action that really ran, every later step is counterfactual', () => {
    const events: TraceEvent[] = [
      te('e1', 'tool.before_call', { tool_name: 'ls' }, { recorded: { decision: 'continue' } }),
      te('e2', 'tool.before_call', { tool_name: 'rm', path: '/etc' }, { recorded: { decision: 'continue' } }),
      te('e3', 'tool.after_call', { tool_name: 'rm' }),
      te('e4', 'agent.end'),
    ];
    const steps = replayTrace(policy(), events);
    expect(steps.map((s) => s.counterfactual)).toEqual([false, false, true, true]);
    expect(steps.map((s) => s.counterfactual_since)).toEqual([null, null, 1, 1]);
    expect(steps[1]!.divergence).toBe('Recorded CONTINUE; replay decides BLOCK_ACTION by “Block rm” (no rm: /etc). The action really ran, so the steps after this one are counterfactual.');
    expect(steps[2]!.notes).toContainEqual({ kind: 'counterfactual', text: 'Counterfactual: step 2 blocked an action that really ran; from there on the trace shows what happened without that block.' });
  });

  it('[R7] without a recorded decision the action counts as having run (an imported recording lists what happened)', () => {
    const steps = replayTrace(policy(), [te('e1', 'tool.before_call', { tool_name: 'rm' }), te('e2', 'tool.after_call', {})]);
    expect(steps[0]!.divergent).toBe(false);
    expect(steps[1]!.counterfactual).toBe(true);
  });

  it('[R7] a block that production also made starts nothing counterfactual', () => {
    const steps = replayTrace(policy(), [te('e1', 'tool.before_call', { tool_name: 'rm' }, { recorded: { decision: 'block_action' } }), te('e2', 'agent.end')]);
    expect(steps[0]!.divergent).toBe(false);
    expect(steps[1]!.counterfactual).toBe(false);
  });

  it('[R7] a replayed TERMINATE of an action that ran makes the not-reached steps counterfactual too', () => {
    const c = compile(pipeline([ev('e', 'tool.before_call'), handler('t', terminate('no tools'))], ['e->t']));
    const steps = replayTrace(c, [te('e1', 'tool.before_call', {}, { recorded: { decision: 'continue' } }), te('e2', 'tool.after_call', {}, { recorded: { decision: 'continue' } })]);
    expect(steps[1]).toMatchObject({ not_reached: true, counterfactual: true, counterfactual_since: 0, divergent: false });
  });

  it('[R8] fast mode gives the same steps without explanations', () => {
    const events = [te('e0', 'agent.start'), te('e1', 'tool.before_call', { tool_name: 'rm' }), te('e1', 'tool.before_call', {}), te('e2', 'tool.after_call', { secret: 'x' }, { recorded: { decision: 'terminate' } })];
    const explained = replayTrace(policy(), events);
    const fast = replayTrace(policy(), events, { explain: false });
    expect(fast.every((s) => s.explanation === null)).toBe(true);
    expect(fast).toEqual(explained.map((s) => ({ ...s, explanation: null })));
  });

  it('[R1] replaySteps is lazy and accepts an EventSource; createReplayRun takes events one at a time', () => {
    const events = [te('e0', 'agent.start'), te('e1', 'tool.before_call', { tool_name: 'rm' })];
    let asked = 0;
    const gen = replaySteps(policy(), { count: 2, get: (i) => (asked++, events[i]!) });
    expect(asked).toBe(0);
    expect(gen.next().value!.index).toBe(0);
    expect(asked).toBe(1);
    const run = createReplayRun(policy(), { explain: false });
    expect(run.push(events[0]!).index).toBe(0);
    expect(run.push(events[1]!).outcome).toBe('block_action');
    expect(run.count).toBe(2);
    expect(() => [...replaySteps(policy(), { count: -1, get: () => events[0]! })]).toThrow(/non-negative integer/);
  });
});
