import { useEffect, useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { Canvas } from './canvas/Canvas.tsx';
import { Inspector } from './inspector/Inspector.tsx';
import { ExportDialog } from './io/ExportDialog.tsx';
import { ImportDialog } from './io/ImportDialog.tsx';
import { openFromCli } from './io/openFromCli.ts';
import { appDb } from './persistence/db.ts';
import { startWorkspace } from './persistence/workspace.ts';
import { ProblemsPanel } from './problems/ProblemsPanel.tsx';
import { Debugger } from './debugger/Debugger.tsx';
import { startTraceLibrary } from './persistence/startTraceLibrary.ts';
import { LeftPanel } from './shell/LeftPanel.tsx';
import { NoPipelineNote, OpenErrorNote, SaveBanner, Toasts } from './shell/Notices.tsx';
import { newPipeline } from './persistence/workspace.ts';
import { demoPipeline } from './demo/demoPipeline.ts';
import { emptyPipeline } from './model/emptyPipeline.ts';
import { TopBar } from './shell/TopBar.tsx';
import { Workbench } from './shell/Workbench.tsx';
import { useEditor, selectMode, selectOpenError, selectPipelineId } from './store/editorStore.ts';

/** The app: top bar with Edit/Debug, and the workbench of the current mode. */
export function App() {
  const mode = useEditor(selectMode);
  const pipelineId = useEditor(selectPipelineId);
  const openError = useEditor(selectOpenError);
  const [started, setStarted] = useState(false);
  const [dialog, setDialog] = useState<'import' | 'export' | null>(null);

  useEffect(() => {
    // The trace library starts beside the workspace (demo trace on first run, path completion samples).
    // Then the files `hookwire ui` was given, if it opened the app with them.
    void Promise.all([startWorkspace(appDb()), startTraceLibrary(appDb()).catch(() => null)])
      .finally(() => setStarted(true))
      .then(openFromCli);
  }, []);

  return (
    <ReactFlowProvider>
      <div className="app" data-testid="app-root">
        <TopBar onImport={() => setDialog('import')} onExport={() => setDialog('export')} />
        {mode === 'edit' ? (
          <Workbench
            left={<LeftPanel />}
            main={
              <>
                {/* A new pipeline gets a fresh canvas (fit view, measurements). */}
                <Canvas key={pipelineId ?? 'none'} />
                <SaveBanner />
                <OpenErrorNote />
                {started && !pipelineId && !openError && (
                  <NoPipelineNote onNew={() => void newPipeline(emptyPipeline())} onDemo={() => void newPipeline(demoPipeline())} />
                )}
              </>
            }
            right={<Inspector />}
            bottom={pipelineId ? <ProblemsPanel /> : undefined}
          />
        ) : (
          <Debugger />
        )}
        {dialog === 'import' && <ImportDialog onClose={() => setDialog(null)} />}
        {dialog === 'export' && <ExportDialog onClose={() => setDialog(null)} />}
        <Toasts />
      </div>
    </ReactFlowProvider>
  );
}
