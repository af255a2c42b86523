import { useMemo, useState } from 'react';
import { exportFileName, exportPipelineText } from '../model/exportPipeline.ts';
import { markExported } from '../persistence/versionHistory.ts';
import { useServices } from '../services/AppServices.tsx';
import { useApp, selectDoc, selectProblems } from '../store/appStore.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Icon } from '../ui/Icon.tsx';

/** Export the open pipeline as v1 JSON: download or copy, with or without canvas layout. */
export function ExportDialog({ onClose }: { onClose: () => void }) {
  const doc = useApp(selectDoc);
  const problems = useApp(selectProblems);
  const toast = useApp((s) => s.toast);
  const pipelineId = useApp((s) => s.pipelineId);
  const { db } = useServices();
  const [layout, setLayout] = useState(true);
  const text = useMemo(() => (doc ? exportPipelineText(doc, { layout }) : ''), [doc, layout]);
  if (!doc) return null;
  const errors = problems.filter((p) => p.severity === 'error').length;
  // The version exported is what a backtest compares the current edit with ("last export").
  const exported = () => {
    if (pipelineId) void markExported(db, pipelineId, doc, Date.now()).catch(() => undefined);
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = exportFileName(doc);
    a.click();
    exported();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      exported();
      toast({ tone: 'info', message: 'Pipeline JSON copied to the clipboard.' });
    } catch (e) {
      toast({ tone: 'error', message: `Could not copy: ${(e as Error).message}. Use Download instead.` });
    }
  };

  return (
    <Dialog title="Export pipeline" onClose={onClose} testId="export-dialog"
      footer={
        <>
          <button className="btn" onClick={() => void copy()} data-testid="export-copy"><Icon name="copy" /> Copy JSON</button>
          <button className="btn primary" onClick={download} data-testid="export-download"><Icon name="import" /> Download {exportFileName(doc)}</button>
        </>
      }>
      <div className="row" style={{ marginBottom: 10 }}>
        <label className="check">
          <input type="checkbox" checked={layout} onChange={(e) => setLayout(e.target.checked)} data-testid="export-layout" />
          Include canvas layout (node positions)
        </label>
        <span className="grow" />
        <span className="hint" style={{ color: 'var(--faint)' }}>{text.length.toLocaleString()} characters · format hookwire.pipeline v1</span>
      </div>
      {errors > 0 && (
        <div className="inline-problem" style={{ marginBottom: 10 }}>
          This pipeline has {errors} error{errors === 1 ? '' : 's'}; the file will be refused by the engine until they are fixed.
        </div>
      )}
      <pre className="preview" data-testid="export-preview" tabIndex={0} aria-label="The exported file">{text}</pre>
    </Dialog>
  );
}
