import { describe, expect, it } from 'vitest';
import { createReplayer, createTraceDiff, diffPipelines, replayTrace, traceCoverage, transitionSentence, type PipelineInput } from '../../../engine/index.ts';
import { audit, block, compile, ev, handler, match, pipeline, terminate } from '../helpers.ts';
import { te } from './helpers.ts';

const redactPath = { type: 'rewrite' as const, ops: [{ op: 'set' as const, path: 'payload.path', value: '***' }] };

/** v1 blocks rm and Bash; v2 blocks only rm, with another reason, redacts paths, and terminates on `kill`. */
function versions(): [PipelineInput, PipelineInput] {
  const v1 = pipeline(
    [ev('before', 'tool.before_call'), match('danger', { 'payload.tool_name': { in: ['rm', 'Bash'] } }), handler('gate', block('dangerous {{payload.tool_name}}'), { name: 'Gate' }), ev('all', '*'), handler('log', audit(), { order: 200 })],
    ['before->danger', 'danger->gate', 'all->log'],
  );
  const v2 = pipeline(
    [
      ev('before', 'tool.before_call'),
      match('danger', { 'payload.tool_name': 'rm' }),
      handler('gate', block('rm is not allowed'), { name: 'Gate' }),
      ev('after', 'tool.after_call'),
      handler('redact', redactPath, { name: 'Redact paths' }),
      match('mkill', { 'payload.kill': true }),
      handler('kill', terminate('killed'), { order: 1 }),
      ev('all', '*'),
      handler('log', audit(), { order: 200 }),
    ],
    ['before->danger', 'danger->gate', 'after->redact', 'all->mkill', 'mkill->kill', 'all->log'],
  );
  return [v1, v2];
}

const events = [
  te('e0', 'agent.start'),
  te('e1', 'tool.before_call', { tool_name: 'Bash', command: 'ls' }),
  te('e2', 'tool.after_call', { tool_name: 'Bash', path: '/a' }),
  te('e3', 'tool.before_call', { tool_name: 'Bash', command: 'pwd' }),
  te('e4', 'tool.before_call', { tool_name: 'rm', path: '/x' }),
  te('e5', 'tool.before_call', { tool_name: 'Read' }),
  te('e6', 'tool.before_call', { tool_name: 'Bash' }),
  te('e7', 'custom.note', { kill: true }),
  te('e8', 'tool.before_call', { tool_name: 'rm' }),
  te('e9', 'agent.end'),
];

describe('pipeline diff over a trace', () => {
  it('[R12] the deciding handler and the added context are compared too: same outcome and reason, another decider, other context', () => {
    const hint = (text: string) => ({ type: 'add_context' as const, text });
    const v1 = compile(pipeline(
      [ev('before', 'tool.before_call'), handler('first', block('no'), { order: 1 }), handler('hint', hint('be careful'), { order: 0 })],
      ['before->first', 'before->hint'],
    ));
    const v2 = compile(pipeline(
      [ev('before', 'tool.before_call'), handler('second', block('no'), { order: 1 }), handler('hint', hint('be very careful'), { order: 0 })],
      ['before->second', 'before->hint'],
    ));
    const d = diffPipelines(v1, v2, [te('e1', 'tool.before_call', { tool_name: 'Bash' })]);
    expect(d.changed.map((c) => c.changes)).toEqual([['decided_by', 'context']]);
    expect(d.changed[0]!.before).toMatchObject({ decided_by: 'first', context: ['be careful'] });
    expect(d.changed[0]!.after).toMatchObject({ decided_by: 'second', context: ['be very careful'] });
    expect(d.decider_changed).toBe(1);
    expect(d.context_changed).toBe(1);
    expect(d.summary).toEqual(['1 event keeps its decision and reason, decided by another handler', '1 event adds different context for the model']);
    // Equal pipelines never differ, context included.
    expect(diffPipelines(v1, v1, [te('e1', 'tool.before_call', { tool_name: 'Bash' })]).changed_count).toBe(0);
  });

  it('[R12] reports every event whose outcome, reason or final payload differs, and counts transitions', () => {
    const [v1, v2] = versions().map((d) => compile(d)) as [ReturnType<typeof compile>, ReturnType<typeof compile>];
    const d = diffPipelines(v1, v2, events);
    expect(d.events).toBe(10);
    expect(d.changed.map((c) => [c.index, c.changes])).toEqual([
      [1, ['outcome']],
      [2, ['payload']],
      [3, ['outcome']],
      [4, ['reason']],
      [6, ['outcome']],
      [7, ['outcome']],
      [8, ['outcome']],
      [9, ['outcome']],
    ]);
    expect(d.changed[0]!.before).toMatchObject({ outcome: 'block_action', reason: 'dangerous Bash', decided_by: 'gate' });
    expect(d.changed[0]!.after).toMatchObject({ outcome: 'continue', reason: '', decided_by: null });
    expect(d.changed[1]!.patch).toEqual([{ op: 'replace', path: '/path', value: '***' }]);
    expect(d.transitions.map((t) => [t.from, t.to, t.count])).toEqual([
      ['block_action', 'continue', 3],
      ['continue', 'terminate', 1],
      ['continue', 'not_reached', 1],
      ['block_action', 'not_reached', 1],
    ]);
    expect(d.summary).toEqual([
      '3 events blocked before now continue',
      '1 event continued before now terminates the run',
      '1 event continued before now is not reached',
      '1 event blocked before now is not reached',
      '1 event keeps its decision with a different reason',
      '1 event ends with a different payload',
    ]);
    expect(d.changed_count).toBe(8);
    expect(d.reason_changed).toBe(1);
    expect(d.payload_changed).toBe(1);
  });

  it('[R12] the diff agrees with two separate replays, and maxChanged limits the list, not the counts', () => {
    const [a, b] = versions().map((x) => compile(x)) as [ReturnType<typeof compile>, ReturnType<typeof compile>];
    const ra = replayTrace(a, events, { explain: false });
    const rb = replayTrace(b, events, { explain: false });
    const differing = ra.filter((s, i) => s.outcome !== rb[i]!.outcome || s.reason !== rb[i]!.reason || JSON.stringify(s.payload_after) !== JSON.stringify(rb[i]!.payload_after)).map((s) => s.index);
    const d = diffPipelines(a, b, events, { maxChanged: 2 });
    expect(d.changed.map((c) => c.index)).toEqual(differing.slice(0, 2));
    expect(d.changed_count).toBe(differing.length);
    const same = diffPipelines(a, a, events);
    expect(same.changed).toEqual([]);
    expect(same.summary).toEqual(['No event changes: both pipelines decide the same on all 10 events']);
    const pushed = createTraceDiff(a, b);
    expect(pushed.push(events[0]!)).toBeNull();
    expect(pushed.push(events[1]!)!.changes).toEqual(['outcome']);
    expect(pushed.result().changed_count).toBe(1);
  });

  it('[R12] transition sentences read well in the singular and plural', () => {
    expect(transitionSentence('block_action', 'continue', 3)).toBe('3 events blocked before now continue');
    expect(transitionSentence('continue', 'block_action', 1)).toBe('1 event continued before now blocks');
    expect(transitionSentence('not_reached', 'stop_propagation', 2)).toBe('2 events were not reached before now stop propagation');
  });
});

describe('coverage', () => {
  it('[R13] which handlers fired and how often, which never did, which event types no handler listens to', () => {
    const c = compile(versions()[1]);
    const cov = traceCoverage(c, [...events, te('e1', 'tool.before_call', { tool_name: 'rm' })]);
    expect(cov).toMatchObject({ steps: 11, dispatched: 8, duplicates: 1, not_reached: 2 });
    const by = Object.fromEntries(cov.handlers.map((h) => [h.handler_id, h]));
    expect(by.gate).toMatchObject({ fired: 1, decided: 1, errors: 0 });
    expect(by.gate!.statuses).toMatchObject({ fired: 1, not_matched: 4, wrong_event_type: 3 });
    // Every dispatched event (e0..e7) except e4, blocked by the gate first, and e7, whose kill ended the chain.
    expect(by.log!.fired).toBe(6);
    expect(by.log!.statuses.not_reached).toBe(2);
    expect(by.kill).toMatchObject({ fired: 1, decided: 1 });
    expect(by.redact).toMatchObject({ fired: 1, decided: 0 });
    expect(cov.fired).toEqual(['kill', 'gate', 'redact', 'log']);
    expect(cov.never_fired).toEqual([]);
    expect(cov.event_types.map((t) => [t.type, t.events])).toEqual([['agent.start', 1], ['tool.before_call', 7], ['tool.after_call', 1], ['custom.note', 1], ['agent.end', 1]]);
    expect(cov.uncovered_types).toEqual([]);
  });

  it('[R13] a handler behind a matcher that never holds never fires; a type nobody listens to is uncovered', () => {
    const c = compile(pipeline([ev('e', 'tool.before_call'), match('m', { 'payload.input': { exists: true } }), handler('never', block()), handler('off', audit(), { enabled: false }), ev('x', 'custom.*'), handler('x-log', audit())], ['e->m', 'm->never', 'e->off', 'x->x-log']));
    const cov = createReplayer(c, [te('e0', 'tool.before_call', { user_input: 'hi' }), te('e1', 'agent.start'), te('e2', 'custom.a')]).coverage();
    expect(cov.never_fired).toEqual(['never', 'off']);
    expect(cov.fired).toEqual(['x-log']);
    expect(cov.uncovered_types).toEqual(['agent.start']);
    expect(cov.event_types.find((t) => t.type === 'tool.before_call')!.live_handlers).toBe(1);
    expect(cov.handlers.find((h) => h.handler_id === 'off')!.statuses.disabled).toBe(3);
  });
});
