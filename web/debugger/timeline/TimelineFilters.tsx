import { useEffect, useState } from 'react';
import { useServices } from '../../services/AppServices.tsx';
import { useApp, selectFilter, selectHandlers, selectVisible } from '../../store/appStore.ts';
import { DECISION_FILTERS, isFiltering, NO_FILTER, type DecisionFilter } from '../model/timelineFilter.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { FilterNote, useFilterNoteShown } from '../ui/SearchNote.tsx';

/**
 * Filters by event type, decision and handler, and a search in payloads; the engine decides what matches [R20].
 * A long search shows how far it has looked with Cancel; Escape anywhere in the bar cancels it too, and the
 * filter (the fields included) goes back to the one before.
 */
export function TimelineFilters() {
  const filter = useApp(selectFilter);
  const handlers = useApp(selectHandlers);
  const types = useApp((s) => s.trace?.event_types ?? []);
  const visible = useApp(selectVisible);
  const filtering = useApp((s) => s.filtering);
  const count = useApp((s) => s.trace?.event_count ?? 0);
  const [text, setText] = useState(filter.text);
  const { applyFilter, cancelFilter } = useServices().replay;
  const noteShown = useFilterNoteShown();

  useEffect(() => setText(filter.text), [filter.text]);
  useEffect(() => {
    if (text === filter.text) return;
    const t = setTimeout(() => void applyFilter({ ...useApp.getState().filter, text }), 250);
    return () => clearTimeout(t);
  }, [text, filter.text, applyFilter]);

  const on = isFiltering(filter);
  return (
    <div className="dbg-filters" onKeyDown={(e) => {
      if (e.key !== 'Escape' || !useApp.getState().filterSearch) return;
      // Not the debugger's Escape (pause) nor the field's (clear): the search stops, the filter before it stays.
      e.preventDefault();
      e.stopPropagation();
      cancelFilter();
    }}>
      <select className="select" aria-label="Filter by event type" data-testid="filter-type" value={filter.type ?? ''}
        onChange={(e) => void applyFilter({ ...filter, type: e.target.value || null })}>
        <option value="">All types</option>
        {types.map((t) => <option key={t.type} value={t.type}>{t.type} ({t.count})</option>)}
      </select>
      <select className="select" aria-label="Filter by decision" data-testid="filter-decision" value={filter.decision ?? ''}
        onChange={(e) => void applyFilter({ ...filter, decision: (e.target.value || null) as DecisionFilter | null })}>
        <option value="">All decisions</option>
        {DECISION_FILTERS.map((d) => <option key={d.value} value={d.value}>{d.label}</option>)}
      </select>
      <select className="select" aria-label="Filter by handler" data-testid="filter-handler" value={filter.handler ?? ''}
        onChange={(e) => void applyFilter({ ...filter, handler: e.target.value || null })}>
        <option value="">All handlers</option>
        {handlers.map((h) => <option key={h.id} value={h.id}>{h.name} fired</option>)}
      </select>
      <label className="dbg-search">
        <DebugIcon name="search" size={13} />
        <input className="input" placeholder="Search payloads" value={text} aria-label="Search in payloads" data-testid="filter-search"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !useApp.getState().filterSearch) setText('');
            // Enter hands the keys back to the timeline (arrows step through the matches).
            if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          }} />
      </label>
      <FilterNote />
      {on && !noteShown && (
        <span className="dbg-filter-count" data-testid="filter-count">
          {filtering ? '…' : `${(visible?.length ?? count).toLocaleString('en')} of ${count.toLocaleString('en')}`}
          <button className="btn ghost icon" title="Clear filters" aria-label="Clear filters" data-testid="filter-clear"
            onClick={() => { setText(''); void applyFilter(NO_FILTER); }}><DebugIcon name="close" size={12} /></button>
        </span>
      )}
    </div>
  );
}
