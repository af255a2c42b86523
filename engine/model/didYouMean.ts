import { distance } from 'fastest-levenshtein';

/**
 * Words people reach for that name a Hookwire term differently: `log` is an `audit` handler, `deny` a
 * `block`. Consulted before edit distance, which cannot see that `log` means `audit`.
 */
const SYNONYMS: ReadonlyMap<string, string> = new Map([
  ['log', 'audit'], ['logging', 'audit'], ['record', 'audit'], ['notify', 'audit'],
  ['deny', 'block'], ['reject', 'block'], ['refuse', 'block'], ['forbid', 'block'],
  ['kill', 'terminate'], ['abort', 'terminate'], ['halt', 'terminate'], ['end', 'terminate'],
  ['redact', 'rewrite'], ['transform', 'rewrite'], ['modify', 'rewrite'], ['mask', 'rewrite'],
  ['limit', 'budget'], ['quota', 'budget'], ['rate_limit', 'budget'],
  ['script', 'code'], ['js', 'code'], ['function', 'code'],
  ['approve', 'ask'], ['confirm', 'ask'], ['approval', 'ask'],
  ['priority', 'order'], ['condition', 'when'], ['conditions', 'when'], ['match', 'when'], ['filter', 'when'],
]);

/**
 * The candidate a misspelled or misnamed word most likely means, or null: a known synonym, else the
 * closest candidate within an edit distance of about a third of the word (at least 1, at most 3).
 *
 * @example didYouMean('log', ['block', 'audit']) === 'audit'; didYouMean('oder', ['order', 'name']) === 'order'
 */
export function didYouMean(word: string, candidates: readonly string[]): string | null {
  const lower = word.toLowerCase();
  const synonym = SYNONYMS.get(lower);
  if (synonym !== undefined && candidates.includes(synonym)) return synonym;
  const max = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c === word) return null;
    const d = distance(lower, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== null && bestD <= max ? best : null;
}

/** `; did you mean "audit"?` or nothing. */
export function didYouMeanText(word: string, candidates: readonly string[]): string {
  const m = didYouMean(word, candidates);
  return m === null ? '' : `; did you mean "${m}"?`;
}
