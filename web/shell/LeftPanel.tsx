import { useState } from 'react';
import { Palette } from '../canvas/Palette.tsx';
import { HistoryPanel } from '../library/HistoryPanel.tsx';
import { LibraryPanel } from '../library/LibraryPanel.tsx';
import { Tab, TabList } from '../ui/Tabs.tsx';

/** Palette, library and the open pipeline's version history share the left panel, as tabs. */
export function LeftPanel() {
  const [tab, setTab] = useState<'palette' | 'library' | 'history'>('palette');
  return (
    <>
      <TabList label="Left panel">
        <Tab selected={tab === 'palette'} onSelect={() => setTab('palette')} testId="tab-palette">Add nodes</Tab>
        <Tab selected={tab === 'library'} onSelect={() => setTab('library')} testId="tab-library">Pipelines</Tab>
        <Tab selected={tab === 'history'} onSelect={() => setTab('history')} testId="tab-history">History</Tab>
      </TabList>
      {tab === 'palette' ? <Palette /> : tab === 'library' ? <LibraryPanel /> : <HistoryPanel />}
    </>
  );
}
