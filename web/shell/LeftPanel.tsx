import { useState } from 'react';
import { Palette } from '../canvas/Palette.tsx';
import { LibraryPanel } from '../library/LibraryPanel.tsx';

/** Palette and library share the left panel, as tabs. */
export function LeftPanel() {
  const [tab, setTab] = useState<'palette' | 'library'>('palette');
  return (
    <>
      <div className="tabs" role="tablist">
        <button role="tab" aria-selected={tab === 'palette'} onClick={() => setTab('palette')} data-testid="tab-palette">Add nodes</button>
        <button role="tab" aria-selected={tab === 'library'} onClick={() => setTab('library')} data-testid="tab-library">Pipelines</button>
      </div>
      {tab === 'palette' ? <Palette /> : <LibraryPanel />}
    </>
  );
}
