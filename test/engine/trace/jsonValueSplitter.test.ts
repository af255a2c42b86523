import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushInPieces } from '../../shared/pieces.ts';
import { JsonValueSplitter } from '../../../engine/trace/jsonValueSplitter.ts';

/** Runs a splitter over `text` cut at `cuts`; what the sink was told, in order. */
function split(text: string, cuts: number[], max = 1e9) {
  const seen: { kind: string; value?: unknown; line: number; length?: number; text?: string }[] = [];
  const s = new JsonValueSplitter(max, {
    value: (t, line) => seen.push({ kind: 'value', value: JSON.parse(t), line }),
    tooLong: (line, length) => seen.push({ kind: 'tooLong', line, length }),
    stray: (line, t) => seen.push({ kind: 'stray', line, text: t }),
    truncated: (line) => seen.push({ kind: 'truncated', line }),
  });
  pushInPieces(text, cuts, (piece) => s.push(piece));
  s.end();
  return seen;
}

// [I1] Span streams written as one pretty-printed value after another (the OTel console exporter) are cut into
// their values, in any chunking, strings with brackets and braces included.
describe('JsonValueSplitter, values one after another [I1]', () => {
  it('[I1] any objects and arrays, pretty or compact, in any chunks: each value, in order, once, on the line it starts', () => {
    const value = fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), fc.constantFrom(undefined, 2), fc.array(fc.nat(), { maxLength: 8 }), (values, indent, cuts) => {
        const texts = values.map((v) => JSON.stringify(v, null, indent));
        const text = texts.join('\n');
        const seen = split(text, cuts.map((c) => c % (text.length + 1)));
        let line = 1;
        const lines = texts.map((t) => {
          const at = line;
          line += t.split('\n').length;
          return at;
        });
        // JSON.stringify turns -0 into 0: compare with what the text says, not with the generated values.
        expect(seen).toEqual(texts.map((t, i) => ({ kind: 'value', value: JSON.parse(t), line: lines[i] })));
      }),
      { numRuns: 300 },
    );
  });

  it('[I1] a cut inside a value is truncated; text between values is stray; a value past the limit is dropped and counted', () => {
    expect(split('{"a": 1}\n{"b": "}{', [4])).toEqual([{ kind: 'value', value: { a: 1 }, line: 1 }, { kind: 'truncated', line: 2 }]);
    expect(split('{"a": 1} oops\n[2]', [])).toEqual([{ kind: 'value', value: { a: 1 }, line: 1 }, { kind: 'stray', line: 1, text: 'oops' }, { kind: 'value', value: [2], line: 2 }]);
    const big = JSON.stringify({ text: 'x'.repeat(500) });
    expect(split(`${big}\n{"ok": true}`, [100, 200, 300], 100)).toEqual([{ kind: 'tooLong', line: 1, length: big.length }, { kind: 'value', value: { ok: true }, line: 2 }]);
  });
});
