import { useApp, selectDoc, selectMode, selectSave } from '../store/appStore.ts';
import { Icon } from '../ui/Icon.tsx';

function SaveIndicator() {
  const save = useApp(selectSave);
  const text =
    save.status === 'saving' ? 'Saving…'
      : save.status === 'saved' ? 'All changes saved'
        : save.status === 'error' ? 'Not saved'
          : save.status === 'conflict' ? 'Not saved: conflict'
            : 'Saved';
  return (
    <span className="save-state" data-status={save.status} data-testid="save-state" aria-live="polite">
      <span className="dot" /> {text}
    </span>
  );
}

/** Brand, Edit/Debug/Backtest modes, the open pipeline's name and save state, import, export, export for an agent and the keys' help. */
export function TopBar({ onImport, onExport, onAgentExport, onHelp }: { onImport: () => void; onExport: () => void; onAgentExport: () => void; onHelp: () => void }) {
  const mode = useApp(selectMode);
  const setMode = useApp((s) => s.setMode);
  const doc = useApp(selectDoc);
  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark"><Icon name="event" size={13} strokeWidth={2} /></span>
        Hookwire
      </div>
      <nav className="mode-switch" aria-label="Mode">
        <button aria-pressed={mode === 'edit'} onClick={() => setMode('edit')} data-testid="mode-edit">Edit</button>
        <button aria-pressed={mode === 'debug'} onClick={() => setMode('debug')} data-testid="mode-debug">Debug</button>
        <button aria-pressed={mode === 'backtest'} onClick={() => setMode('backtest')} data-testid="mode-backtest">Backtest</button>
      </nav>
      <div className="topbar-title">
        {doc && <span className="name" data-testid="pipeline-title" title={doc.name}>{doc.name}</span>}
        {doc && <SaveIndicator />}
      </div>
      <div className="topbar-actions">
        <button className="btn" onClick={onImport} data-testid="open-import"><Icon name="import" /> Import</button>
        <button className="btn" onClick={onExport} disabled={!doc} data-testid="open-export"><Icon name="export" /> Export</button>
        <button className="btn" onClick={onAgentExport} disabled={!doc} data-testid="open-agent-export" title="The hook configuration of a coding agent, and what it cannot carry out">
          <Icon name="export" /> Export for agent
        </button>
        <button className="btn ghost icon" onClick={onHelp} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts" aria-keyshortcuts="?" data-testid="open-help">?</button>
      </div>
    </header>
  );
}
