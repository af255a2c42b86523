import { describe, expect, it } from 'vitest';
import type { Condition } from '../../../engine/model/pipelineTypes.ts';
import { describeCondition, describeMatcher, shortPath } from '../../../engine/model/describeCondition.ts';

describe('describeCondition', () => {
  it('summarises the seed condition as people read it', () => {
    expect(describeCondition({ 'payload.tool_name': { in: ['delete_file', 'run_shell'] } })).toBe('tool_name in [delete_file, run_shell]');
  });

  it('[C3] reads a bare operand as eq and several operators as and', () => {
    expect(describeCondition({ 'payload.tool_name': 'Bash' })).toBe('tool_name = Bash');
    expect(describeCondition({ 'payload.n': { gt: 1, lte: 5 } })).toBe('n > 1 and n ≤ 5');
  });

  it('keeps non-payload roots and quotes strings with spaces', () => {
    expect(describeCondition({ 'state.mode': { eq: 'dry run' } })).toBe('state.mode = "dry run"');
    expect(shortPath('meta.user_id')).toBe('meta.user_id');
  });

  it('shows regexes as /pattern/flags in both forms', () => {
    expect(describeCondition({ 'payload.input': { regex: { pattern: 'ignore (all )?previous', flags: 'i' } } })).toBe(
      'input matches /ignore (all )?previous/i',
    );
    expect(describeCondition({ 'payload.cmd': { regex: '\\bsudo\\b' } })).toBe('cmd matches /\\bsudo\\b/');
  });

  it('[C8] writes all/any/not groups with parentheses where needed', () => {
    const c: Condition = {
      any: [{ 'payload.tool_name': 'Bash' }, { 'payload.tool_name': { prefix: 'mcp__' }, 'state.n': { lt: 3 } }],
      not: { 'payload.dry': { exists: true } },
    };
    expect(describeCondition(c)).toBe('(tool_name = Bash or (tool_name starts with mcp__ and state.n < 3)) and not has dry');
    expect(describeCondition({ all: [] })).toBe('always');
    expect(describeCondition({ any: [] })).toBe('never');
    expect(describeCondition({})).toBe('always');
  });

  it('shows an unknown operator as written instead of guessing', () => {
    expect(describeCondition({ 'payload.x': { near: 3 } })).toBe('x near 3');
  });

  it('[V8] treats __proto__ as a plain path name', () => {
    const c = JSON.parse('{"payload.__proto__": {"eq": 1}}');
    expect(describeCondition(c)).toBe('__proto__ = 1');
  });

  it('clips long summaries with an ellipsis', () => {
    const s = describeCondition({ 'payload.tool_name': { in: Array.from({ length: 40 }, (_, i) => `tool_${i}`) } }, 40);
    expect(s).toHaveLength(40);
    expect(s.endsWith('…')).toBe(true);
  });
});

describe('describeMatcher', () => {
  it('[M7] includes the tools/agents shorthands, the condition and code', () => {
    expect(describeMatcher({ id: 'm', kind: 'matcher', tools: ['Bash'], when: { 'payload.x': { exists: false } } })).toBe(
      'tool_name in [Bash] and no x',
    );
    expect(describeMatcher({ id: 'm', kind: 'matcher', agents: ['a1'] })).toBe('agent_id in [a1]');
    expect(describeMatcher({ id: 'm', kind: 'matcher', code: { language: 'ts', source: 'return true' } })).toBe('code (ts)');
    expect(describeMatcher({ id: 'm', kind: 'matcher' })).toBe('no condition');
  });
});
