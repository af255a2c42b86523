import { describe, expect, it } from 'vitest';
import { breakpointId, breakpointLabel, engineBreakpoint, hitsLabel } from '../../../../web/debugger/model/breakpoints.ts';
import { moveTo, rowOf } from '../../../../web/debugger/model/stepNavigation.ts';
import { decisionQuery, filterQueries, isFiltering, NO_FILTER } from '../../../../web/debugger/model/timelineFilter.ts';

describe('timeline filters as engine step queries [R11]', () => {
  it('translates each filter to the query the replayer answers', () => {
    expect(isFiltering(NO_FILTER)).toBe(false);
    expect(isFiltering({ ...NO_FILTER, text: '  ' })).toBe(false);
    expect(filterQueries({ type: 'tool.before_call', decision: 'blocked', handler: 'h1', text: 'rm' })).toEqual([
      { kind: 'event_type', type: 'tool.before_call' },
      { kind: 'blocked' },
      { kind: 'fired', handler_id: 'h1' },
    ]);
    expect(decisionQuery('block_action')).toEqual({ kind: 'outcome', outcome: 'block_action' });
    expect(decisionQuery('not_reached')).toEqual({ kind: 'outcome', outcome: 'not_reached' });
    expect(decisionQuery('divergent')).toEqual({ kind: 'divergent' });
  });
});

describe('breakpoints', () => {
  it('[R18] are the engine\'s breakpoints, with stable ids and readable labels', () => {
    expect(engineBreakpoint({ kind: 'handler', handler_id: 'h' })).toEqual({ node: { id: 'h', on: 'fires' } });
    expect(engineBreakpoint({ kind: 'handler', handler_id: 'h', on: 'rewrites', hits: { count: 2, mode: 'at' } })).toEqual({ node: { id: 'h', on: 'rewrites' }, hits: { count: 2, mode: 'at' } });
    expect(engineBreakpoint({ kind: 'matcher', matcher_id: 'm' })).toEqual({ node: { id: 'm', on: 'matches' } });
    expect(engineBreakpoint({ kind: 'event_type', type: 't' })).toEqual({ step: { kind: 'event_type', type: 't' } });
    expect(engineBreakpoint({ kind: 'decision', decision: 'blocked', when: { 'payload.x': 1 } })).toEqual({ step: { kind: 'blocked' }, when: { 'payload.x': 1 } });
    expect(engineBreakpoint({ kind: 'condition', when: { 'state.n': { gt: 2 } } })).toEqual({ when: { 'state.n': { gt: 2 } } });
    expect(breakpointId({ kind: 'decision', decision: 'blocked' })).toBe('decision:blocked');
    expect(breakpointId({ kind: 'handler', handler_id: 'h', on: 'blocks' })).toBe('handler:h:blocks');
    expect(breakpointId({ kind: 'condition' })).not.toBe(breakpointId({ kind: 'condition' }));
    expect(breakpointLabel({ kind: 'handler', handler_id: 'h' }, () => 'Redact secrets')).toBe('“Redact secrets” fires');
    expect(breakpointLabel({ kind: 'decision', decision: 'blocked' }, () => undefined)).toBe('Decision: Blocked (block, terminate, denied ask)');
    expect(breakpointLabel({ kind: 'handler', handler_id: 'h', on: 'blocks', when: { 'payload.tool_name': 'Bash' }, hits: { count: 3, mode: 'at' } }, () => 'Block'))
      .toBe('“Block” blocks when tool_name = Bash (the 3rd hit only)');
    expect([hitsLabel(undefined), hitsLabel({ count: 1, mode: 'from' }), hitsLabel({ count: 2, mode: 'from' }), hitsLabel({ count: 11, mode: 'every' }), hitsLabel({ count: 22, mode: 'at' })])
      .toEqual([null, null, 'from the 2nd hit', 'every 11th hit', 'the 22nd hit only']);
  });
});

describe('moving through the timeline', () => {
  it('steps through every event without a filter, and stops at the ends', () => {
    expect(moveTo(0, 10, null, 'next')).toBe(1);
    expect(moveTo(0, 10, null, 'prev')).toBe(0);
    expect(moveTo(9, 10, null, 'next')).toBe(9);
    expect(moveTo(4, 10, null, 'first')).toBe(0);
    expect(moveTo(4, 10, null, 'last')).toBe(9);
    expect(moveTo(0, 0, null, 'next')).toBe(0);
  });

  it('steps through the visible steps only when a filter is on, from anywhere', () => {
    const visible = Int32Array.from([2, 5, 9]);
    expect(moveTo(0, 10, visible, 'next')).toBe(2);
    expect(moveTo(2, 10, visible, 'next')).toBe(5);
    expect(moveTo(6, 10, visible, 'next')).toBe(9);
    expect(moveTo(9, 10, visible, 'next')).toBe(9);
    expect(moveTo(6, 10, visible, 'prev')).toBe(5);
    expect(moveTo(2, 10, visible, 'prev')).toBe(2);
    expect(moveTo(4, 10, visible, 'first')).toBe(2);
    expect(moveTo(4, 10, visible, 'last')).toBe(9);
    expect(moveTo(4, 10, Int32Array.from([]), 'next')).toBe(4);
    expect(rowOf(5, visible)).toBe(1);
    expect(rowOf(6, visible)).toBe(1);
    expect(rowOf(6, null)).toBe(6);
  });
});
