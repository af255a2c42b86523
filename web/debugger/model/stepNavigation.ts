/**
 * Moving through the timeline: one step on or back among the visible steps (all of them, or those a filter
 * keeps), to the first or last. Pure index arithmetic over the engine's answers.
 */
export type Move = 'next' | 'prev' | 'first' | 'last';

/** Where a move goes from `position`; the same position when there is nowhere to go. */
export function moveTo(position: number, count: number, visible: Int32Array | null, move: Move): number {
  if (count === 0) return 0;
  if (!visible) {
    if (move === 'first') return 0;
    if (move === 'last') return count - 1;
    return Math.min(count - 1, Math.max(0, position + (move === 'next' ? 1 : -1)));
  }
  if (visible.length === 0) return position;
  if (move === 'first') return visible[0]!;
  if (move === 'last') return visible[visible.length - 1]!;
  const k = move === 'next' ? firstAbove(visible, position) : firstAbove(visible, position - 1) - 1;
  if (move === 'next') return k < visible.length ? visible[k]! : position;
  return k >= 0 ? visible[k]! : position;
}

/** Index of the first element greater than `x` in a sorted list (its length when none). */
export function firstAbove(sorted: Int32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The row of the visible list that shows `index`, or the nearest row before it. */
export function rowOf(index: number, visible: Int32Array | null): number {
  if (!visible) return index;
  return Math.max(0, firstAbove(visible, index) - 1);
}
