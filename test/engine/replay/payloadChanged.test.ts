import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createReplayer, jsonEqual, replayTrace, STEP_FLAG } from '../../../engine/index.ts';
import { compile, ev, handler, pipeline } from '../helpers.ts';
import { te } from './helpers.ts';

/** A redact rule at a path: it hands back a copy of the payload whether or not its pattern matched. */
const redactSecrets = () =>
  compile(pipeline([ev('e', 'model.after_call'), handler('h', { type: 'rewrite', ops: [{ op: 'redact', path: 'payload.text', pattern: 'sk-[a-z0-9]{8,}' }] })], ['e->h']));

describe('payload_changed', () => {
  it('[R10] a rewrite that matched nothing is no change: not flagged on the step, the timeline or the CLI\'s notes', () => {
    const c = redactSecrets();
    const events = [te('e1', 'model.after_call', { text: 'nothing secret here' }), te('e2', 'model.after_call', { text: 'key sk-abcdef123456' })];
    const steps = replayTrace(c, events);
    expect(steps[0]!.payload_after).not.toBe(steps[0]!.payload_before);
    expect(steps.map((s) => s.payload_changed)).toEqual([false, true]);
    const t = createReplayer(c, events).timeline();
    expect([0, 1].map((i) => (t.flags[i]! & STEP_FLAG.payload_changed) !== 0)).toEqual([false, true]);
  });

  it('[R10] payload_changed is exactly "the value after differs from the value before"', () => {
    const c = redactSecrets();
    const text = fc.oneof(fc.string({ maxLength: 20 }), fc.stringMatching(/^.{0,5}sk-[a-z0-9]{6,10}.{0,5}$/));
    fc.assert(
      fc.property(fc.array(fc.record({ text, n: fc.integer() }), { minLength: 1, maxLength: 6 }), (payloads) => {
        const steps = replayTrace(c, payloads.map((p, i) => te(`e${i}`, 'model.after_call', p)));
        for (const s of steps) expect(s.payload_changed).toBe(!jsonEqual(s.payload_before, s.payload_after));
      }),
      { numRuns: 150 },
    );
  });
});
