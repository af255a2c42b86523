import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anchoredWords, literalAutomaton, occurring, wordTrie } from '../../../engine/accel/literalAutomaton.ts';

// The candidate index finds its literal atoms in one pass; it must find exactly the literals `includes`
// finds, or the fast path would skip a handler that matches (or evaluate one it need not) [X5].
const alphabet = fc.constantFrom('a', 'b', 'c', ' ', '.', '|');
const literal = fc.array(alphabet, { minLength: 1, maxLength: 5 }).map((cs) => cs.join(''));
const text = fc.array(fc.oneof(alphabet, fc.constantFrom('é', '\u212a', '\ud83d', '\ude00', 'A')), { maxLength: 30 }).map((cs) => cs.join(''));

describe('literal automaton', () => {
  it('[X5] finds exactly the literals that occur in the text (overlapping, nested, repeated, beside non-ASCII)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(literal, { minLength: 1, maxLength: 12 }), fc.array(text, { minLength: 1, maxLength: 5 }), (lits, texts) => {
        const a = literalAutomaton(lits)!;
        expect(a).not.toBeNull();
        for (const t of texts) {
          expect(occurring(a, t).sort((x, y) => x - y)).toEqual(lits.map((l, i) => (t.includes(l) ? i : -1)).filter((i) => i >= 0));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('declines literals it cannot scan (empty, non-ASCII), so the index tests those one by one', () => {
    expect(literalAutomaton([])).toBeNull();
    expect(literalAutomaton(['ab', ''])).toBeNull();
    expect(literalAutomaton(['ab', 'é'])).toBeNull();
    expect(occurring(literalAutomaton(['he', 'she', 'his', 'hers'])!, 'ushers').sort()).toEqual([0, 1, 3]);
  });

  it('[X5] a word trie finds exactly the words that begin the text, or (over the words reversed, walked from the end) end it', () => {
    const reversed = (w: string) => [...w].reverse().join('');
    fc.assert(
      fc.property(fc.uniqueArray(literal, { minLength: 1, maxLength: 12 }), fc.array(text, { minLength: 1, maxLength: 5 }), (words, texts) => {
        const starts = wordTrie(words)!;
        const ends = wordTrie(words.map(reversed))!;
        for (const t of texts) {
          expect(anchoredWords(starts, t, false).sort((x, y) => x - y)).toEqual(words.map((w, i) => (t.startsWith(w) ? i : -1)).filter((i) => i >= 0));
          expect(anchoredWords(ends, t, true).sort((x, y) => x - y)).toEqual(words.map((w, i) => (t.endsWith(w) ? i : -1)).filter((i) => i >= 0));
        }
      }),
      { numRuns: 2000 },
    );
    expect(anchoredWords(wordTrie(['ls', 'cat', 'l'])!, 'ls -l', false).sort()).toEqual([0, 2]);
    expect(wordTrie(['ab', ''])).toBeNull();
    expect(wordTrie(['ab', 'ſh'])).toBeNull();
  });
});
