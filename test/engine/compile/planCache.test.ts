import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, LIFECYCLE_EVENT_TYPES } from '../../../engine/index.ts';
import { audit, ev, handler, match, pipeline } from '../helpers.ts';

// compilePipeline's plan cache (a direct-mapped slot per type before the plan map) must give every type its
// own plan, whatever the types collide on and in whatever order they come.
describe('plan cache', () => {
  const doc = pipeline(
    [ev('e1', 'tool.*'), ev('e2', '*'), match('m1', { 'payload.x': 1 }), handler('h1', audit()), handler('h2', audit())],
    ['e1->m1', 'm1->h1', 'e2->h2'],
  );
  const types = fc.oneof(
    fc.constantFrom(...LIFECYCLE_EVENT_TYPES),
    fc.constantFrom('', 'a', '__proto__', 'constructor', 'tool.x', 'tool.y', 'custom.tool.before_call', 'tool.before_calm'),
    fc.string({ maxLength: 20 }),
  );

  it('[M1][V5] the plan of each type is that type\'s, in any order of types (colliding slots, "__proto__", the empty type)', () => {
    fc.assert(
      fc.property(fc.array(types, { minLength: 1, maxLength: 40 }), (seq) => {
        const r = compilePipeline(doc);
        if (!r.ok) throw new Error('invalid test pipeline');
        for (const t of seq) {
          const p = r.compiled.plan(t);
          expect(p.type).toBe(t);
          const live = t.startsWith('tool.') ? 2 : 1;
          expect(p.liveCount).toBe(live);
          expect(r.compiled.plan(t)).toBe(p);
        }
      }),
      { numRuns: 500 },
    );
  });
});
