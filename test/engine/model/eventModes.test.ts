import { describe, expect, it } from 'vitest';
import { eventModes, patternMode } from '../../../engine/model/eventModes.ts';
import { LIFECYCLE_EVENTS } from '../../../engine/model/event.ts';

describe('event modes', () => {
  it('[D8] a declared mode wins over the catalogue; unknown types are sync', () => {
    const builtinAsync = LIFECYCLE_EVENTS.find((e) => e.mode === 'async')!;
    const m = eventModes({ event_types: [{ type: 'billing.charge', mode: 'async' }, { type: builtinAsync.type, mode: 'sync' }] });
    expect(m.modeOf('billing.charge')).toBe('async');
    expect(m.modeOf(builtinAsync.type)).toBe('sync');
    expect(m.modeOf('never.heard_of')).toBe('sync');
    expect(m.modeOf('__proto__')).toBe('sync');
  });

  it('[M1][D8] a wildcard pattern stands for the modes of the known types it selects', () => {
    const m = eventModes({ event_types: [{ type: 'billing.charge', mode: 'async' }, { type: 'billing.refund', mode: 'sync' }] });
    expect(patternMode('billing.*', m)).toBe('mixed');
    expect(patternMode('billing.charge', m)).toBe('async');
    expect(patternMode('nothing.*', m)).toBe('sync');
    const modes = new Set(LIFECYCLE_EVENTS.map((e) => e.mode));
    expect(patternMode('*', eventModes({ event_types: [] }))).toBe(modes.size > 1 ? 'mixed' : [...modes][0]);
  });
});
