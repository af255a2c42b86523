import { useState } from 'react';
import { isJsonObject, type JsonObject, type JsonValue, type CodeSpec, sandboxInput, type CodeRunReport, codeLimits } from '../../engine/app.ts';
import { SAMPLE_TYPES, sampleEvent, samplePayload } from '../model/sampleEvents.ts';
import { Icon } from '../ui/Icon.tsx';
import type { WorkerSandbox } from '../sandbox/workerSandbox.ts';

/** The page's sandbox worker, loaded on the first run (QuickJS is not part of the initial load). */
function getSandbox(): Promise<WorkerSandbox> {
  return import('../sandbox/workerSandbox.ts').then((m) => m.pageWorkerSandbox());
}

function show(value: JsonValue | undefined): string {
  return JSON.stringify(value, null, 2);
}

function describeReport(r: CodeRunReport): string {
  if (!r.ok) {
    const where = r.error.line !== undefined ? ` at line ${r.error.line}${r.error.column !== undefined ? `:${r.error.column}` : ''}` : '';
    return `${r.stage} failed (${r.error.kind})${where}: ${r.error.message}`;
  }
  if (r.role === 'matcher') return `matcher ${r.pass ? 'passes' : 'does not pass'}`;
  const o = r.outcome;
  const lines = [`decision: ${o.decision}`];
  if (o.reason) lines.push(`reason: ${o.reason}`);
  if (o.new_payload) lines.push(`new_payload: ${show(o.new_payload)}`);
  if (o.state_patch) lines.push(`state_patch: ${show(o.state_patch)}`);
  return lines.join('\n');
}

/** "Run on a sample event": the code runs in the real sandbox (a worker) on an editable sample. */
export function RunSample({ role, spec, nodeId }: { role: 'handler' | 'matcher'; spec: CodeSpec; nodeId: string }) {
  const [type, setType] = useState('tool.before_call');
  const [payloadText, setPayloadText] = useState(() => JSON.stringify(samplePayload('tool.before_call'), null, 2));
  const [stateText, setStateText] = useState('{}');
  const [report, setReport] = useState<CodeRunReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  const run = async () => {
    let payload: unknown;
    let state: unknown;
    try {
      payload = JSON.parse(payloadText);
      state = JSON.parse(stateText);
    } catch (e) {
      setError(`The sample is not valid JSON: ${(e as Error).message}`);
      return;
    }
    if (!isJsonObject(payload as JsonValue) || !isJsonObject(state as JsonValue)) {
      setError('The payload and the state must be JSON objects.');
      return;
    }
    setError(null);
    setRunning(true);
    const input = sandboxInput({ event: sampleEvent(type, payload as JsonObject), payload: payload as JsonObject, state: state as JsonObject, now: Date.parse('2026-01-01T12:00:00Z') });
    const limits = codeLimits(spec);
    try {
      const box = await getSandbox();
      const [r] = await box.run({ source: spec.source, language: spec.language, role, name: nodeId }, [input], limits);
      setReport(r ?? null);
    } catch (e) {
      setError(`The sandbox could not run: ${(e as Error).message}`);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div data-testid="run-sample">
      <div className="section-title">Run on a sample event</div>
      <div className="row" style={{ marginBottom: 8 }}>
        <select className="select grow" value={type} aria-label="Sample event type" data-testid="sample-type"
          onChange={(e) => {
            setType(e.target.value);
            setPayloadText(JSON.stringify(samplePayload(e.target.value), null, 2));
          }}>
          {SAMPLE_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <button className="btn primary" onClick={() => void run()} disabled={running} data-testid="run-sample-button">
          <Icon name="play" size={12} /> {running ? 'Running…' : 'Run'}
        </button>
      </div>
      <textarea className="textarea mono" rows={6} value={payloadText} aria-label="Sample payload" data-testid="sample-payload" spellCheck={false}
        onChange={(e) => setPayloadText(e.target.value)} />
      <div className="field" style={{ marginTop: 6 }}>
        <label>State before</label>
        <input className="input mono" value={stateText} aria-label="Sample state" spellCheck={false} onChange={(e) => setStateText(e.target.value)} />
      </div>
      {error && <div className="run-result error" role="alert">{error}</div>}
      {report && (
        <>
          <pre className={`run-result${report.ok ? '' : ' error'}`} data-testid="run-result">{describeReport(report)}</pre>
          <div className="hint" style={{ color: 'var(--faint)', marginTop: 4 }}>
            {report.duration_ms.toFixed(2)} ms{report.logs.length ? ` · logs: ${report.logs.join(' | ')}` : ''}
          </div>
        </>
      )}
    </div>
  );
}
