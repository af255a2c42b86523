import { useState } from 'react';
import { Palette } from '../canvas/Palette.tsx';
import { HistoryPanel } from '../library/HistoryPanel.tsx';
import { LibraryPanel } from '../library/LibraryPanel.tsx';
import { onTablistKeyDown } from '../ui/tablistKeys.ts';

/** Palette, library and the open pipeline's version history share the left panel, as tabs. */
export function LeftPanel() {
  const [tab, setTab] = useState<'palette' | 'library' | 'history'>('palette');
  return (
    <>
      <div className="tabs" role="tablist" onKeyDown={onTablistKeyDown}>
        <button role="tab" aria-selected={tab === 'palette'} onClick={() => setTab('palette')} data-testid="tab-palette">Add nodes</button>
        <button role="tab" aria-selected={tab === 'library'} onClick={() => setTab('library')} data-testid="tab-library">Pipelines</button>
        <button role="tab" aria-selected={tab === 'history'} onClick={() => setTab('history')} data-testid="tab-history">History</button>
      </div>
      {tab === 'palette' ? <Palette /> : tab === 'library' ? <LibraryPanel /> : <HistoryPanel />}
    </>
  );
}
