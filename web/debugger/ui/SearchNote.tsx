import { useEffect, useState } from 'react';
import { useServices } from '../../services/AppServices.tsx';
import { useApp } from '../../store/appStore.ts';

/** A search shorter than this shows nothing: a note that flashes up and vanishes would only distract. */
const SHOW_AFTER_MS = 250;

/**
 * While a search the person waits for runs (C, or play before its next stop is known), in the bar over the canvas
 * where "Paused at" then shows: how far it has looked, and Cancel (or Escape), which stops it and leaves the
 * debugger on the step it shows. The status is a live region that is always there, so a screen reader hears the
 * search begin and end.
 */
export function SearchNote() {
  const search = useApp((s) => s.search);
  const { playback } = useServices();
  const [shownId, setShownId] = useState<number | null>(null);
  const id = search?.id ?? null;
  useEffect(() => {
    if (id === null) return;
    const t = setTimeout(() => setShownId(id), SHOW_AFTER_MS);
    return () => clearTimeout(t);
  }, [id]);
  const shown = search !== null && shownId === search.id;
  const done = shown ? Math.min(search.done, search.total) : 0;
  const pct = shown && search.total > 0 ? Math.floor((done / search.total) * 100) : 0;
  return (
    <span className={`dbg-search${shown ? ' on' : ''}`} data-testid="search-progress">
      <span role="status" aria-live="polite" aria-atomic="true" className="txt" data-testid="search-status" title={shown ? 'Searching for the next breakpoint' : undefined}>
        {shown && (
          <>
            <span className="sr-only">Next breakpoint: </span>
            Searching… {done.toLocaleString('en')} of {search.total.toLocaleString('en')} steps
          </>
        )}
      </span>
      {shown && <span className="bar" aria-hidden="true"><span style={{ width: `${pct}%` }} /></span>}
      {shown && (
        <button type="button" className="btn ghost dbg-mini" onClick={playback.cancelSearch} title="Stop the search; the debugger stays on this step (Esc)"
          aria-keyshortcuts="Escape" data-testid="search-cancel">Cancel</button>
      )}
    </span>
  );
}
