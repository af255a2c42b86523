import { useEffect, useId, useState } from 'react';
import type { TraceEvent } from '../../engine/app.ts';
import { getSetting } from '../persistence/library.ts';
import { TRACE_SETTINGS } from '../persistence/startTraceLibrary.ts';
import type { StoredTrace } from '../persistence/storedTrace.ts';
import type { HookwireDb } from '../persistence/db.ts';
import { listTraces, readEventRange } from '../persistence/traceLibrary.ts';
import { useServices } from '../services/AppServices.tsx';
import { useApp, selectNodeRun, selectSample, selectTrace } from '../store/appStore.ts';
import { SAMPLE_TYPES, samplePayload } from '../model/sampleEvents.ts';
import { describeNodeRun } from '../canvas/describeNodeRun.ts';
import { RUN_NODE_KEYS } from '../canvas/RunCard.tsx';
import { Icon } from '../ui/Icon.tsx';

/** Trace steps offered as samples (the first ones; a long trace is not read whole for a list). */
const STEPS_OFFERED = 200;

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** One line per step for the list: "3 · tool.before_call · Bash". */
function stepLine(e: TraceEvent, i: number): string {
  const tool = e.payload && typeof e.payload.tool_name === 'string' ? ` · ${e.payload.tool_name.slice(0, 40)}` : '';
  return `${i + 1} · ${e.type}${tool}`;
}

/** The trace the debugger opens first when none is open yet: the last one shown, else the newest ready one. */
async function lastTrace(db: HookwireDb): Promise<StoredTrace | null> {
  const last = await getSetting<string>(db, TRACE_SETTINGS.lastTrace);
  const list = await listTraces(db);
  return list.find((t) => t.id === last && t.status === 'ready') ?? list.find((t) => t.status === 'ready') ?? null;
}

/** The current trace (open in the debugger, else the one it opens first) and its first steps, read from IndexedDB. */
function useTraceSteps(): { name: string | null; steps: TraceEvent[] } {
  const { db } = useServices();
  const open = useApp(selectTrace);
  const [found, setFound] = useState<{ name: string | null; steps: TraceEvent[] }>({ name: null, steps: [] });
  useEffect(() => {
    let live = true;
    const read = async () => {
      const trace = open ?? (await lastTrace(db));
      const steps = trace ? await readEventRange(db, trace, 0, STEPS_OFFERED) : [];
      if (live) setFound({ name: trace?.name ?? null, steps });
    };
    read().catch(() => live && setFound({ name: null, steps: [] }));
    return () => {
      live = false;
    };
  }, [db, open]);
  return found;
}

/**
 * "Run this node" (issue 34): pick a sample event — a step of the current trace or a typed payload with its
 * event type — and run the selected node alone on it with the engine's `runNode` [X7]. The result shows here
 * and in a card under the node on the canvas. Ctrl/⌘ Enter runs it from the canvas or from these fields.
 */
export function RunNodePanel({ nodeId }: { nodeId: string }) {
  const { nodeRunner } = useServices();
  const sample = useApp(selectSample);
  const setSample = useApp((s) => s.setSample);
  const entry = useApp(selectNodeRun(nodeId));
  const { name: traceName, steps } = useTraceSteps();
  const open = sample.open;
  const setOpen = (v: boolean) => setSample({ open: v });
  const ids = useId();
  const text = entry?.outcome ? describeNodeRun(entry.outcome) : null;
  const from = sample.step ? `step ${sample.step.index + 1} · ${sample.type}` : `a typed ${sample.type}`;

  const pickStep = (value: string) => {
    if (value === '') {
      setSample({ step: null });
      return;
    }
    const index = Number(value);
    const event = steps[index];
    if (event) setSample({ step: { index, event }, type: event.type, payloadText: pretty(event.payload) });
  };
  const setType = (type: string) => {
    // A payload still as the last type's sample follows the type; one the person edited stays.
    const untouched = !sample.step && sample.payloadText === pretty(samplePayload(sample.type));
    setSample({ type, ...(untouched && SAMPLE_TYPES.includes(type) ? { payloadText: pretty(samplePayload(type)) } : {}) });
  };

  return (
    <section className="run-node" data-testid="run-node-panel" aria-label="Run this node on a sample event">
      <div className="run-node-head">
        <button type="button" className="btn ghost run-node-toggle" aria-expanded={open} aria-controls={`${ids}-body`} data-testid="run-node-sample-toggle"
          onClick={() => setOpen(!open)}>
          <span aria-hidden>{open ? '▾' : '▸'}</span> Sample: <span className="mono run-node-from" data-testid="run-node-from">{from}</span>
        </button>
        <button type="button" className="btn primary" data-testid="run-node" aria-keyshortcuts="Control+Enter Meta+Enter"
          title={`Run this node alone on the sample event (${RUN_NODE_KEYS})`} onClick={() => void nodeRunner.run(nodeId)}>
          <Icon name="play" size={12} /> Run node
        </button>
      </div>
      {open && (
        <div id={`${ids}-body`} className="run-node-body">
          <div className="field">
            <label htmlFor={`${ids}-step`}>{traceName ? `From the trace “${traceName}”` : 'From a trace (none imported yet)'}</label>
            <select id={`${ids}-step`} className="select" data-testid="run-node-step" value={sample.step ? String(sample.step.index) : ''} onChange={(e) => pickStep(e.target.value)}>
              <option value="">Typed sample (below)</option>
              {steps.map((e, i) => <option key={i} value={i}>{stepLine(e, i)}</option>)}
            </select>
          </div>
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
        </div>
      )}
      {entry && (
        <div className={`run-node-result tone-${text?.tone ?? 'running'}`} data-testid="run-node-result" role="status">
          <div className="run-node-headline" data-testid="run-node-headline">{text ? text.headline : 'Running…'}</div>
          <div className="run-node-sub">on {entry.sample}</div>
          {text && <pre className="run-node-lines">{text.lines.join('\n')}</pre>}
        </div>
      )}
    </section>
  );
}
