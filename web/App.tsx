import { useEffect, useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { Canvas } from './canvas/Canvas.tsx';
import { Inspector } from './inspector/Inspector.tsx';
import { AgentExportDialog } from './io/AgentExportDialog.tsx';
import { ExportDialog } from './io/ExportDialog.tsx';
import { ImportDialog } from './io/ImportDialog.tsx';
import { ProblemsPanel } from './problems/ProblemsPanel.tsx';
import { Debugger } from './debugger/Debugger.tsx';
import { BacktestView } from './backtest/BacktestView.tsx';
import { LeftPanel } from './shell/LeftPanel.tsx';
import { NoPipelineNote, OpenErrorNote, SaveBanner } from './shell/Notices.tsx';
import { useServices } from './services/AppServices.tsx';
import { demoPipeline } from './demo/demoPipeline.ts';
import { NewPipelineDialog } from './library/NewPipelineDialog.tsx';
import { TopBar } from './shell/TopBar.tsx';
import { HelpDialog, useHelpKey } from './shell/HelpDialog.tsx';
import { Workbench } from './shell/Workbench.tsx';
import { useApp, selectMode, selectOpenError, selectPipelineId } from './store/appStore.ts';

/** The app: top bar with Edit/Debug/Backtest, and the workbench of the current mode. */
export function App() {
  const mode = useApp(selectMode);
  const pipelineId = useApp(selectPipelineId);
  const openError = useApp(selectOpenError);
  const { ready, workspace } = useServices();
  const [started, setStarted] = useState(false);
  const [dialog, setDialog] = useState<'import' | 'export' | 'agent-export' | 'new' | null>(null);
  const [help, setHelp] = useHelpKey();

  useEffect(() => {
    void ready.finally(() => setStarted(true));
  }, [ready]);

  return (
    <ReactFlowProvider>
      <div className="app" data-testid="app-root">
        <TopBar onImport={() => setDialog('import')} onExport={() => setDialog('export')} onAgentExport={() => setDialog('agent-export')} onHelp={() => setHelp(true)} />
        {mode === 'edit' ? (
          <Workbench
            collapsible="edit"
            leftLabel="palette and pipelines"
            left={<LeftPanel />}
            main={
              <>
                {/* A new pipeline gets a fresh canvas (fit view, measurements). */}
                <Canvas key={pipelineId ?? 'none'} />
                <SaveBanner />
                <OpenErrorNote />
                {started && !pipelineId && !openError && (
                  <NoPipelineNote onNew={() => setDialog('new')} onDemo={() => void workspace.newPipeline(demoPipeline())} />
                )}
              </>
            }
            right={<Inspector />}
            bottom={pipelineId ? <ProblemsPanel /> : undefined}
          />
        ) : mode === 'backtest' ? (
          <BacktestView />
        ) : (
          <Debugger />
        )}
        {dialog === 'import' && <ImportDialog onClose={() => setDialog(null)} />}
        {dialog === 'export' && <ExportDialog onClose={() => setDialog(null)} />}
        {dialog === 'agent-export' && <AgentExportDialog onClose={() => setDialog(null)} />}
        {dialog === 'new' && <NewPipelineDialog onClose={() => setDialog(null)} />}
        <HelpDialog open={help} onClose={() => setHelp(false)} />
      </div>
    </ReactFlowProvider>
  );
}
