import { useMemo, useRef, type FocusEvent, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';

/**
 * Rows drawn beyond those in view, above and below. Tab from the last row in view reaches the next one drawn;
 * the browser scrolls it into view, and the rows after it are drawn in turn, so Tab and Shift+Tab walk the whole
 * list as when every row was drawn.
 */
const OVERSCAN = 6;

/**
 * A list that draws only the rows in view (@tanstack/react-virtual, as the timeline and the backtest results):
 * the trace library and the Backtest trace picker held a row per trace, 201 rows and 800 Tab stops for a team's
 * 200 sessions, all drawn again as each import landed. Rows are keyed by `keys` and measured once drawn.
 * The row holding the keyboard stays drawn when the list scrolls away from it (the wheel, new rows above), so the
 * focus is never dropped to the page. Put `data-index={item.index}` and `ref={v.measureElement}` on each row's slot,
 * and `focusProps` on the scrolling element.
 */
export function useVirtualRows(keys: readonly string[], scroller: RefObject<HTMLElement | null>, estimate: number) {
  const focused = useRef<string | null>(null);
  const indexOf = useMemo(() => new Map(keys.map((k, i) => [k, i])), [keys]);
  const v = useVirtualizer({
    count: keys.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimate,
    getItemKey: (i) => keys[i]!,
    overscan: OVERSCAN,
    rangeExtractor: (range) => {
      const rows = defaultRangeExtractor(range);
      const at = focused.current === null ? undefined : indexOf.get(focused.current);
      if (at === undefined || rows.includes(at)) return rows;
      return [...rows, at].sort((a, b) => a - b);
    },
  });
  const focusProps = {
    onFocus: (e: FocusEvent<HTMLElement>) => {
      const slot = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
      const index = slot ? Number(slot.dataset.index) : NaN;
      focused.current = Number.isInteger(index) ? (keys[index] ?? null) : null;
    },
    onBlur: (e: FocusEvent<HTMLElement>) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) focused.current = null;
    },
  };
  return { v, focusProps };
}
