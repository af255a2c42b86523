import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DECISIONS } from '../../../engine/model/decision.ts';
import { HANDLER_RESULT_KEYS, MAX_PAYLOAD_CHARS, readHandlerResult, readMatcherResult, sandboxInput } from '../../../engine/sandbox/codeResult.ts';
import type { JsonObject, JsonValue } from '../../../engine/model/json.ts';

const jsonObject = fc.dictionary(fc.string(), fc.jsonValue()) as fc.Arbitrary<JsonObject>;

describe('readHandlerResult [S4]', () => {
  it('[S4] never throws, and an error always has the invalid_result or too_large kind and a message', () => {
    fc.assert(
      fc.property(fc.option(fc.jsonValue(), { nil: undefined }), (v) => {
        const r = readHandlerResult(v as JsonValue | undefined);
        if (!r.ok) {
          expect(['invalid_result', 'too_large']).toContain(r.error.kind);
          expect(r.error.message.length).toBeGreaterThan(10);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('[S4] a well-formed result reads back as the outcome it describes', () => {
    fc.assert(
      fc.property(
        fc.record(
          { decision: fc.constantFrom(...DECISIONS), reason: fc.string(), new_payload: jsonObject, state_patch: jsonObject },
          { requiredKeys: [] },
        ),
        (result) => {
          const r = readHandlerResult(result as JsonObject);
          expect(r).toEqual({ ok: true, outcome: { decision: 'continue', ...result } });
        },
      ),
    );
  });

  it('[S4] any key outside the known ones is refused and named', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((k) => !(HANDLER_RESULT_KEYS as readonly string[]).includes(k)), (key) => {
        const r = readHandlerResult(JSON.parse(`{${JSON.stringify(key)}: 1}`) as JsonObject);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error.message).toContain(`unknown key ${JSON.stringify(key)}`);
      }),
    );
  });

  it('[S4] __proto__ as a result key is refused as unknown, not read through the prototype', () => {
    const r = readHandlerResult(JSON.parse('{"__proto__": {"decision": "terminate"}}') as JsonObject);
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_result', message: expect.stringContaining('"__proto__"') } });
  });

  it('[S4] undefined and null continue; decision defaults to continue', () => {
    expect(readHandlerResult(undefined)).toEqual({ ok: true, outcome: { decision: 'continue' } });
    expect(readHandlerResult(null)).toEqual({ ok: true, outcome: { decision: 'continue' } });
    expect(readHandlerResult({ reason: 'why' })).toEqual({ ok: true, outcome: { decision: 'continue', reason: 'why' } });
  });

  it('[S4] new_payload at the limit passes and one character more is too large', () => {
    const fill = (n: number) => ({ s: 'x'.repeat(n - '{"s":""}'.length) });
    expect(JSON.stringify(fill(MAX_PAYLOAD_CHARS)).length).toBe(MAX_PAYLOAD_CHARS);
    expect(readHandlerResult({ new_payload: fill(MAX_PAYLOAD_CHARS) }).ok).toBe(true);
    expect(readHandlerResult({ new_payload: fill(MAX_PAYLOAD_CHARS + 1) })).toMatchObject({ ok: false, error: { kind: 'too_large' } });
  });

  it('[S4] state and state_patch are one thing: either is read, both are refused', () => {
    expect(readHandlerResult({ state: { a: 1 } })).toEqual({ ok: true, outcome: { decision: 'continue', state_patch: { a: 1 } } });
    expect(readHandlerResult({ state_patch: { a: 1 }, state: null })).toEqual({ ok: true, outcome: { decision: 'continue', state_patch: { a: 1 } } });
    expect(readHandlerResult({ state_patch: { a: 1 }, state: { b: 2 } })).toMatchObject({ ok: false });
  });
});

describe('readMatcherResult [S5]', () => {
  it('[S5] only a boolean is a verdict', () => {
    fc.assert(
      fc.property(fc.option(fc.jsonValue(), { nil: undefined }), (v) => {
        const r = readMatcherResult(v as JsonValue | undefined);
        expect(r.ok).toBe(typeof v === 'boolean');
        if (r.ok) expect(r.pass).toBe(v);
      }),
    );
  });
});

describe('sandboxInput [S2]', () => {
  it('[S2] gives the event fields, the current payload, the state, the meta (or {}) and the time', () => {
    const event = { event_id: 'e', trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: 'T', payload: { original: true } };
    expect(sandboxInput({ event, payload: { current: true }, state: { s: 1 }, now: 5 })).toEqual({
      event: { type: 'tool.before_call', event_id: 'e', trace_id: 't', agent_id: 'a', ts: 'T' },
      payload: { current: true },
      state: { s: 1 },
      meta: {},
      now: 5,
    });
    expect(sandboxInput({ event: { ...event, meta: { user_id: 'u' } }, payload: {}, state: {}, now: 0 }).meta).toEqual({ user_id: 'u' });
  });
});
