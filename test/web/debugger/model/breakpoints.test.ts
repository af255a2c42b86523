import { describe, expect, it } from 'vitest';
import { breakpointNode, triggerChoice, triggerSpec, type BreakpointSpec } from '../../../../web/debugger/model/breakpoints.ts';
import { createAppStore } from '../../../../web/store/appStore.ts';
import { dotState, selectNodeBreakpoints } from '../../../../web/debugger/nodeBreakpoints.ts';

// A breakpoint's trigger as the editor's fields edit it, and a trigger replaced in place (web/debugger).

describe('a breakpoint trigger as fields', () => {
  it('reads back as the same trigger, for every kind', () => {
    const specs: BreakpointSpec[] = [
      { kind: 'event_type', type: 'tool.after_call' },
      { kind: 'handler', handler_id: 'h1' },
      { kind: 'handler', handler_id: 'h1', on: 'rewrites' },
      { kind: 'matcher', matcher_id: 'm1' },
      { kind: 'decision', decision: 'blocked' },
      { kind: 'condition' },
    ];
    for (const spec of specs) expect(triggerSpec(triggerChoice(spec))).toEqual(spec);
  });

  it('is none when a kind that needs a value has none or an unknown decision', () => {
    expect(triggerSpec({ kind: 'handler', value: '', on: 'fires' })).toBeNull();
    expect(triggerSpec({ kind: 'decision', value: 'maybe', on: 'fires' })).toBeNull();
  });
});

describe('replacing a breakpoint', () => {
  it('changes its trigger in place, its id following the trigger, and keeps a condition alone\'s id', () => {
    const store = createAppStore();
    const s = () => store.getState();
    s().addBreakpoint({ kind: 'decision', decision: 'blocked' });
    const id = s().addBreakpoint({ kind: 'handler', handler_id: 'h1', when: { 'payload.tool_name': 'Bash' } });
    s().addBreakpoint({ kind: 'event_type', type: 'agent.end' });
    const next = s().replaceBreakpoint(id, { kind: 'handler', handler_id: 'h2', on: 'blocks', when: { 'payload.tool_name': 'Bash' }, hits: { count: 1, mode: 'from' } });
    expect(next).toBe('handler:h2:blocks');
    expect(s().breakpoints.map((b) => b.id)).toEqual(['decision:blocked', 'handler:h2:blocks', 'type:agent.end']);
    // The default hit count is stored as absent, as updateBreakpoint does.
    expect(s().breakpoints[1]).toEqual({ kind: 'handler', handler_id: 'h2', on: 'blocks', when: { 'payload.tool_name': 'Bash' }, id: 'handler:h2:blocks' });
    const cond = s().addBreakpoint({ kind: 'condition', when: { 'state.n': { gt: 1 } } });
    expect(s().replaceBreakpoint(cond, { kind: 'condition', when: { 'state.n': { gt: 2 } } })).toBe(cond);
  });

  it('refuses a trigger another breakpoint has, and changes nothing', () => {
    const store = createAppStore();
    const s = () => store.getState();
    s().addBreakpoint({ kind: 'decision', decision: 'blocked' });
    const id = s().addBreakpoint({ kind: 'matcher', matcher_id: 'm1' });
    const before = s().breakpoints;
    expect(s().replaceBreakpoint(id, { kind: 'decision', decision: 'blocked' })).toBeNull();
    expect(s().breakpoints).toBe(before);
    expect(s().replaceBreakpoint('gone', { kind: 'decision', decision: 'continue' })).toBeNull();
  });
});

describe('a node\'s breakpoint dot', () => {
  it('is what the store holds for the node: on, off when every one is disabled, none', () => {
    const store = createAppStore();
    const s = () => store.getState();
    const fires = s().addBreakpoint({ kind: 'handler', handler_id: 'h1' });
    s().addBreakpoint({ kind: 'handler', handler_id: 'h1', on: 'blocks' });
    s().addBreakpoint({ kind: 'event_type', type: 'h1' });
    const list = selectNodeBreakpoints('h1')(s());
    expect(list.map(breakpointNode)).toEqual(['h1', 'h1']);
    // The same array while the list is the same (a stable selector result for React).
    expect(selectNodeBreakpoints('h1')(s())).toBe(list);
    expect(dotState(list)).toBe('on');
    s().toggleBreakpoint(fires);
    s().toggleBreakpoint('handler:h1:blocks');
    expect(dotState(selectNodeBreakpoints('h1')(s()))).toBe('off');
    expect(dotState(selectNodeBreakpoints('m1')(s()))).toBe('none');
  });
});
