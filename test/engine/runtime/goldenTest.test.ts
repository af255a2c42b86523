import { describe, expect, it } from 'vitest';
import { runGoldenTrace } from '../../../engine/runtime/goldenTest.ts';
import type { TraceEvent } from '../../../engine/index.ts';
import { block, compile, ev, handler, match, pipeline } from '../helpers.ts';
import { te } from '../replay/helpers.ts';

// A label written by a person (a decision and a note) is a golden test as it stands [P11][B7].
describe('golden tests', () => {
  it('[P11][B7] meta.expect may carry a note: it is never checked, and the handlers never see the label', () => {
    const p = compile(pipeline([ev('before', 'tool.before_call'), match('rm', { 'payload.tool_name': 'rm' }), handler('no-rm', block('no rm'))], ['before->rm', 'rm->no-rm']));
    const events: TraceEvent[] = [
      { ...te('a', 'tool.before_call', { tool_name: 'rm' }), meta: { expect: { decision: 'block_action', note: 'never delete' } } },
      { ...te('b', 'tool.before_call', { tool_name: 'ls' }), meta: { expect: { decision: 'block_action', note: 'ls is fine, really' } } },
      { ...te('c', 'tool.before_call', { tool_name: 'ls' }), meta: { expect: { decision: 'continue', nope: 1 } } },
    ];
    const r = runGoldenTrace(p, events);
    expect(r.checks.map((c) => [c.event_id, c.pass, c.failures])).toEqual([
      ['a', true, []],
      ['b', false, ['decision: expected block_action, got continue']],
    ]);
    expect(r.problems).toEqual([expect.stringMatching(/^event c: meta\.expect: .*nope/)]);
  });
});
