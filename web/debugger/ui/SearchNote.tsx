import { useEffect, useState, type ReactNode } from 'react';
import { useServices } from '../../services/AppServices.tsx';
import { useApp } from '../../store/appStore.ts';
import type { SearchFor } from '../../store/debuggerSlice.ts';

/** What a screen reader hears before the progress, and the note's title. */
const LOOKING_FOR: Record<SearchFor, string> = { breakpoint: 'Next breakpoint', block: 'Next blocked step', divergence: 'Next divergence' };

/** A search shorter than this shows nothing: a note that flashes up and vanishes would only distract. */
const SHOW_AFTER_MS = 250;

/** True once search `id` has run for SHOW_AFTER_MS (null: none runs). */
function useShownAfterDelay(id: number | null): boolean {
  const [shownId, setShownId] = useState<number | null>(null);
  useEffect(() => {
    if (id === null) return;
    const t = setTimeout(() => setShownId(id), SHOW_AFTER_MS);
    return () => clearTimeout(t);
  }, [id]);
  return id !== null && shownId === id;
}

interface ProgressProps {
  /** The search shown, or null (the live region stays, silent). */
  search: { done: number; total: number } | null;
  /** Read before the numbers by a screen reader; the title says it too. */
  label: string;
  cancelTitle: string;
  onCancel: () => void;
  testId: string;
  /** Where room is short (the filter bar): the share looked at, the steps in the title and for a screen reader. */
  compact?: boolean;
}

/**
 * How far a search has looked — "Searching… 41,200 of 100,000 steps", a bar — and Cancel. The status is a live
 * region that is always there, so a screen reader hears the search begin and end. The numbers keep their width
 * while they grow, so Cancel stays where it is under the pointer.
 */
function SearchProgress({ search, label, cancelTitle, onCancel, testId, compact = false }: ProgressProps): ReactNode {
  const done = search ? Math.min(search.done, search.total) : 0;
  const pct = search && search.total > 0 ? Math.floor((done / search.total) * 100) : 0;
  const total = search?.total.toLocaleString('en') ?? '';
  const steps = `${done.toLocaleString('en')} of ${total} steps`;
  return (
    <span className={`dbg-search-note${search ? ' on' : ''}${compact ? ' compact' : ''}`} data-testid={`${testId}-progress`}>
      <span role="status" aria-live="polite" aria-atomic="true" className="txt" data-testid={`${testId}-status`} title={search ? `${label}: searched ${steps}` : undefined}>
        {search && !compact && (
          <>
            <span className="sr-only">{label}: </span>
            Searching… <span className="n" style={{ minWidth: `${total.length}ch` }}>{done.toLocaleString('en')}</span> of {total} steps
          </>
        )}
        {search && compact && (
          <>
            <span className="sr-only">{label}: </span>
            Searching… <span className="n" style={{ minWidth: '4ch' }}>{pct}%</span>
            <span className="sr-only"> of {total} steps</span>
          </>
        )}
      </span>
      {search && !compact && <span className="bar" aria-hidden="true"><span style={{ width: `${pct}%` }} /></span>}
      {search && (
        <button type="button" className="btn ghost dbg-mini" onClick={onCancel} title={cancelTitle} aria-keyshortcuts="Escape" data-testid={`${testId}-cancel`}>Cancel</button>
      )}
    </span>
  );
}

/**
 * While a search the person waits for runs (C, B, D, or play before its next stop is known), in the bar over the
 * canvas where "Paused at" then shows: how far it has looked, and Cancel (or Escape), which stops it and leaves
 * the debugger on the step it shows.
 */
export function SearchNote() {
  const search = useApp((s) => s.search);
  const { playback } = useServices();
  const shown = useShownAfterDelay(search?.id ?? null);
  return (
    <SearchProgress search={shown ? search : null} label={search ? LOOKING_FOR[search.what] : ''} testId="search"
      cancelTitle="Stop the search; the debugger stays on this step (Esc)" onCancel={playback.cancelSearch} />
  );
}

/**
 * While the timeline filter is searched [R20], in the filter bar: how far it has looked, and Cancel (or Escape),
 * which stops it and keeps the filter and the steps shown before it.
 */
export function FilterNote() {
  const search = useApp((s) => s.filterSearch);
  const { replay } = useServices();
  const shown = useShownAfterDelay(search?.id ?? null);
  return (
    <SearchProgress search={shown ? search : null} label="Filter" testId="filter" compact
      cancelTitle="Stop the search; the timeline keeps the filter it had (Esc)" onCancel={replay.cancelFilter} />
  );
}

/** Whether the filter's search shows its progress (the filter's count gives way to it). */
export function useFilterNoteShown(): boolean {
  return useShownAfterDelay(useApp((s) => s.filterSearch?.id ?? null));
}
