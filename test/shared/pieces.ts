/** Pushes `text` cut at `cuts` (offsets in any order; repeats and offsets past the end are allowed), in order. */
export function pushInPieces(text: string, cuts: readonly number[], push: (piece: string) => void): void {
  const at = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
  let from = 0;
  for (const c of [...at, text.length]) {
    push(text.slice(from, c));
    from = c;
  }
}
