import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushInPieces } from '../../shared/pieces.ts';
import { KeyedArraySplitter } from '../../../engine/trace/keyedArraySplitter.ts';

type Seen = { kind: string; key?: string; value?: unknown; line: number; length?: number; element?: boolean };

/** Runs a splitter streaming the arrays under `keys` over `text` cut at `cuts`; what the sink was told, in order. */
function split(text: string, keys: string[], cuts: number[], max = 1e9): Seen[] {
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
  });
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
