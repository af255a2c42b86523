import type { ReactNode } from 'react';
import { Toasts } from './Notices.tsx';

/**
 * The page layout every mode shares: a left panel, the main canvas area, a right panel and a bottom panel
 * under the canvas. Edit mode fills it with palette/library, canvas, inspector and problems; the debugger
 * fills the same slots with its own panels. Toasts show at the foot of the main area, so they never cover a
 * side or bottom panel's controls (the Problems panel's Hide, the timeline, the inspector).
 */
export function Workbench({ left, main, right, bottom }: { left: ReactNode; main: ReactNode; right: ReactNode; bottom?: ReactNode }) {
  return (
    <div className="workbench">
      <aside className="side-left">{left}</aside>
      <main className="main">
        {main}
        <Toasts />
      </main>
      <aside className="side-right">{right}</aside>
      {bottom && <div className="bottom">{bottom}</div>}
    </div>
  );
}
