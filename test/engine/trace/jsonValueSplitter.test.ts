import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushInPieces } from '../../shared/pieces.ts';
import { JsonValueSplitter } from '../../../engine/trace/jsonValueSplitter.ts';

/** Runs an elements-mode splitter over `text` cut at `cuts`; what the sink was told, in order. */
function split(text: string, cuts: number[], max = 1e9) {
  const seen: { kind: string; value?: unknown; line: number; length?: number }[] = [];
  const s = new JsonValueSplitter(max, {
    value: (t, line) => seen.push({ kind: 'value', value: JSON.parse(t), line }),
    tooLong: (line, length) => seen.push({ kind: 'tooLong', line, length }),
    stray: (line) => seen.push({ kind: 'stray', line }),
    truncated: (line) => seen.push({ kind: 'truncated', line }),
    unclosed: (line) => seen.push({ kind: 'unclosed', line }),
  }, true);
  pushInPieces(text, cuts, (piece) => s.push(piece));
  s.end();
  return seen;
}

// [I1] A document that is one JSON array streams element by element (Cline's task files): what is cut out is
// exactly its elements, in any chunking, scalars and strings with brackets and commas included.
describe('JsonValueSplitter, elements of one array [I1]', () => {
  it('[I1] any array, pretty or compact, in any chunks: its elements, in order, each once', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 8 }), fc.constantFrom(undefined, 2), fc.array(fc.nat(), { maxLength: 8 }), (elements, indent, cuts) => {
        const text = JSON.stringify(elements, null, indent);
        const seen = split(text, cuts.map((c) => c % (text.length + 1)));
        expect(seen.map((x) => x.kind)).toEqual(elements.map(() => 'value'));
        // JSON.stringify turns -0 into 0: compare with what the document says, not with the generated values.
        expect(seen.map((x) => x.value)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('[I1] lines are the file\'s; a cut inside an element is truncated, a cut before the closing ] is unclosed; text after ] is stray', () => {
    const text = '[\n{"a": 1},\n"x, ]{",\n{"b": [2,\n3]}\n]\ntrailing';
    expect(split(text, [5, 13])).toEqual([
      { kind: 'value', value: { a: 1 }, line: 2 },
      { kind: 'value', value: 'x, ]{', line: 3 },
      { kind: 'value', value: { b: [2, 3] }, line: 4 },
      { kind: 'stray', line: 7 },
    ]);
    expect(split('[{"a": 1}, {"b": ', [])).toEqual([{ kind: 'value', value: { a: 1 }, line: 1 }, { kind: 'truncated', line: 1 }]);
    expect(split('[{"a": 1},\n', [])).toEqual([{ kind: 'value', value: { a: 1 }, line: 1 }, { kind: 'unclosed', line: 2 }]);
    expect(split('[1, 2', [])).toEqual([{ kind: 'value', value: 1, line: 1 }, { kind: 'unclosed', line: 1 }, { kind: 'value', value: 2, line: 1 }]);
  });

  it('[T3] an element past the limit is dropped as it streams and counted, the next one is read', () => {
    const big = JSON.stringify({ text: 'x'.repeat(500) });
    expect(split(`[${big}, {"ok": true}]`, [100, 200, 300], 100)).toEqual([
      { kind: 'tooLong', line: 1, length: big.length },
      { kind: 'value', value: { ok: true }, line: 1 },
    ]);
  });
});
