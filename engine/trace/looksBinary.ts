/**
 * True when a sample of decoded text looks like binary data rather than text: it holds a NUL, or more
 * than 10% of its first 4096 characters are control characters (other than tab, CR, LF, FF, ESC) or the
 * U+FFFD that a UTF-8 decoder puts in place of invalid bytes. ESC is allowed because terminal output with
 * colour codes is common inside real transcripts.
 *
 * @example looksBinary('\u0000\u0001PK') === true; looksBinary('{"a":1}') === false
 */
export function looksBinary(sample: string): boolean {
  const n = Math.min(sample.length, 4096);
  if (n === 0) return false;
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) || c === 0xfffd) odd++;
  }
  return odd * 10 > n;
}
