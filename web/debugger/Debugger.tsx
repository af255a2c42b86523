import { useState, type DragEvent } from 'react';
import { Workbench } from '../shell/Workbench.tsx';
import { useServices } from '../services/AppServices.tsx';
import { DebugMain } from './canvas/DebugMain.tsx';
import { ImportResultDialog } from './library/ImportResultDialog.tsx';
import { TraceLibrary } from './library/TraceLibrary.tsx';
import { StepPanel } from './step/StepPanel.tsx';
import { BottomPanel } from './timeline/BottomPanel.tsx';
import { useDebuggerShortcuts } from './useDebuggerShortcuts.ts';
import './debugger.css';

/**
 * Debug mode: the trace library on the left, the canvas showing the path of the current event, the step's
 * explanation on the right, and the timeline under the canvas. A trace file dropped anywhere is imported.
 */
export function Debugger() {
  const { traces } = useServices();
  useDebuggerShortcuts();
  const [dragging, setDragging] = useState(false);
  const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');
  return (
    <div
      className="dbg-root"
      data-testid="debugger"
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        if (!dragging) setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.relatedTarget === null) setDragging(false);
      }}
      onDrop={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        traces.importFiles([...e.dataTransfer.files]);
      }}
    >
      <Workbench collapsible="debug" leftLabel="trace library" left={<TraceLibrary />} main={<DebugMain />} right={<StepPanel />} bottom={<BottomPanel />} />
      {dragging && (
        <div className="dbg-drop-overlay" data-testid="drop-overlay">
          <div className="box">Drop a trace file to import it</div>
        </div>
      )}
      <ImportResultDialog />
    </div>
  );
}
