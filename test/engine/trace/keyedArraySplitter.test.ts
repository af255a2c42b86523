import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushInPieces } from '../../shared/pieces.ts';
import { KeyedArraySplitter } from '../../../engine/trace/keyedArraySplitter.ts';

type Seen = { kind: string; key?: string; value?: unknown; line: number; length?: number; element?: boolean };

/** Runs a splitter streaming the arrays under `keys` over `text` cut at `cuts`; what the sink was told, in order. */
function split(text: string, keys: string[], cuts: number[], max = 1e9, root: string | null = null): Seen[] {
  const seen: Seen[] = [];
  const s = new KeyedArraySplitter(new Set(keys), max, {
    member: (key, t, line) => seen.push({ kind: 'member', key, value: JSON.parse(t), line }),
    array: (key) => seen.push({ kind: 'array', key, line: 0 }),
    element: (key, t, line) => seen.push({ kind: 'element', key, value: JSON.parse(t), line }),
    tooLong: (key, element, line, length) => seen.push({ kind: 'tooLong', key, element, line, length }),
    stray: (line) => seen.push({ kind: 'stray', line }),
    truncated: (key, element, line) => seen.push({ kind: 'truncated', key, element, line }),
    unclosed: (line) => seen.push({ kind: 'unclosed', line }),
    repeated: (key, line) => seen.push({ kind: 'repeated', key, line }),
  }, root);
  pushInPieces(text, cuts, (piece) => s.push(piece));
  s.end();
  return seen;
}

/** What the sink should be told of a whole object: its members in order, a streamed array as its elements. */
function expected(doc: Record<string, unknown>, keys: string[]): Omit<Seen, 'line'>[] {
  return Object.entries(doc).flatMap(([key, value]) =>
    keys.includes(key) && Array.isArray(value)
      ? [{ kind: 'array', key }, ...value.map((v) => ({ kind: 'element', key, value: v }))]
      : [{ kind: 'member', key, value }],
  );
}

const strip = (seen: Seen[]) => seen.map(({ line: _line, ...rest }) => rest);

// [I1] A document that is one JSON object with its records in an array under a key (OpenCode and goose exports,
// mini-swe-agent trajectories, …) streams member by member and element by element, in any chunking.
describe('KeyedArraySplitter [I1]', () => {
  it('[I1] any object, pretty or compact, in any chunks: its members in order, and the streamed arrays element by element', () => {
    const key = fc.oneof(fc.constantFrom('messages', 'info', 'me"ss\\ages', '__proto__', ''), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }))), { selector: (e) => e[0], maxLength: 6 }),
        fc.constantFrom(undefined, 2),
        fc.array(fc.nat(), { maxLength: 10 }),
        (entries, indent, cuts) => {
          const doc: Record<string, unknown> = {};
          for (const [k, v] of entries) Object.defineProperty(doc, k, { value: v, enumerable: true, writable: true, configurable: true });
          const text = JSON.stringify(doc, null, indent);
          const keys = ['messages', 'me"ss\\ages', '__proto__'];
          expect(strip(split(text, keys, cuts.map((c) => c % (text.length + 1))))).toEqual(expected(JSON.parse(text) as Record<string, unknown>, keys));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('[I1] each member and element is given the line it starts on', () => {
    const text = '{\n  "info": {"a": 1},\n  "messages": [\n    {"x": 1},\n    "s,]}",\n    7\n  ],\n  "tail": true\n}\n';
    const seen = split(text, ['messages'], [5, 31, 32]);
    expect(seen.map((s) => [s.kind, s.line])).toEqual([['member', 2], ['array', 0], ['element', 4], ['element', 5], ['element', 6], ['member', 8]]);
  });

  it('[I1] an input cut inside an element says so with the line it starts on; what came before is given', () => {
    const seen = split('{"info": 1,\n"messages": [{"a": 1},\n{"b": "x', ['messages'], []);
    expect(strip(seen)).toEqual([
      { kind: 'member', key: 'info', value: 1 },
      { kind: 'array', key: 'messages' },
      { kind: 'element', key: 'messages', value: { a: 1 } },
      { kind: 'truncated', key: 'messages', element: true },
    ]);
    expect(seen.at(-1)?.line).toBe(3);
    expect(strip(split('{"info": 1, "messages": [{"a": 1}', ['messages'], [3]))).toEqual([
      { kind: 'member', key: 'info', value: 1 },
      { kind: 'array', key: 'messages' },
      { kind: 'element', key: 'messages', value: { a: 1 } },
      { kind: 'unclosed' },
    ]);
  });

  it('[I1][T3] a member or element past the limit is dropped as it streams, with its length; the rest go on', () => {
    const big = 'x'.repeat(100);
    const seen = split(JSON.stringify({ info: big, messages: [big, 1] }), ['messages'], [10, 50, 90], 50);
    expect(strip(seen)).toEqual([
      { kind: 'tooLong', key: 'info', element: false, length: 102 },
      { kind: 'array', key: 'messages' },
      { kind: 'tooLong', key: 'messages', element: true, length: 102 },
      { kind: 'element', key: 'messages', value: 1 },
    ]);
  });

  it('[I1] text the object grammar does not allow is stray, and a streamed key that is not an array is a member', () => {
    expect(strip(split('junk\n{"messages": null} tail', ['messages'], []))).toEqual([
      { kind: 'stray' },
      { kind: 'member', key: 'messages', value: null },
      { kind: 'stray' },
    ]);
  });

  it('[I1] a key written again: its later values are reported where they start and skipped, whatever they are, in any chunks', () => {
    const key = fc.constantFrom('messages', 'info', '__proto__', 'm"s');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }))), { maxLength: 7 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (entries, cuts) => {
          const text = `{${entries.map(([k, v]) => `\n${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',')}\n}`;
          const keys = ['messages', '__proto__'];
          const first = new Set<string>();
          const want = entries.flatMap(([k, raw], i): Omit<Seen, 'line'>[] | Seen[] => {
            // As the text reads back (a -0 is written 0).
            const v = JSON.parse(JSON.stringify(raw)) as unknown;
            if (first.has(k)) return [{ kind: 'repeated', key: k, line: i + 2 }];
            first.add(k);
            return keys.includes(k) && Array.isArray(v) ? [{ kind: 'array', key: k }, ...v.map((e) => ({ kind: 'element', key: k, value: e }))] : [{ kind: 'member', key: k, value: v }];
          });
          const got = split(text, keys, cuts.map((c) => c % (text.length + 1)));
          expect(strip(got)).toEqual(strip(want as Seen[]));
          expect(got.filter((g) => g.kind === 'repeated').map((g) => g.line)).toEqual((want as Seen[]).filter((g) => g.kind === 'repeated').map((g) => g.line));
        },
      ),
      { numRuns: 300 },
    );
  });
});

// [I1] A document that is one JSON array streams element by element the same way (Cline's task files, OpenHands
// event arrays): its elements are given as the root key's, in any chunking, scalars and strings with brackets and
// commas included.
describe('KeyedArraySplitter, a document that is one array [I1]', () => {
  const elements = (text: string, cuts: number[], max = 1e9) => split(text, [], cuts, max, '').filter((x) => x.kind !== 'array');

  it('[I1] any array, pretty or compact, in any chunks: its elements, in order, each once', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 8 }), fc.constantFrom(undefined, 2), fc.array(fc.nat(), { maxLength: 8 }), (values, indent, cuts) => {
        const text = JSON.stringify(values, null, indent);
        const seen = elements(text, cuts.map((c) => c % (text.length + 1)));
        expect(seen.map((x) => x.kind)).toEqual(values.map(() => 'element'));
        // JSON.stringify turns -0 into 0: compare with what the document says, not with the generated values.
        expect(seen.map((x) => x.value)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('[I1] lines are the file\'s; a cut inside an element is truncated, a cut before the closing ] is unclosed; text after ] is stray', () => {
    const text = '[\n{"a": 1},\n"x, ]{",\n{"b": [2,\n3]}\n]\ntrailing';
    expect(elements(text, [5, 13])).toEqual([
      { kind: 'element', key: '', value: { a: 1 }, line: 2 },
      { kind: 'element', key: '', value: 'x, ]{', line: 3 },
      { kind: 'element', key: '', value: { b: [2, 3] }, line: 4 },
      { kind: 'stray', line: 7 },
    ]);
    expect(elements('[{"a": 1}, {"b": ', [])).toEqual([{ kind: 'element', key: '', value: { a: 1 }, line: 1 }, { kind: 'truncated', key: '', element: true, line: 1 }]);
    expect(elements('[{"a": 1},\n', [])).toEqual([{ kind: 'element', key: '', value: { a: 1 }, line: 1 }, { kind: 'unclosed', line: 2 }]);
    expect(elements('[1, 2', [])).toEqual([{ kind: 'element', key: '', value: 1, line: 1 }, { kind: 'element', key: '', value: 2, line: 1 }, { kind: 'unclosed', line: 1 }]);
    // Without a root key, an array is not the object: stray.
    expect(split('[1]', [], [])).toEqual([{ kind: 'stray', line: 1 }, { kind: 'stray', line: 1 }, { kind: 'stray', line: 1 }]);
  });

  it('[T3] an element past the limit is dropped as it streams and counted, the next one is read', () => {
    const big = JSON.stringify({ text: 'x'.repeat(500) });
    expect(elements(`[${big}, {"ok": true}]`, [100, 200, 300], 100)).toEqual([
      { kind: 'tooLong', key: '', element: true, line: 1, length: big.length },
      { kind: 'element', key: '', value: { ok: true }, line: 1 },
    ]);
  });

  it('[I1] text after the document\'s end is one stray piece a line; a stray character is named, never empty', () => {
    const strays: string[] = [];
    const sink = { member() {}, array() {}, element() {}, tooLong() {}, truncated() {}, unclosed() {}, repeated() {}, stray: (_line: number, t: string) => void strays.push(t) };
    const a = new KeyedArraySplitter(new Set(), 1e6, sink, '');
    a.push('[1]\n garbage "x", {"a": 1}\nmore');
    a.end();
    expect(strays).toEqual(['garbage "x", {"a": 1}', 'more']);
    strays.length = 0;
    const o = new KeyedArraySplitter(new Set(), 1e6, sink);
    o.push('{"a": 1 ], "b": 2}');
    o.end();
    expect(strays).toEqual([']']);
  });
});

