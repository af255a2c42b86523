import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonErrorOffset } from '../../../engine/model/jsonErrorOffset.ts';
import { parsePipelineText } from '../../../engine/compile/loadPipeline.ts';
import { jsonErrorMessage } from '../../../engine/model/jsonErrorOffset.ts';

/** What V8 says about `text`: valid, an error at a position, or an error without one. */
function v8(text: string): { valid: true } | { valid: false; position: number | null; message: string } {
  try {
    JSON.parse(text);
    return { valid: true };
  } catch (e) {
    const message = (e as Error).message;
    const m = /position (\d+)/.exec(message);
    return { valid: false, position: m ? Number(m[1]) : null, message };
  }
}

/** Text near JSON: valid documents with one character inserted, deleted or replaced, and JSON-ish noise. */
const ALPHABET = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', '0', '1', '-', '.', 'e', '+', 't', 'r', 'u', 'n', 'l', 'f', 'a', 's', 'x', '\t', '\u0001'];
const nearJson = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 24 }),
  fc.tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.constantFrom(...ALPHABET), fc.constantFrom('insert', 'delete', 'replace')).map(([json, at, ch, op]) => {
    const i = json.length === 0 ? 0 : at % json.length;
    if (op === 'insert') return json.slice(0, i) + ch + json.slice(i);
    if (op === 'delete') return json.slice(0, i) + json.slice(i + 1);
    return json.slice(0, i) + ch + json.slice(i + 1);
  }),
);

describe('jsonErrorOffset', () => {
  it('[V2] is -1 exactly for text JSON.parse accepts', () => {
    fc.assert(fc.property(fc.json({ maxDepth: 4 }), (text) => jsonErrorOffset(text) === -1));
    fc.assert(fc.property(nearJson, (text) => (jsonErrorOffset(text) === -1) === v8(text).valid), { numRuns: 2000 });
  });

  it('[V2] finds the same place as V8 wherever V8 names one, and a place within the text otherwise', () => {
    fc.assert(
      fc.property(nearJson, (text) => {
        const r = v8(text);
        if (r.valid) return;
        const at = jsonErrorOffset(text);
        if (r.position !== null) expect(at).toBe(r.position);
        else expect(at).toBeGreaterThanOrEqual(0);
        expect(at).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('[V2] places the errors V8 gives no position for', () => {
    expect(jsonErrorOffset('{"a": tru}')).toBe(9);
    expect(jsonErrorOffset('[1,]')).toBe(3);
    expect(jsonErrorOffset('{"a": undefined}')).toBe(6);
    expect(jsonErrorOffset('\uFEFF{}')).toBe(0);
    expect(jsonErrorOffset('nul')).toBe(3);
    expect(jsonErrorOffset('')).toBe(0);
  });

  it('survives deep nesting and long strings (no recursion, no backtracking regex)', () => {
    expect(jsonErrorOffset('['.repeat(200_000))).toBe(200_000);
    expect(jsonErrorOffset(`"${'a'.repeat(1_000_000)}`)).toBe(1_000_001);
    expect(jsonErrorOffset(`${'['.repeat(50_000)}${']'.repeat(50_000)}`)).toBe(-1);
  });
});

describe('jsonErrorMessage', () => {
  const message = (text: string) => {
    try {
      JSON.parse(text);
    } catch (e) {
      return jsonErrorMessage(text, e);
    }
    throw new Error('expected a syntax error');
  };

  it('[V2] gives a line and column when V8 names no position', () => {
    expect(message('{\n  "a": tru}')).toBe("not valid JSON at line 2, column 11: Unexpected token '}'");
    expect(message('{\n"a": tru\n}')).toBe("not valid JSON at line 2, column 9: Unexpected token '\\n'");
    expect(message('{\n  "a": nul')).toBe('not valid JSON at line 2, column 11: Unexpected end of JSON input');
  });

  it('[V2] keeps V8\'s position when it has one', () => {
    expect(message('{\n  "a": 1,\n}')).toBe('not valid JSON at line 3, column 1: Expected double-quoted property name');
  });

  it('[V2] takes the place from the text whatever the wording (other engines)', () => {
    const firefoxLike = new SyntaxError('JSON.parse: unexpected character at line 1 column 7 of the JSON data');
    expect(jsonErrorMessage('{"a": x}', firefoxLike)).toMatch(/^not valid JSON at line 1, column 7: /);
  });

  it('[V2] every not_json problem of parsePipelineText names a line and a column', () => {
    fc.assert(
      fc.property(nearJson, (text) => {
        if (v8(text).valid) return;
        const r = parsePipelineText(text);
        expect(r.problems[0]).toMatchObject({ code: 'not_json', message: expect.stringMatching(/^not valid JSON at line \d+, column \d+: \S/) });
      }),
      { numRuns: 500 },
    );
  });
});
