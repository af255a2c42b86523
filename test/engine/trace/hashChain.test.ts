import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { CHAIN_GENESIS, chainHash, chainLine, chainTailOf, createChainWriter, lineChainHash, useSha256, verifyChain } from '../../../engine/trace/hashChain.ts';
import { nativeSha256Hex } from '../../../engine/node/nativeSha256.ts';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { traceEventLine, traceHeaderLine } from '../../../engine/trace/traceToJsonl.ts';
import type { TraceEvent, TraceHeader } from '../../../engine/trace/traceTypes.ts';

const header: TraceHeader = { format: 'hookwire.trace', version: 1, trace_id: 't1', agent_id: 'a', source: { kind: 'test' }, created: '2026-01-01T00:00:00.000Z' };
const event = (i: number, command = `echo ${i}`): TraceEvent => ({
  event_id: `e${i}`,
  trace_id: 't1',
  agent_id: 'a',
  type: 'tool.before_call',
  ts: `2026-01-01T00:00:0${i % 10}.000Z`,
  payload: { tool: 'Bash', input: { command } },
});

/** A chained trace text of `n` events, as the writers make it. */
function chainedTrace(n: number): string[] {
  const w = createChainWriter();
  return [w.next(traceHeaderLine(header)), ...Array.from({ length: n }, (_, i) => w.next(traceEventLine(event(i + 1), header)))];
}

describe('hash chain', () => {
  it('[K1] property: Node\'s native SHA-256 gives the chain the same hashes as the portable one (lone surrogates, astral and multi-byte text too)', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\ud800', '\udfff', '\ud83d', '\ude00', 'é', '€', '😀', '\n', '"'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 300 });
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'grapheme-ascii', maxLength: 70 })), text, (prev, body) => {
        const p = prev ?? CHAIN_GENESIS;
        const portable = chainHash(p, body);
        expect(portable).toBe(bytesToHex(sha256(new TextEncoder().encode(`${p}\n${body}`))));
        useSha256(nativeSha256Hex);
        try {
          expect(chainHash(p, body)).toBe(portable);
        } finally {
          useSha256(null);
        }
      }),
      { numRuns: 300 },
    );
    // A writer and a verifier with the native hash agree with the portable verifier.
    useSha256(nativeSha256Hex);
    let lines: string[];
    try {
      lines = chainedTrace(5);
    } finally {
      useSha256(null);
    }
    expect(verifyChain(lines.join('')).status).toBe('intact');
  });

  it('[K1] a line\'s hash is SHA-256 of the previous hash, a newline and the line without its chain field', () => {
    const first = chainLine(null, '{"a":1}\n');
    expect(first.line).toBe(`{"a":1,"chain":"${first.hash}"}\n`);
    expect(first.hash).toBe(bytesToHex(sha256(new TextEncoder().encode(`${CHAIN_GENESIS}\n{"a":1}`))));
    const second = chainLine(first.hash, '{"b":"ü"}');
    expect(second.hash).toBe(bytesToHex(sha256(new TextEncoder().encode(`${first.hash}\n{"b":"ü"}`))));
    expect(chainHash(first.hash, '{"b":"ü"}')).toBe(second.hash);
    expect(lineChainHash(second.line)).toBe(second.hash);
    expect(JSON.parse(second.line)).toEqual({ b: 'ü', chain: second.hash });
    expect(chainLine(null, '{}').line).toMatch(/^\{"chain":"[0-9a-f]{64}"\}$/);
  });

  it('[K2] an intact chain verifies; the reader drops the chain field from header and events', () => {
    const lines = chainedTrace(3);
    const text = lines.join('');
    const v = verifyChain(text);
    expect(v).toMatchObject({ status: 'intact', lines: 4, head: lineChainHash(lines[3]!) });
    const r = readTrace(text);
    expect(r.status).toBe('ok');
    expect(r.problems).toEqual([]);
    expect(r.chain.status).toBe('intact');
    expect(r.header).toEqual(header);
    expect(r.events).toEqual([event(1), event(2), event(3)]);
  });

  it('[K2] property: editing, removing, inserting or swapping any line breaks the chain at the first line it touches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat(), fc.constantFrom('edit', 'remove', 'insert', 'swap', 'strip'), (n, pick, how) => {
        const lines = chainedTrace(n);
        const i = pick % lines.length;
        const out = [...lines];
        let expected = i + 1;
        if (how === 'edit') out[i] = lines[i]!.replace(/"(e\d+|t1)"/, '"X$1"');
        else if (how === 'remove') {
          if (i === lines.length - 1) return; // cutting the end is what a chain cannot see [K2]: `head` is for that
          out.splice(i, 1);
        } else if (how === 'insert') {
          out.splice(i, 0, traceEventLine(event(99, 'rm -rf /'), header));
          // An unchained line put first makes the file look unchained until its first chained line.
          if (i === 0) expected = 2;
        }
        else if (how === 'swap') {
          if (i === lines.length - 1) return;
          [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
        } else {
          out[i] = `${JSON.stringify((({ chain: _c, ...rest }) => rest)(JSON.parse(lines[i]!)))}\n`;
          if (i === 0) expected = 2;
        }
        const v = verifyChain(out.join(''));
        expect(v.status).toBe('broken');
        expect(v.broken!.line).toBe(expected);
        // A re-hashed edited line still breaks at the next line (its hash no longer matches its successor's prev).
        if (how === 'edit' && i < lines.length - 1) {
          const rechained = [...out];
          rechained[i] = chainLine(i === 0 ? null : lineChainHash(lines[i - 1]!), `${JSON.stringify((({ chain: _c, ...rest }) => rest)(JSON.parse(out[i]!)))}\n`).line;
          expected = i + 2;
          expect(verifyChain(rechained.join('')).broken?.line).toBe(expected);
        }
      }),
    );
  });

  it('[K2] the reader warns at the line where the chain breaks and keeps the events', () => {
    const lines = chainedTrace(3);
    lines[2] = lines[2]!.replace('echo 2', 'echo 5');
    const r = readTrace(lines.join(''));
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(3);
    expect(r.chain).toMatchObject({ status: 'broken', broken: { line: 3 } });
    expect(r.problems).toEqual([expect.objectContaining({ code: 'chain_broken', severity: 'warning', line: 3 })]);
  });

  it('[K2] an old recording without a chain still reads, flagged as unchained; a chained line inside it breaks it', () => {
    const old = traceHeaderLine(header) + traceEventLine(event(1), header);
    const r = readTrace(old);
    expect(r.status).toBe('ok');
    expect(r.problems).toEqual([]);
    expect(r.chain.status).toBe('unchained');
    expect(verifyChain(old + chainLine(null, traceEventLine(event(2), header)).line)).toMatchObject({ status: 'broken', broken: { line: 3 } });
  });

  it('[K3] a writer resumes from the file\'s last line; an unchained file stays unchained; prepare does not advance until commit', () => {
    const lines = chainedTrace(2);
    const w = createChainWriter(chainTailOf(lines.at(-1)!.trimEnd()));
    const p = w.prepare(traceEventLine(event(3), header));
    expect(w.head).toBe(lineChainHash(lines.at(-1)!));
    p.commit();
    expect(verifyChain(lines.join('') + p.text).status).toBe('intact');
    expect(w.head).toBe(lineChainHash(p.text));
    const old = createChainWriter(chainTailOf('{"a":1}'));
    expect(old.next('{"b":2}\n')).toBe('{"b":2}\n');
    expect(chainTailOf(null)).toEqual({ kind: 'new' });
    expect(verifyChain('')).toMatchObject({ status: 'empty' });
  });
});
