// Random and mutated JSON fed to every entry point: load, compile, the runtime, trace reading, imports and
// emit answer with a result or a problem, and never throw (a TypeError from emit is its documented answer
// to a caller's bug [P3]). The time bound is the test's timeout: every walk is linear, so none comes near it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, loadPipeline, parsePipelineText, type JsonObject, type JsonValue } from '../../../engine/index.ts';
import { createRuntime } from '../../../engine/runtime/index.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { TRACE_FORMATS } from '../../../engine/trace/detectTraceFormat.ts';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { deepArrayText, deepObjectText, eventLine, OVERSIZED_PAYLOADS, TRACE_HEADER } from './corpus.ts';

const GUARD = readFileSync(join(__dirname, '..', 'node', 'fixtures', 'guard.pipeline.json'), 'utf8');
const json = fc.jsonValue({ maxDepth: 6 }) as fc.Arbitrary<JsonValue>;
/** JSON text: random values, near-valid documents, and the deep corpus. */
const nasty = fc.constantFrom(deepObjectText(5000), deepArrayText(5000), '{"a":', '[', '"\\u0000"', 'null', '1e999', '{"__proto__":{"x":1}}', '');
/** Payloads past each size limit [V12], built once (each is megabytes). */
const OVERSIZED = Object.values(OVERSIZED_PAYLOADS).map((make) => make());
const oversizedLine = fc.constantFrom(...OVERSIZED.map((p, i) => eventLine(`big${i}`, p)));
const oversizedPayload = fc.constantFrom(...OVERSIZED).map((t) => JSON.parse(t) as JsonValue);

/** The guard pipeline with one subtree (chosen by a path of choices) replaced by random JSON. */
function mutate(doc: JsonValue, choices: number[], replacement: JsonValue): JsonValue {
  if (choices.length === 0 || typeof doc !== 'object' || doc === null) return replacement;
  const keys = Array.isArray(doc) ? doc.map((_, i) => i) : Object.keys(doc);
  if (keys.length === 0) return replacement;
  const k = keys[choices[0]! % keys.length]!;
  const copy: JsonObject | JsonValue[] = Array.isArray(doc) ? [...doc] : { ...doc };
  (copy as Record<string | number, JsonValue>)[k] = mutate((doc as Record<string | number, JsonValue>)[k]!, choices.slice(1), replacement);
  return copy;
}

/** Nothing is lost silently: every non-blank line is an event or an error that names it. */
function everyLineAccountedFor(lines: string[]): void {
  const r = readTrace([TRACE_HEADER, ...lines].join('\n'));
  const nonBlank = lines.filter((l) => l.trim() !== '').length;
  expect(r.status).not.toBe('failed');
  expect(r.events.length + r.problems.filter((p) => p.severity === 'error').length).toBe(nonBlank);
}

describe('fuzz: bad input gets a result or a problem, never a throw', () => {
  it('[V2][V9] pipelines: random JSON and mutated real documents load, compile and make runtimes without throwing', () => {
    const base = JSON.parse(GUARD) as JsonValue;
    fc.assert(
      fc.property(fc.oneof(json, fc.tuple(fc.array(fc.nat(), { maxLength: 6 }), json).map(([c, r]) => mutate(base, c, r))), (doc) => {
        const loaded = loadPipeline(doc);
        expect(loaded.ok || loaded.problems.some((p) => p.severity === 'error')).toBe(true);
        const compiled = compilePipeline(doc);
        expect(compiled.ok).toBe(loaded.ok);
        const rt = createRuntime(JSON.stringify(doc));
        expect(rt.ok).toBe(loaded.ok);
      }),
      { numRuns: 300 },
    );
    fc.assert(fc.property(nasty, (text) => void parsePipelineText(text)), { numRuns: 20 });
  });

  it('[T2][V9][V12] traces: random lines after a header (some past a size limit) are events or problems, never a throw', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(json.map((v) => JSON.stringify(v)), nasty, json.map((v) => eventLine('e', JSON.stringify(v)))), { maxLength: 8 }), everyLineAccountedFor),
      { numRuns: 300 },
    );
    // Lines past a size limit are megabytes each: fewer runs, a few lines.
    fc.assert(fc.property(fc.array(fc.oneof(oversizedLine, json.map((v) => eventLine('e', JSON.stringify(v)))), { minLength: 1, maxLength: 3 }), everyLineAccountedFor), { numRuns: 12 });
  });

  it('[I1][V9] imports: random documents in every format give a trace or problems, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(json.map((v) => JSON.stringify(v)), nasty), fc.constantFrom(...TRACE_FORMATS, undefined), (text, format) => {
        const r = importTrace(text, format ? { format } : {});
        expect(r.trace !== null || r.problems.length > 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('[P3][V9][V12] emit: random payloads (some past a size limit) dispatch, are refused with a problem, or are a TypeError naming a caller bug', () => {
    const r = createRuntime(GUARD);
    if (!r.ok) throw new Error('guard pipeline refused');
    const trace = r.runtime.startTrace();
    fc.assert(
      fc.property(fc.constantFrom('tool.before_call', 'model.after_call', 'input.received', 'custom.x'), fc.oneof({ arbitrary: json, weight: 9 }, { arbitrary: oversizedPayload, weight: 1 }), fc.option(fc.string(), { nil: undefined }), (type, payload, ts) => {
        try {
          const out = trace.emit(type, payload as JsonObject, ts === undefined ? {} : { ts });
          expect(['continue', 'block_action', 'terminate', 'stop_propagation', 'ask']).toContain(out.decision);
          // Input past a JSON limit [V9][V12] is refused with a problem, and the answer fails closed.
          if (out.problem) expect(out).toMatchObject({ decision: expect.stringMatching(/block_action|terminate/), problem: { code: expect.stringMatching(/too_deep|too_large/) } });
        } catch (e) {
          expect(e).toBeInstanceOf(TypeError);
          expect((e as Error).message).toMatch(/must be a JSON object|ISO 8601|needs a time zone|levels deep/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
