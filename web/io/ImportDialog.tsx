import { useMemo, useRef, useState, type DragEvent } from 'react';
import { formatPath, detectTraceFormat, TRACE_FORMAT_LABELS } from '../../engine/app.ts';
import { checkImport, type ImportCheck } from '../model/exportPipeline.ts';
import { useServices } from '../services/AppServices.tsx';
import { useApp } from '../store/appStore.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Icon } from '../ui/Icon.tsx';

/**
 * Import a pipeline from a file or pasted JSON. The engine checks it; every problem is listed with where
 * it is; a pipeline that loads is added to the library as a new entry, so nothing saved is ever changed.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const { workspace, traces } = useServices();
  const [text, setText] = useState('');
  const picker = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState<string | null>(null);
  const [check, setCheck] = useState<ImportCheck | null>(null);
  const [over, setOver] = useState(false);

  const run = (t: string, from: string | null) => {
    setText(t);
    setSource(from);
    setCheck(t.trim() ? checkImport(t) : null);
  };
  const readFile = async (file: File | undefined) => {
    if (file) run(await file.text(), file.name);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void readFile(e.dataTransfer.files[0]);
  };
  const errors = check?.problems.filter((p) => p.severity === 'error') ?? [];
  const warnings = check?.problems.filter((p) => p.severity === 'warning') ?? [];

  // A recording opened here by mistake (the Debug mode's own Import is "Import trace"): the engine's detector
  // says what it is, by its content only, and the debugger imports it.
  // (Once per checked text, not at every render: detection reads up to 64 KB of it.)
  const failed = check !== null && !check.ok;
  const traceFormat = useMemo(() => (failed ? detectTraceFormat(text, source ?? undefined) : null), [failed, text, source]);
  const asTrace = traceFormat?.by === 'content' ? traceFormat.format : null;
  const importAsTrace = () => {
    traces.importFiles([new File([text], source ?? 'pasted trace.jsonl')]);
    useApp.getState().setMode('debug');
    onClose();
  };

  const doImport = async () => {
    if (!check?.ok || !check.doc) return;
    const id = await workspace.newPipeline(check.doc);
    if (id) onClose();
  };

  return (
    <Dialog title="Import pipeline" onClose={onClose} testId="import-dialog"
      footer={
        <>
          <button className="btn" onClick={onClose}>Cancel</button>
          <button className="btn primary" disabled={!check?.ok} onClick={() => void doImport()} data-testid="import-confirm">
            <Icon name="import" /> Import as new pipeline
          </button>
        </>
      }>
      <div className={`dropzone${over ? ' over' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={onDrop}>
        Drop a <span className="mono">.json</span> file here, or{' '}
        {/* A button, not a label around the hidden input: a label is no Tab stop, and the keyboard could not reach it.
            It takes the focus when the dialog opens (the × before it would have it). */}
        <button type="button" className="btn" data-autofocus onClick={() => picker.current?.click()} data-testid="import-choose">choose a file</button>
        <input ref={picker} type="file" accept=".json,application/json" hidden data-testid="import-file"
          onChange={(e) => { void readFile(e.target.files?.[0]); e.target.value = ''; }} />
        {source && <div className="hint" style={{ marginTop: 6 }}>Read <span className="mono">{source}</span></div>}
      </div>
      <textarea className="textarea mono" rows={10} placeholder='…or paste pipeline JSON here: { "format": "hookwire.pipeline", "version": 1, … }'
        value={text} onChange={(e) => run(e.target.value, null)} data-testid="import-text" spellCheck={false} aria-label="Pipeline JSON" />
      {check && (
        <div data-testid="import-result">
          {check.ok ? (
            <p className="ok-note" data-testid="import-ok">
              “{check.pipeline.name}” loads: {check.pipeline.nodes.length} nodes, {check.pipeline.wires.length} wires
              {warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''}.
            </p>
          ) : (
            <p style={{ color: 'var(--danger)', fontWeight: 600, margin: '12px 0 0' }} data-testid="import-refused">
              This file cannot be imported: {errors.length} problem{errors.length === 1 ? '' : 's'}. Nothing was changed.
            </p>
          )}
          {asTrace && (
            <p className="hint" data-testid="import-is-trace">
              This is a recorded run ({TRACE_FORMAT_LABELS[asTrace]}), not a pipeline: the debugger replays it.{' '}
              <button className="btn small" onClick={importAsTrace} data-testid="import-as-trace">Import as a trace</button>
            </p>
          )}
          {check.problems.length > 0 && (
            <ul className="problem-list" data-testid="import-problems">
              {check.problems.map((p, i) => (
                <li key={i} className={p.severity} data-testid="import-problem" data-code={p.code}>
                  {p.message}
                  <span className="path">{p.code} · {formatPath(p.path)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}
