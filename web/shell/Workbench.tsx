import type { ReactNode } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { Toasts } from './Notices.tsx';
import { foldAriaKeys, foldShortcut, usePanel, type Fold } from './sidePanel.ts';

/**
 * The page layout every mode shares: a left panel, the main canvas area, a right panel and a bottom panel
 * under the canvas. Edit mode fills it with palette/library, canvas, inspector and problems; the debugger
 * fills the same slots with its own panels. Toasts show at the foot of the main area, so they never cover a
 * side or bottom panel's controls (the Problems panel's Hide, the timeline, the inspector).
 *
 * With `collapsible` (a name per mode), the side panels fold to a narrow rail and back (their buttons, Ctrl/⌘ B
 * for the left one and Ctrl/⌘ Alt B for the right one), so a small window gives the canvas the width
 * (sidePanel.ts). Folded, a panel stays mounted.
 */
export function Workbench({ left, main, right, bottom, collapsible, leftLabel = 'side panel', rightLabel = 'details panel' }: {
  left: ReactNode; main: ReactNode; right: ReactNode; bottom?: ReactNode; collapsible?: string; leftLabel?: string; rightLabel?: string;
}) {
  const [leftOpen, setLeftOpen] = usePanel(collapsible ?? '', 'left');
  const [rightOpen, setRightOpen] = usePanel(collapsible ?? '', 'right');
  const folds = collapsible !== undefined;
  const leftClosed = folds && !leftOpen;
  const rightClosed = folds && !rightOpen;
  const state = (open: boolean) => (folds ? (open ? 'open' : 'closed') : undefined);
  return (
    <div className={`workbench${leftClosed ? ' left-closed' : ''}${rightClosed ? ' right-closed' : ''}`} data-left={state(leftOpen)} data-right={state(rightOpen)}>
      <aside className="side-left">
        {folds && <FoldButton fold="left" open={leftOpen} label={leftLabel} onToggle={() => setLeftOpen(!leftOpen)} />}
        {/* Kept mounted while folded (its file inputs, the live connection, scroll places stay), only not shown. */}
        <div className="side-body" hidden={leftClosed}>{left}</div>
      </aside>
      <main className="main">
        {main}
        <Toasts />
      </main>
      <aside className="side-right">
        {folds && <FoldButton fold="right" open={rightOpen} label={rightLabel} onToggle={() => setRightOpen(!rightOpen)} />}
        <div className="side-body" hidden={rightClosed}>{right}</div>
      </aside>
      {bottom && <div className="bottom">{bottom}</div>}
    </div>
  );
}

function FoldButton({ fold, open, label, onToggle }: { fold: Extract<Fold, 'left' | 'right'>; open: boolean; label: string; onToggle: () => void }) {
  return (
    <button type="button" className={`btn ghost icon side-toggle ${fold}`} data-testid={`${fold}-toggle`} aria-expanded={open}
      aria-keyshortcuts={foldAriaKeys(fold)} aria-label={`${open ? 'Hide' : 'Show'} the ${label}`} title={`${open ? 'Hide' : 'Show'} the ${label} (${foldShortcut(fold)})`}
      onClick={onToggle}><Icon name="sidebar" size={14} /></button>
  );
}
