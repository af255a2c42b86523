/**
 * Case folding that never loses a match RE2's `(?i)` would find on an ASCII pattern, and finds no other:
 * lower case for A-Z, and the two non-ASCII letters whose simple fold is ASCII (ſ → s; K, the Kelvin sign,
 * → k). One UTF-16 unit for one, so positions and anchors survive. Used by the candidate index's folded
 * literals and by the regex shortcuts (regex.ts, literalRegex.ts).
 */
export function foldCase(s: string): string {
  // Only what RE2's case folding maps onto ASCII letters: A-Z, the Kelvin sign and the long s. The literals
  // compared are ASCII, and `toLowerCase` would fold more than RE2 does ("İ" → "i̇" contains an "i").
  if (!NON_ASCII.test(s)) return s.toLowerCase();
  return s.replace(FOLDS_TO_ASCII, (c) => (c === '\u212a' ? 'k' : c === '\u017f' ? 's' : c.toLowerCase()));
}

const NON_ASCII = /[^\x00-\x7f]/;
const FOLDS_TO_ASCII = /[A-Z\u212a\u017f]/g;
