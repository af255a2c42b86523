import { Canvas } from '../canvas/Canvas.tsx';
import { Workbench } from './Workbench.tsx';

/** Debug mode's slots until the replay debugger fills them: the canvas, read-only, in the main area. */
export function DebugPlaceholder() {
  return (
    <Workbench
      left={<div className="empty" style={{ paddingTop: 24 }}>Trace library</div>}
      main={<Canvas readOnly />}
      right={<div className="empty" style={{ paddingTop: 24 }}>Step explanation</div>}
      bottom={<div className="empty" style={{ padding: 12 }} data-testid="debug-placeholder">The replay debugger is not built yet.</div>}
    />
  );
}
