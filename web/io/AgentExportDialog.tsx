import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { AGENT_CONTRACTS, type AgentId, exportForAgent, installCommandLine, isAgentId, type LossItem, serveUrlProblem } from '../../engine/app.ts';
import { exportFileName } from '../model/exportPipeline.ts';
import { nodeName } from '../model/nodeName.ts';
import { useApp, selectAgentMarks, selectDoc } from '../store/appStore.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Icon } from '../ui/Icon.tsx';

/**
 * "Export for agent" [AG6]: pick a coding agent, see the hook configuration that routes the pipeline's events
 * through Hookwire and the loss report (what the pipeline decides that this agent cannot carry out), by node;
 * copy or download the file. Both come from the engine (`exportForAgent`), the same as `hookwire install`
 * prints: nothing here decides what is lost. The chosen agent's losses are marked on the canvas (store
 * `agentMarks`), and stay marked after the dialog closes until cleared from the canvas bar.
 */
export function AgentExportDialog({ onClose }: { onClose: () => void }) {
  const doc = useApp(selectDoc);
  const marked = useApp(selectAgentMarks);
  const markAgent = useApp((s) => s.markAgent);
  const toast = useApp((s) => s.toast);
  const [agent, setAgent] = useState<AgentId>(marked ?? 'claude');
  const [pipeline, setPipeline] = useState(() => (doc ? exportFileName(doc) : 'pipeline.json'));
  const [serve, setServe] = useState('');
  const [existing, setExisting] = useState('');
  const ids = { agent: useId(), pipeline: useId(), serve: useId(), existing: useId() };

  // The canvas marks follow the agent picked here.
  useEffect(() => markAgent(agent), [agent, markAgent]);
  // The agent list takes the focus, so typing a name picks it (a passive effect runs after the dialog's showModal).
  const agentList = useRef<HTMLSelectElement>(null);
  useEffect(() => agentList.current?.focus(), []);

  const serveProblem = serve.trim() === '' ? null : serveUrlProblem(serve.trim());
  const pathProblem = pipeline.trim() === '' ? 'Name the pipeline file the hook command runs' : null;
  const target = useMemo(() => ({ pipeline: pipeline.trim(), ...(serve.trim() && !serveProblem ? { serve: serve.trim() } : {}) }), [pipeline, serve, serveProblem]);
  const result = useMemo(() => (doc ? exportForAgent(doc, agent, target, existing.trim() === '' ? null : existing) : null), [doc, agent, target, existing]);
  if (!doc || !result) return null;
  const contract = AGENT_CONTRACTS.get(agent)!;
  const config = result.config;
  const ready = config.ok && !pathProblem && !serveProblem;
  // Entries for the person to add to a file of their own (Kimi Code): copied, never downloaded as that file.
  const paste = config.ok ? config.paste : undefined;
  const fileName = config.file ? config.file.slice(config.file.lastIndexOf('/') + 1) : '';

  const download = () => {
    if (!config.ok) return;
    const url = URL.createObjectURL(new Blob([config.text], { type: config.file.endsWith('.js') ? 'text/javascript' : 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    a.click();
    // Revoked well after the download starts: on a loaded machine a second was not always enough.
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  const copy = async () => {
    if (!config.ok) return;
    try {
      await navigator.clipboard.writeText(config.text);
      toast({ tone: 'info', message: `${config.file} copied to the clipboard.` });
    } catch (e) {
      toast({ tone: 'error', message: `Could not copy: ${(e as Error).message}. Use Download instead.` });
    }
  };
  const show = (node: string) => {
    useApp.getState().focusNode(node);
    onClose();
  };

  return (
    <Dialog title="Export for agent" onClose={onClose} testId="agent-export-dialog"
      footer={
        <>
          <button className="btn" onClick={() => void copy()} disabled={!ready} data-testid="agent-export-copy"><Icon name="copy" /> Copy</button>
          {paste === undefined && <button className="btn primary" onClick={download} disabled={!ready} data-testid="agent-export-download"><Icon name="import" /> Download {fileName || 'file'}</button>}
        </>
      }>
      <div className="agent-export-fields">
        <div className="field">
          <label htmlFor={ids.agent}>Agent</label>
          <select id={ids.agent} className="select" value={agent} data-testid="agent-export-agent" ref={agentList}
            onChange={(e) => isAgentId(e.target.value) && setAgent(e.target.value)}>
            {[...AGENT_CONTRACTS.values()].map((c) => <option key={c.id} value={c.id}>{c.name}{c.confirmed ? '' : ' (unconfirmed)'}</option>)}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor={ids.pipeline}>Pipeline file, as the hook command names it</label>
          <input id={ids.pipeline} className="input mono" value={pipeline} spellCheck={false} data-testid="agent-export-pipeline" aria-invalid={!!pathProblem}
            onChange={(e) => setPipeline(e.target.value)} />
          {pathProblem ? <div className="error" role="alert">{pathProblem}</div> : <div className="hint">Save the pipeline there (Export); an absolute path works from any directory.</div>}
        </div>
        <div className="field grow">
          <label htmlFor={ids.serve}>Forward to hookwire serve (optional)</label>
          <input id={ids.serve} className="input mono" value={serve} spellCheck={false} placeholder="http://127.0.0.1:7347" data-testid="agent-export-serve" aria-invalid={!!serveProblem}
            onChange={(e) => setServe(e.target.value)} />
          {serveProblem && <div className="error" role="alert" data-testid="agent-export-serve-problem">{serveProblem}</div>}
        </div>
      </div>

      <LossReport agent={contract.name} items={result.losses} onShow={show} />
      {result.alsoRunBy.map((note, i) => (
        <p key={i} className="hint agent-export-also" data-testid="agent-export-also">{note}</p>
      ))}

      <h3 className="agent-export-head">
        {paste !== undefined ? <>Add to <code data-testid="agent-export-file">{config.file}</code></>
          : config.file ? <>Configuration: <code data-testid="agent-export-file">{config.file}</code></> : 'Configuration'}
      </h3>
      {paste !== undefined && <p className="hint" data-testid="agent-export-paste">{paste}.</p>}
      {config.ok ? (
        <pre className="preview" data-testid="agent-export-preview" tabIndex={0}
          aria-label={paste !== undefined ? `The entries to add to ${config.file}` : `The generated ${config.file}`}>{config.text}</pre>
      ) : (
        <div className="inline-problem agent-export-refused" role="alert" data-testid="agent-export-refused">{config.reason}</div>
      )}
      {paste === undefined && <details className="agent-export-merge" open={existing !== ''}>
        <summary>Merge into your current {config.file || 'file'}</summary>
        <div className="field">
          <label htmlFor={ids.existing}>{agent === 'opencode'
            ? 'Paste the file as it is now: a plugin Hookwire wrote is replaced, any other plugin of that name is refused'
            : 'Paste the file as it is now: your other hooks and settings stay, Hookwire\'s earlier hooks are replaced'}</label>
          <textarea id={ids.existing} className="textarea mono" rows={4} value={existing} spellCheck={false} data-testid="agent-export-existing"
            onChange={(e) => setExisting(e.target.value)} />
        </div>
      </details>}
      <p className="hint agent-export-cli">
        From the project, <code data-testid="agent-export-cli">{installCommandLine(agent, { pipeline: pipeline.trim() || 'pipeline.json', ...(target.serve ? { serve: target.serve } : {}) })}</code>{' '}
        {paste !== undefined ? 'prints the same entries; it writes nothing.' : 'writes the same, merged into the existing file with a backup.'}
      </p>
    </Dialog>
  );
}

/** The loss report, by node; a node's name shows it on the canvas. */
function LossReport({ agent, items, onShow }: { agent: string; items: readonly LossItem[]; onShow: (node: string) => void }) {
  const doc = useApp(selectDoc);
  const names = useMemo(() => new Map((doc?.nodes ?? []).map((n) => [n.id, nodeName(n)])), [doc]);
  if (items.length === 0) {
    return <p className="ok-note" data-testid="agent-export-no-loss">Nothing is lost: {agent} carries out every decision of this pipeline.</p>;
  }
  return (
    <section aria-label="Loss report">
      <h3 className="agent-export-head">What {agent} cannot carry out ({items.length})</h3>
      <ul className="problem-list agent-loss-list" data-testid="agent-export-losses">
        {items.map((l, i) => (
          <li key={i} className="warning" data-testid="agent-loss" data-node={l.node ?? ''} data-kind={l.kind}>
            {l.node !== null && names.has(l.node) ? (
              <button className="linklike" onClick={() => onShow(l.node!)} title="Show this node on the canvas">{names.get(l.node)}</button>
            ) : (
              <strong>{l.node ?? 'The agent'}</strong>
            )}
            {': '}
            <span data-testid="agent-loss-text">{l.text}</span>
            {l.events.length > 0 && <span className="path">{l.events.join(', ')}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
