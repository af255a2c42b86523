import { useId } from 'react';
import { useServices } from '../services/AppServices.tsx';
import { useApp, selectNodeRun, selectRunStep, selectSample, type UsedState } from '../store/appStore.ts';
import { SAMPLE_TYPES, samplePayload } from '../model/sampleEvents.ts';
import { describeNodeRun } from '../canvas/describeNodeRun.ts';
import { RUN_NODE_KEYS } from '../canvas/RunCard.tsx';
import { Icon } from '../ui/Icon.tsx';

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** The state a run used, in one line: whose it is and what it held (JSON, shown as text). */
function usedLine(u: UsedState): string {
  const vars = JSON.stringify(u.vars);
  if (u.from === 'typed') return `State before: as typed, ${vars}`;
  const flows = u.flow_sessions > 0 ? `; flow rules remembered ${u.flow_sessions} session${u.flow_sessions === 1 ? '' : 's'}` : '';
  const version = u.same_version ? '' : ' (replayed with the pipeline as it was before your latest edits: Debug replays it again)';
  return `State before: the replay's just before step ${u.index + 1}, ${vars}${flows}${version}`;
}

/**
 * "Run this node" (issue 34): one place to run the selected node alone with the engine's `runNode` [X7], on
 * the debugger's selected step — its event, with the state the replay had just before it — or on an event
 * typed here, with a typed state. The result shows here (with the state it used) and in a card under the
 * node on the canvas. Ctrl/⌘ Enter runs it from the canvas or from these fields.
 */
export function RunNodePanel({ nodeId }: { nodeId: string }) {
  const { nodeRunner } = useServices();
  const sample = useApp(selectSample);
  const setSample = useApp((s) => s.setSample);
  const step = useApp(selectRunStep);
  const entry = useApp(selectNodeRun(nodeId));
  const ids = useId();
  const text = entry?.outcome ? describeNodeRun(entry.outcome) : null;
  const source = sample.source === 'step' && step ? 'step' : 'typed';
  const from = source === 'step' && step ? `step ${step.index + 1} · ${step.event.type}` : `a typed ${sample.type}`;

  const setType = (type: string) => {
    // A payload still as the last type's sample follows the type; one the person edited stays.
    const untouched = sample.payloadText === pretty(samplePayload(sample.type));
    setSample({ type, ...(untouched && SAMPLE_TYPES.includes(type) ? { payloadText: pretty(samplePayload(type)) } : {}) });
  };
  // The step's event and the replay's state before it, as a typed event to change (the step itself stays as it is).
  const typeFromStep = () => {
    const st = useApp.getState();
    const d = st.detail;
    if (!step || !d) return;
    setSample({ source: 'typed', type: step.event.type, payloadText: pretty(step.event.payload), stateText: JSON.stringify(d.step.state_before.vars) });
  };

  return (
    <section className="run-node" data-testid="run-node-panel" aria-label="Run this node on an event">
      <div className="run-node-head">
        <button type="button" className="btn ghost run-node-toggle" aria-expanded={sample.open} aria-controls={`${ids}-body`} data-testid="run-node-sample-toggle"
          onClick={() => setSample({ open: !sample.open })}>
          <span aria-hidden>{sample.open ? '▾' : '▸'}</span> <span className="run-node-on">Run on:</span> <span className="mono run-node-from" data-testid="run-node-from">{from}</span>
        </button>
        <button type="button" className="btn primary" data-testid="run-node" aria-keyshortcuts="Control+Enter Meta+Enter"
          title={`Run this node alone on ${from} (${RUN_NODE_KEYS})`} onClick={() => void nodeRunner.run(nodeId)}>
          <Icon name="play" size={12} /> Run node
        </button>
      </div>
      {sample.open && (
        <div id={`${ids}-body`} className="run-node-body">
          <fieldset className="run-node-source">
            <legend>Run on</legend>
            <label className={step ? '' : 'disabled'}>
              <input type="radio" name={`${ids}-source`} checked={source === 'step'} disabled={!step} data-testid="run-node-source-step"
                onChange={() => setSample({ source: 'step' })} />
              {step ? <span>The selected step: <span className="mono">step {step.index + 1} · {step.event.type}</span> of “{step.traceName}”</span>
                : <span>The selected step (none: open a trace in Debug and pick a step)</span>}
            </label>
            <label>
              <input type="radio" name={`${ids}-source`} checked={source === 'typed'} data-testid="run-node-source-typed"
                onChange={() => setSample({ source: 'typed' })} />
              <span>An event you type</span>
            </label>
          </fieldset>
          {source === 'step' ? (
            <div className="hint run-node-step-note" data-testid="run-node-step-note">
              Runs on the step's event with the state the replay had just before it (counters, budgets, what flow rules remember).{' '}
              <button type="button" className="btn ghost dbg-mini" data-testid="run-node-type-from-step" onClick={typeFromStep}>Type an event from this step</button>
            </div>
          ) : (
            <>
              <div className="field">
                <label htmlFor={`${ids}-type`}>Event type</label>
                <input id={`${ids}-type`} className="input mono" list={`${ids}-types`} value={sample.type} spellCheck={false} data-testid="run-node-type"
                  onChange={(e) => setType(e.target.value)} />
                <datalist id={`${ids}-types`}>{SAMPLE_TYPES.map((t) => <option key={t} value={t} />)}</datalist>
              </div>
              <div className="field">
                <label htmlFor={`${ids}-payload`}>Payload (JSON)</label>
                <textarea id={`${ids}-payload`} className="textarea mono" rows={7} value={sample.payloadText} spellCheck={false} data-testid="run-node-payload"
                  onChange={(e) => setSample({ payloadText: e.target.value })} />
              </div>
              <div className="field">
                <label htmlFor={`${ids}-state`}>State before (JSON)</label>
                <input id={`${ids}-state`} className="input mono" value={sample.stateText} spellCheck={false} data-testid="run-node-state"
                  onChange={(e) => setSample({ stateText: e.target.value })} />
              </div>
            </>
          )}
        </div>
      )}
      {entry && (
        <div className={`run-node-result tone-${text?.tone ?? 'running'}`} data-testid="run-node-result" role="status">
          <div className="run-node-headline" data-testid="run-node-headline">{text ? text.headline : 'Running…'}</div>
          <div className="run-node-sub">on {entry.sample}</div>
          {entry.used && <div className="run-node-sub mono run-node-used" data-testid="run-node-state-used">{usedLine(entry.used)}</div>}
          {text && <pre className="run-node-lines">{text.lines.join('\n')}</pre>}
        </div>
      )}
    </section>
  );
}
