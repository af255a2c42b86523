import { useState } from 'react';
import { useApp, selectDoc, selectMode, selectNodeRun } from '../store/appStore.ts';
import { describeNodeRun } from './describeNodeRun.ts';

/** The key that runs the selected node (on the selected step or the typed event), as a title says it. */
export const RUN_NODE_KEYS = 'Ctrl/⌘ Enter';

/**
 * A node's last "Run node" result, attached under the node on the canvas (as Node-RED shows a node's status
 * and n8n its output): the headline, what it ran on, and the engine's detail lines on demand. Rendered as text
 * (payload values are untrusted). `nodrag nopan nokey`: clicks and keys here are the card's, not the canvas's.
 */
export function RunCard({ id }: { id: string }) {
  const entry = useApp(selectNodeRun(id));
  const doc = useApp(selectDoc);
  const mode = useApp(selectMode);
  const [open, setOpen] = useState(false);
  // The debugger's canvas shows the replayed step, not the editor's trial runs.
  if (!entry || mode !== 'edit') return null;
  const text = entry.outcome ? describeNodeRun(entry.outcome) : null;
  const stale = entry.doc !== doc;
  return (
    <div className={`run-card nodrag nopan nokey tone-${text?.tone ?? 'running'}${stale ? ' stale' : ''}`} data-testid="run-card" data-tone={text?.tone ?? 'running'}>
      <div className="run-card-head">
        <span className="run-card-headline" data-testid="run-card-headline" role="status" title={text?.headline}>{text ? text.headline : 'Running…'}</span>
        {text && (
          <button type="button" className="run-card-btn" aria-expanded={open} data-testid="run-card-toggle"
            aria-label={open ? 'Hide the run details' : 'Show the run details'} title={open ? 'Hide details' : 'Details'} onClick={() => setOpen(!open)}>{open ? '▾' : '▸'}</button>
        )}
        <button type="button" className="run-card-btn" aria-label="Close the run result" title="Close" data-testid="run-card-close"
          onClick={() => useApp.getState().dismissNodeRun(id)}>✕</button>
      </div>
      <div className="run-card-sub">on {entry.sample}{stale ? ' · pipeline edited since' : ''}</div>
      {open && text && <pre className="run-card-lines" data-testid="run-card-lines">{text.lines.join('\n')}</pre>}
    </div>
  );
}
