/**
 * Which of a set of literals occur in a text, in one pass over the text (Aho–Corasick over UTF-16 code
 * units): the candidate index's literal atoms, instead of one `includes` per literal per event. Literals
 * must be non-empty printable ASCII (a code unit ≥ 128 of the text then cannot be part of any of them and
 * sends the scan back to the root); otherwise, or past a size bound, `literalAutomaton` returns null and the
 * index keeps testing them one by one. `occurring(a, text)` equals `literals.filter((l) => text.includes(l))`
 * (test/engine/accel/literalAutomaton.test.ts).
 */
export interface LiteralAutomaton {
  /** delta[(state << 7) | code]: the next state (states × 128; 16 bits, so a table of many literals stays in the first-level cache). */
  delta: Uint16Array;
  /** Literals (indexes) ending at state s: outList[outStart[s] .. outStart[s + 1]). */
  outStart: Int32Array;
  outList: Int32Array;
  /**
   * States are numbered so that exactly those from `outFrom` on have outputs: a scan compares the state
   * with it instead of reading `outStart` at every code unit.
   */
  outFrom: number;
}

/** At most this many states (each 256 bytes of table; state numbers must fit the table's 16 bits). */
const MAX_STATES = 2048;

export function literalAutomaton(literals: readonly string[]): LiteralAutomaton | null {
  if (literals.length === 0) return null;
  for (const l of literals) {
    if (l.length === 0) return null;
    for (let i = 0; i < l.length; i++) if (l.charCodeAt(i) >= 128) return null;
  }
  // The trie.
  const next: Map<number, number>[] = [new Map()];
  const ends: number[][] = [[]];
  literals.forEach((l, index) => {
    let s = 0;
    for (let i = 0; i < l.length; i++) {
      const c = l.charCodeAt(i);
      let t = next[s]!.get(c);
      if (t === undefined) {
        t = next.length;
        next.push(new Map());
        ends.push([]);
        next[s]!.set(c, t);
      }
      s = t;
    }
    ends[s]!.push(index);
  });
  const states = next.length;
  if (states > MAX_STATES) return null;
  // Failure links breadth first; the full transition table; outputs gathered along failure links.
  const delta = new Int32Array(states << 7);
  const fail = new Int32Array(states);
  const outputs: number[][] = ends.map((e) => [...e]);
  const queue: number[] = [];
  for (let c = 0; c < 128; c++) {
    const t = next[0]!.get(c);
    if (t !== undefined) {
      delta[c] = t;
      fail[t] = 0;
      queue.push(t);
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    outputs[s]!.push(...outputs[fail[s]!]!);
    for (let c = 0; c < 128; c++) {
      const t = next[s]!.get(c);
      if (t !== undefined) {
        fail[t] = delta[(fail[s]! << 7) | c]!;
        delta[(s << 7) | c] = t;
        queue.push(t);
      } else {
        delta[(s << 7) | c] = delta[(fail[s]! << 7) | c]!;
      }
    }
  }
  // Renumber: the states without outputs first (the root, which has none, stays 0), then those with.
  const lists = outputs.map((o) => [...new Set(o)]);
  const order = [...Array(states).keys()].sort((a, b) => Number(lists[a]!.length > 0) - Number(lists[b]!.length > 0) || a - b);
  const id = new Int32Array(states);
  order.forEach((old, i) => (id[old] = i));
  const table = new Uint16Array(states << 7);
  for (let s = 0; s < states; s++) for (let c = 0; c < 128; c++) table[(id[s]! << 7) | c] = id[delta[(s << 7) | c]!]!;
  const outStart = new Int32Array(states + 1);
  const flat: number[] = [];
  for (let i = 0; i < states; i++) {
    outStart[i] = flat.length;
    flat.push(...lists[order[i]!]!);
  }
  outStart[states] = flat.length;
  const outFrom = order.findIndex((s) => lists[s]!.length > 0);
  return { delta: table, outStart, outList: Int32Array.from(flat), outFrom: outFrom < 0 ? states : outFrom };
}

/** The indexes of the literals that occur in `text` (each once, in the order found): for tests and tools. */
export function occurring(a: LiteralAutomaton, text: string): number[] {
  const found = new Set<number>();
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    s = c < 128 ? a.delta[(s << 7) | c]! : 0;
    if (s < a.outFrom) continue;
    for (let j = a.outStart[s]!; j < a.outStart[s + 1]!; j++) found.add(a.outList[j]!);
  }
  return [...found];
}

/**
 * Which of a set of words begin a text (or, built over the words reversed and walked from the text's last
 * code unit down, end it): a trie walked from that end of the text for at most the longest word's length,
 * without failure links (a word anchored at an end can only start there). Words must be non-empty printable
 * ASCII; otherwise, or past a size bound, `wordTrie` returns null and the index tests them one by one.
 * `anchoredWords(wordTrie(['ls', 'cat'])!, 'ls -l', false)` → `[0]`.
 */
export interface WordTrie {
  /** next[(state << 7) | code]: the next state, 0 when no word goes on with that code (the root is never re-entered). */
  next: Uint16Array;
  /** Per state: the index of the word that ends there, or -1. */
  word: Int32Array;
  /** The longest word's length. */
  depth: number;
}

export function wordTrie(words: readonly string[]): WordTrie | null {
  if (words.length === 0) return null;
  let states = 1;
  for (const w of words) {
    if (w.length === 0) return null;
    for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) >= 128) return null;
    states += w.length;
  }
  if (states > MAX_STATES) return null;
  const next = new Uint16Array(states << 7);
  const word = new Int32Array(states).fill(-1);
  let made = 1;
  let depth = 0;
  words.forEach((w, index) => {
    let s = 0;
    for (let i = 0; i < w.length; i++) {
      const at = (s << 7) | w.charCodeAt(i);
      if (next[at] === 0) next[at] = made++;
      s = next[at]!;
    }
    if (word[s] === -1) word[s] = index;
    depth = Math.max(depth, w.length);
  });
  return { next: next.slice(0, made << 7), word: word.slice(0, made), depth };
}

/**
 * The trie's words that begin `text` (`fromEnd`: that end it, for a trie of reversed words), written into
 * `found` (at least `t.depth` long) in the order met; returns how many. One walk from that end of the text:
 * each word found there ends at a state on the way. Allocates nothing (the candidate index's gather).
 */
export function anchoredFound(t: WordTrie, text: string, fromEnd: boolean, found: Int32Array): number {
  const { next, word } = t;
  const last = text.length - 1;
  let n = 0;
  for (let k = 0, s = 0, end = text.length < t.depth ? text.length : t.depth; k < end; k++) {
    const c = text.charCodeAt(fromEnd ? last - k : k);
    if (c >= 128 || (s = next[(s << 7) | c]!) === 0) break;
    if (word[s]! >= 0) found[n++] = word[s]!;
  }
  return n;
}

/** The indexes of the trie's words that begin `text` (`fromEnd`: that end it), as a list: for tests and tools. */
export function anchoredWords(t: WordTrie, text: string, fromEnd: boolean): number[] {
  const found = new Int32Array(t.depth);
  return [...found.subarray(0, anchoredFound(t, text, fromEnd, found))];
}
