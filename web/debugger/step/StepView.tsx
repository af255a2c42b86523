import { isSyntheticTs, type ReplayStep, type Approval, breakerOpenAt, approvalOutcome, approvalText, eventAgent } from '../../../engine/app.ts';
import { useMemo, useState } from 'react';
import { useApp, selectDetail, selectHandlers, selectNoReplay, NO_REPLAY_TEXT } from '../../store/appStore.ts';
import type { StepDetail } from '../worker/protocol.ts';
import { OUTCOME_LONG, stepNumber, valueBlock, valueLine } from '../model/labels.ts';
import { stateRows } from '../model/payloadChanges.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { HandlerCard } from './HandlerCard.tsx';
import { PayloadChanges } from './PayloadChanges.tsx';
import { WhyPanel } from './WhyPanel.tsx';
import { FlowPanel } from './FlowPanel.tsx';
import { LabelPanel } from './LabelPanel.tsx';

/**
 * The engine's story of the current event, for people [X1]-[X4][R1]: the decision and who made it, the
 * notes (divergence, counterfactual, repeats), "why didn't it fire?", every handler in order, the payload
 * and state before and after. Every value is rendered as text.
 */
export function StepView() {
  const detail = useApp(selectDetail);
  const loading = useApp((s) => s.stepLoading);
  const count = useApp((s) => s.trace?.event_count ?? 0);
  const hasTrace = useApp((s) => s.trace !== null);
  const noReplay = useApp(selectNoReplay);
  // The content depends on the answer only: asking for the next step (loading) changes a class, not the tree.
  const content = useMemo(() => (detail ? <StepContent detail={detail} count={count} /> : null), [detail, count]);
  if (!detail) {
    const text = count === 0 && hasTrace ? 'This trace has no events.' : noReplay ? NO_REPLAY_TEXT : loading ? 'Replaying…' : 'Open a trace and pick a step.';
    return <div className="empty" data-testid="step-empty">{text}</div>;
  }
  const { step } = detail;
  return (
    <div className={`dbg-step${loading ? ' loading' : ''}`} data-testid="step-view" data-index={step.index} data-outcome={step.outcome}>
      {content}
    </div>
  );
}

function StepContent({ detail, count }: { detail: StepDetail; count: number }) {
  const { step } = detail;
  return (
    <>
      <header className="dbg-step-head">
        <div className="row">
          <span className="dbg-step-no">Step {stepNumber(step.index)} <span className="of">of {count.toLocaleString('en')}</span></span>
          <span className="grow" />
          {!isSyntheticTs(step.event.ts) && <span className="dbg-time" title={step.event.ts} data-testid="step-time">{timeOf(step.event.ts)}</span>}
        </div>
        <div className="row">
          <span className="mono dbg-step-type" data-testid="step-type">{step.event.type}</span>
          <span className={`badge ${step.mode}`}>{step.mode}</span>
          <span className="grow" />
          <button className="btn ghost dbg-mini" title="Pause playback on every event of this type" onClick={() => useApp.getState().addBreakpoint({ kind: 'event_type', type: step.event.type })} data-testid="break-on-type">
            <DebugIcon name="breakpoint" size={11} /> Break on type
          </button>
        </div>
      </header>
      <Decision step={step} />
      <LabelPanel step={step} />
      <ContextSection step={step} />
      <Notes step={step} />
      <WhyPanel />
      <FlowPanel flows={detail.flows} />
      <section className="dbg-section" aria-label="Handlers">
        <h3 className="section-title">Handlers, in order</h3>
        {step.explanation ? (
          <div data-testid="handler-list">
            {step.explanation.handlers.map((h) => (
              // Keyed by step too: each step opens the cards worth reading afresh.
              <HandlerCard key={`${step.index}:${h.handler_id}`} h={h} decided={step.decided_by === h.handler_id} why={detail.why.find((w) => w.handler_id === h.handler_id)} />
            ))}
          </div>
        ) : (
          <p className="dbg-muted">No handler ran on this step.</p>
        )}
      </section>
      <PayloadChanges step={step} />
      <StateSection step={step} />
      <EventSection step={step} />
    </>
  );
}

function Decision({ step }: { step: ReplayStep }) {
  const handlers = useApp(selectHandlers);
  const by = step.decided_by ? handlers.find((h) => h.id === step.decided_by) : undefined;
  return (
    <section className={`dbg-decision dec-${step.outcome}`} data-testid="step-decision">
      <div className="row">
        <span className={`dec big dec-${step.outcome}`} data-testid="step-outcome">{OUTCOME_LONG[step.outcome]}</span>
        {step.blocked && <span className="dbg-blocked-note">the action is blocked</span>}
      </div>
      {step.reason && <p className="dbg-reason" data-testid="step-reason">{step.reason}</p>}
      <p className="dbg-decided-by" data-testid="step-decided-by">
        {by ? <>Decided by <strong>“{by.name}”</strong> <span className="mono">#{by.order}</span></> : step.decided_by ? <>Decided by <span className="mono">{step.decided_by}</span></> : 'No handler decided: the event continues.'}
      </p>
      {step.explanation?.precedence && <p className="dbg-precedence" data-testid="step-precedence">{step.explanation.precedence}</p>}
      {step.approval && <ApprovalLine approval={step.approval} />}
    </section>
  );
}

/**
 * The answer to an ASK as the recording holds it [R15]: replay shows it and never asks again. The wording
 * (approved by whom and when, denied, unanswered, late) is the engine's, as `hookwire replay` prints it [AP1].
 */
function ApprovalLine({ approval }: { approval: Approval }) {
  return (
    <p className={`dbg-approval ${approval.answer}`} data-testid="step-approval" data-answer={approval.answer} data-by={approval.by} data-outcome={approvalOutcome(approval)}>
      <strong>{approvalText(approval)}</strong>
      <span className="dbg-muted"> (recorded answer, replayed without asking)</span>
    </p>
  );
}

/** The texts for the model the handlers added, in order [H11]. */
function ContextSection({ step }: { step: ReplayStep }) {
  if (step.context.length === 0) return null;
  return (
    <section className="dbg-section" aria-label="Context for the model" data-testid="step-context">
      <h3 className="section-title">Context for the model</h3>
      <ol className="dbg-context-list">
        {step.context.map((text, i) => <li key={i} data-testid="step-context-item">{text}</li>)}
      </ol>
    </section>
  );
}

function Notes({ step }: { step: ReplayStep }) {
  // The tone comes from the note's kind, which the engine types; the text is only shown.
  const notes: { tone: string; text: string; testId: string; kind: string }[] = [];
  if (step.divergence) notes.push({ tone: 'warn', text: step.divergence, testId: 'note-divergence', kind: 'divergence' });
  for (const n of step.notes) notes.push({ tone: n.kind === 'counterfactual' ? 'cf' : 'info', text: n.text, testId: 'step-note', kind: n.kind });
  if (notes.length === 0) return null;
  return (
    <div className="dbg-notes-box">
      {notes.map((n, i) => <div key={i} className={`dbg-note ${n.tone}`} data-testid={n.testId} data-kind={n.kind}>{n.text}</div>)}
    </div>
  );
}

function StateSection({ step }: { step: ReplayStep }) {
  const [all, setAll] = useState(false);
  const rows = stateRows(step.state_before.vars, step.state_after.vars);
  const shown = all ? rows : rows.filter((r) => r.changed);
  const breakers = Object.entries(step.state_after.breakers);
  return (
    <section className="dbg-section" aria-label="State">
      <h3 className="section-title">State {rows.length > 0 && <button className="btn ghost dbg-mini" onClick={() => setAll(!all)}>{all ? 'changes only' : `all ${rows.length} keys`}</button>}</h3>
      {rows.length === 0 ? <p className="dbg-muted">The trace state is empty.</p> : shown.length === 0 ? <p className="dbg-muted">Unchanged by this step ({rows.length} key{rows.length === 1 ? '' : 's'}).</p> : (
        <table className="dbg-kv" data-testid="state-table">
          <thead><tr><th>Key</th><th>Before</th><th>After</th></tr></thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.key} className={r.changed ? 'changed' : ''}>
                <td className="mono">{r.key}</td>
                <td className="mono">{valueLine(r.before, 80)}</td>
                <td className="mono">{valueLine(r.after, 80)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {breakers.length > 0 && (
        <p className="dbg-muted">Breakers: {breakers.map(([id, b]) => `${id}: ${b.failures} failure${b.failures === 1 ? '' : 's'}${breakerOpenAt(b, step.now) ? `, open until ${new Date(breakerOpenAt(b, step.now)).toISOString()}` : ''}`).join('; ')}</p>
      )}
    </section>
  );
}

function EventSection({ step }: { step: ReplayStep }) {
  const e = step.event;
  // The coding agent whose hook sent the event, by its meta.agent (the engine names it; unknown: not shown) [AG7].
  const from = eventAgent(e.meta);
  return (
    <section className="dbg-section" aria-label="Event">
      <h3 className="section-title">Event</h3>
      <dl className="dbg-dl">
        <dt>Event id</dt><dd className="mono">{e.event_id}</dd>
        <dt>Trace / agent</dt><dd className="mono">{e.trace_id} · {e.agent_id}</dd>
        {from && <><dt>From</dt><dd data-testid="event-from-agent">{from.name} <span className="mono dbg-muted">({from.id} hook)</span></dd></>}
        <dt>Time</dt><dd className="mono" data-testid="event-time">{isSyntheticTs(e.ts) ? 'not recorded' : e.ts}</dd>
        <dt>Recorded</dt><dd>{step.recorded ? <><span className={`dec dec-${step.recorded.decision}`}>{OUTCOME_LONG[step.recorded.decision]}</span>{step.recorded.reason ? ` ${step.recorded.reason}` : ''}{step.recorded.approval ? <span data-testid="recorded-approval"> · answer: {step.recorded.approval.answer} ({step.recorded.approval.by})</span> : null}</> : 'no recorded decision'}</dd>
      </dl>
      {e.meta && <pre className="dbg-pre small">{valueBlock(e.meta)}</pre>}
    </section>
  );
}

function timeOf(ts: string): string {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}
