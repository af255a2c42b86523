import { describe, expect, it } from 'vitest';
import { checkWire } from '../../../engine/model/checkWire.ts';
import type { PipelineNode, Wire } from '../../../engine/model/pipelineTypes.ts';

const ev = (id: string): PipelineNode => ({ id, kind: 'event', pattern: 'tool.before_call' });
const m = (id: string): PipelineNode => ({ id, kind: 'matcher', when: { 'payload.x': 1 } });
const h = (id: string): PipelineNode => ({
  id, kind: 'handler', name: id, order: 1, enabled: true, shadow: false, on_error: 'block', action: { type: 'stop' },
});

const nodes = [ev('e'), m('m1'), m('m2'), m('m3'), h('h')];
const wires: Wire[] = [{ from: 'e', to: 'm1' }, { from: 'm1', to: 'm2' }, { from: 'm2', to: 'm3' }];
const code = (w: Wire) => checkWire({ nodes, wires }, w)?.code ?? null;

describe('checkWire', () => {
  it('[V3] allows event → matcher/handler and matcher → matcher/handler', () => {
    expect(code({ from: 'e', to: 'h' })).toBeNull();
    expect(code({ from: 'm3', to: 'h' })).toBeNull();
    expect(code({ from: 'e', to: 'm2' })).toBeNull();
  });

  it('[V3] refuses a handler feeding anything and anything feeding an event', () => {
    expect(code({ from: 'h', to: 'm1' })).toBe('bad_wire');
    expect(checkWire({ nodes, wires }, { from: 'h', to: 'm1' })?.message).toMatch(/handler/);
    expect(code({ from: 'm1', to: 'e' })).toBe('bad_wire');
    expect(checkWire({ nodes, wires }, { from: 'm1', to: 'e' })?.message).toMatch(/event node/);
  });

  it('[V3] refuses cycles, self-wires and duplicates', () => {
    expect(code({ from: 'm3', to: 'm1' })).toBe('cycle');
    expect(code({ from: 'm2', to: 'm2' })).toBe('cycle');
    expect(code({ from: 'm1', to: 'm2' })).toBe('duplicate_wire');
  });

  it('[V3] reports a missing end', () => {
    expect(code({ from: 'e', to: 'nope' })).toBe('missing_node');
  });

  it('[V8] treats __proto__ as an ordinary id', () => {
    const n = [...nodes, m('__proto__')];
    expect(checkWire({ nodes: n, wires }, { from: 'e', to: '__proto__' })).toBeNull();
  });
});
