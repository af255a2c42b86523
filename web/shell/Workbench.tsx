import type { ReactNode } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { Toasts } from './Notices.tsx';
import { foldShortcut, usePanel } from './sidePanel.ts';

/**
 * The page layout every mode shares: a left panel, the main canvas area, a right panel and a bottom panel
 * under the canvas. Edit mode fills it with palette/library, canvas, inspector and problems; the debugger
 * fills the same slots with its own panels. Toasts show at the foot of the main area, so they never cover a
 * side or bottom panel's controls (the Problems panel's Hide, the timeline, the inspector).
 *
 * With `collapsible` (a name per mode), the left panel folds to a narrow rail and back (its button, or
 * Ctrl/⌘ B), so a small window gives the canvas the width (sidePanel.ts). Folded, it stays mounted.
 */
export function Workbench({ left, main, right, bottom, collapsible, leftLabel = 'side panel' }: {
  left: ReactNode; main: ReactNode; right: ReactNode; bottom?: ReactNode; collapsible?: string; leftLabel?: string;
}) {
  const [open, setOpen] = usePanel(collapsible ?? '', 'left');
  const closed = collapsible !== undefined && !open;
  return (
    <div className={`workbench${closed ? ' left-closed' : ''}`} data-left={collapsible === undefined ? undefined : open ? 'open' : 'closed'}>
      <aside className="side-left">
        {collapsible !== undefined && (
          <button type="button" className="btn ghost icon side-toggle" data-testid="left-toggle" aria-expanded={open}
            aria-keyshortcuts="Control+B" aria-label={`${open ? 'Hide' : 'Show'} the ${leftLabel}`} title={`${open ? 'Hide' : 'Show'} the ${leftLabel} (${foldShortcut('left')})`}
            onClick={() => setOpen(!open)}><Icon name="sidebar" size={14} /></button>
        )}
        {/* Kept mounted while folded (its file inputs, the live connection, scroll places stay), only not shown. */}
        <div className="side-left-body" hidden={closed}>{left}</div>
      </aside>
      <main className="main">
        {main}
        <Toasts />
      </main>
      <aside className="side-right">{right}</aside>
      {bottom && <div className="bottom">{bottom}</div>}
    </div>
  );
}
