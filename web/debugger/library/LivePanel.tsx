import { useEffect, useState } from 'react';
import { compare, type Operation } from 'fast-json-patch';
import { useServices } from '../../services/AppServices.tsx';
import { useApp } from '../../store/appStore.ts';
import { selectLive } from '../../store/liveSlice.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { loadPipeline, timelineStep, type Pipeline } from '../../../engine/app.ts';

/**
 * "Connect" in the trace library: attaches the debugger to a running `hookwire serve`. The followed session
 * (the first to send, or the one picked once several have) grows in the timeline from its first event as its
 * events arrive (debugger/liveSession.ts); Pause holds the timeline still,
 * Keep leaves the session in the library, and "Push pipeline…" shows the diff before anything is sent.
 * (`hookwire ui --live <server>` connects at start: web/io/liveFromCli.ts.)
 */
export function LivePanel() {
  const live = useApp(selectLive);
  const { live: session } = useServices();
  const [form, setForm] = useState(false);
  const [push, setPush] = useState(false);

  if (live.status === 'off' && !form) {
    return (
      <div className="live-bar">
        <button className="btn" data-testid="live-connect" onClick={() => setForm(true)}>Connect to a server…</button>
      </div>
    );
  }
  const on = live.status === 'live' || live.status === 'reconnecting';
  if (live.status === 'off' || (live.status === 'failed' && form)) return <ConnectForm error={live.error} onCancel={() => setForm(false)} onConnect={(url, token) => { setForm(false); void session.connect(url, token); }} />;
  return (
    <div className="live-bar" data-testid="live-bar" data-status={live.status}>
      <div className="live-status">
        <span className={`live-dot ${live.status}`} aria-hidden />
        <span data-testid="live-status-text">
          {live.status === 'connecting' && `Connecting to ${live.server}…`}
          {live.status === 'failed' && `Not connected: ${live.error}`}
          {live.status === 'reconnecting' && `Reconnecting to ${live.server} (attempt ${live.retry?.attempt ?? 1}): ${live.error}. The followed trace stays in the library.`}
          {live.status === 'live' && (live.following === null ? `Live on ${live.server} · waiting for a session` : `Live · ${live.following} · ${live.received} event${live.received === 1 ? '' : 's'}`)}
        </span>
      </div>
      {live.status === 'live' && live.sessions.length > 1 && (
        <label className="live-meta live-sessions">
          Session{' '}
          <select className="input" data-testid="live-session" value={live.following ?? ''} onChange={(e) => void session.follow(e.target.value)}>
            {live.following === null && <option value="">choose a session…</option>}
            {live.sessions.map((x) => (
              <option key={x.trace_id} value={x.trace_id}>{x.trace_id} · {x.events.toLocaleString('en')} event{x.events === 1 ? '' : 's'} · last: {x.lastDecision}</option>
            ))}
          </select>
        </label>
      )}
      {on && live.serverPipeline && <div className="live-meta" data-testid="live-pipeline">server pipeline: {live.serverPipeline.name} <span className="mono">{live.serverPipeline.version}</span></div>}
      {on && <ExplainedWith serverPipelineId={live.serverPipelineId} />}
      {live.status === 'live' && live.following !== null && live.lastDecision && <div className="live-meta" data-testid="live-last">last server decision: <span className={`dec dec-${live.lastDecision}`}>{live.lastDecision}</span>{live.waiting > 0 && <> · <b data-testid="live-waiting">{live.waiting} waiting</b></>}</div>}
      <div className="live-actions">
        {on && live.following !== null && (
          <>
            <button className="btn" data-testid="live-pause" aria-pressed={live.paused} onClick={() => session.setPaused(!live.paused)}>{live.paused ? 'Resume' : 'Pause'}</button>
            <button className="btn" data-testid="live-keep" onClick={() => void session.keep()}>Keep as trace</button>
          </>
        )}
        {live.status === 'live' && <button className="btn" data-testid="live-push" onClick={() => setPush(true)}>Push pipeline…</button>}
        {live.status === 'failed' && <button className="btn" onClick={() => setForm(true)}>Reconnect…</button>}
        <button className="btn ghost" data-testid="live-disconnect" onClick={() => void session.disconnect()}>Disconnect</button>
      </div>
      {push && <PushDialog onClose={() => setPush(false)} />}
    </div>
  );
}

/**
 * Which pipeline the debugger explains the live steps with: the server's own (opened from the server when
 * the stream began), or, after the person opened another, a warning that says so with the way back; and how
 * many steps the replay decides differently from the server's recorded answer (flagged "≠ recorded" in the
 * timeline, D goes to the next).
 */
function ExplainedWith({ serverPipelineId }: { serverPipelineId: string | null }) {
  const { workspace } = useServices();
  const pipelineId = useApp((s) => s.pipelineId);
  const name = useApp((s) => s.doc?.name ?? '');
  const timeline = useApp((s) => (s.live.storedId !== null && s.traceId === s.live.storedId ? s.timeline : null));
  let disagree = 0;
  let otherReason = 0;
  if (timeline) {
    for (let i = 0; i < timeline.count; i++) {
      const step = timelineStep(timeline, i);
      if (step?.divergent) disagree++;
      else if (step?.reason_differs) otherReason++;
    }
  }
  const theirs = serverPipelineId !== null && pipelineId === serverPipelineId;
  return (
    <>
      {serverPipelineId === null ? (
        <div className="live-meta" data-testid="live-explained">Opening the server's pipeline…</div>
      ) : theirs ? (
        <div className="live-meta" data-testid="live-explained" data-theirs="true">Explained with the server's pipeline (“{name}” in your library).</div>
      ) : (
        <div className="live-warn" role="status" data-testid="live-explained" data-theirs="false">
          Explained with “{name}”, <b>not the server's pipeline</b>: the reasons and handlers shown are this pipeline's, not what decided on the server.{' '}
          <button className="btn" data-testid="live-use-server" onClick={() => void workspace.openPipeline(serverPipelineId)}>Use the server's pipeline</button>
        </div>
      )}
      {timeline && (
        <div className={disagree ? 'live-warn' : 'live-meta'} data-testid="live-disagree" data-count={disagree}>
          {disagree === 0 ? (otherReason === 0 ? 'Every step replays as the server decided, for the server\'s reasons.' : 'Every step replays to the server\'s decision.') : `${disagree} step${disagree === 1 ? '' : 's'} decide${disagree === 1 ? 's' : ''} differently here than on the server (“≠ recorded” in the timeline; D goes to the next).`}
        </div>
      )}
      {timeline && otherReason > 0 && (
        <div className="live-warn" data-testid="live-reason" data-count={otherReason}>
          {`${otherReason} step${otherReason === 1 ? '' : 's'} reach${otherReason === 1 ? 'es' : ''} the server's decision for another reason or by another handler (“≠ recorded reason” in the timeline; the step says which).`}
        </div>
      )}
    </>
  );
}

function ConnectForm({ error, onCancel, onConnect }: { error: string | null; onCancel: () => void; onConnect: (url: string, token: string) => void }) {
  const [url, setUrl] = useState('http://127.0.0.1:7347');
  const [token, setToken] = useState('');
  return (
    <form className="live-form" data-testid="live-form" onSubmit={(e) => { e.preventDefault(); onConnect(url, token); }}>
      <label>Server <input className="input" data-testid="live-url" value={url} onChange={(e) => setUrl(e.target.value)} spellCheck={false} /></label>
      <label>Token <input className="input" data-testid="live-token" type="password" value={token} onChange={(e) => setToken(e.target.value)} placeholder="from <state-dir>/token" autoComplete="off" /></label>
      {error && <p className="live-error" role="alert">{error}</p>}
      <p className="dbg-side-hint">Start the server with <code>--allow-origin {window.location.origin}</code>.</p>
      <div className="live-actions">
        <button className="btn primary" type="submit" data-testid="live-go" disabled={!token.trim()}>Connect</button>
        <button className="btn ghost" type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

/** The server's pipeline against the editor's, as JSON Patch operations; nothing is sent until "Push". */
function PushDialog({ onClose }: { onClose: () => void }) {
  const { live } = useServices();
  const doc = useApp((s) => s.doc);
  const serverName = useApp((s) => s.live.serverPipeline?.name ?? 'its pipeline');
  const fromServer = useApp((s) => s.live.serverPipelineId !== null && s.pipelineId === s.live.serverPipelineId);
  const [ops, setOps] = useState<Operation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let gone = false;
    live.serverPipeline().then(
      (p) => !gone && setOps(doc ? compare(semantic(p.document as Pipeline), semantic(pushable(doc))) : []),
      (e: unknown) => !gone && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      gone = true;
    };
  }, [live, doc]);
  const pushNow = async () => {
    if (!doc) return;
    setBusy(true);
    try {
      const v = await live.pushPipeline(pushable(doc));
      useApp.getState().toast({ tone: 'info', message: `The server now runs “${v.name}” (${v.version}).` });
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <Dialog title={`Replace the server's pipeline with “${doc?.name ?? ''}”`} onClose={onClose} testId="live-push-dialog"
      footer={<>
        <button className="btn ghost" onClick={onClose}>Cancel</button>
        <button className="btn primary" data-testid="live-push-confirm" disabled={!ops || ops.length === 0 || busy} onClick={() => void pushNow()}>{fromServer ? 'Push to server' : `Replace with “${doc?.name ?? ''}”`}</button>
      </>}>
      {error && <p className="live-error" role="alert" data-testid="live-push-error">{error}</p>}
      {!ops && !error && <p>Reading the server's pipeline…</p>}
      {ops && ops.length === 0 && <p data-testid="live-push-same">The server already runs this pipeline.</p>}
      {ops && ops.length > 0 && (
        <>
          <p data-testid="live-push-what">The server runs “{serverName}”. Pushing replaces it with the editor's “{doc?.name}”.</p>
          {!fromServer && <p className="live-warn" role="alert" data-testid="live-push-other"><b>This is a different pipeline</b>, not an edit of the one the server runs: every decision from the next event on comes from “{doc?.name}”.</p>}
          <p>{ops.length} change{ops.length === 1 ? '' : 's'} from the server's pipeline to the editor's. The server validates it and switches between two events.</p>
          <ul className="live-diff mono" data-testid="live-diff">
            {ops.slice(0, 200).map((op, i) => (
              <li key={i} className={`op-${op.op}`}>{op.op} {op.path}{'value' in op ? ` = ${clip(JSON.stringify(op.value))}` : ''}</li>
            ))}
            {ops.length > 200 && <li>… and {ops.length - 200} more</li>}
          </ul>
        </>
      )}
    </Dialog>
  );
}

/** The library's copy of the server's pipeline is named "<name> · from serve": it goes back under its own name. */
function pushable(doc: Pipeline): Pipeline {
  return { ...doc, name: doc.name.replace(/ · from serve$/, '') };
}

/**
 * What decides, in the engine's canonical form (defaults filled in, as the app stores a pipeline it opened):
 * the canvas positions (`layout`, added when the app opened a file without them) are not a change.
 */
function semantic(doc: Pipeline): object {
  const loaded = loadPipeline(doc);
  const { layout: _layout, $schema: _schema, ...rest } = loaded.ok ? loaded.pipeline : doc;
  return rest;
}

function clip(s: string | undefined): string {
  const t = s ?? '';
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}
