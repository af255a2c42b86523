import { useEffect, useRef, useState, type FormEvent } from 'react';
import { DECISIONS, type Decision, type Expectation, type ReplayStep, stepLabel } from '../../../engine/app.ts';
import { useServices } from '../../services/AppServices.tsx';
import { useApp } from '../../store/appStore.ts';
import { OUTCOME_LONG } from '../model/labels.ts';

/**
 * The step's label [B7]: the decision a person expects of this event, with a note. It is stored in the trace
 * (the event's `meta.expect`, the golden test format), so the trace as downloaded from the library is a test
 * that `hookwire test` runs and a backtest checks. Whether the open pipeline meets it is the engine's check
 * (stepLabel), the same as `hookwire test`'s; this panel only shows it and writes what the person picks.
 */
export function LabelPanel({ step }: { step: ReplayStep }) {
  const label = stepLabel(step);
  // Keyed by the step and its label: another step, or a label just saved, starts the form afresh.
  return <LabelForm key={`${step.index}:${JSON.stringify(label)}`} step={step} />;
}

function LabelForm({ step }: { step: ReplayStep }) {
  const { traces } = useServices();
  const label = stepLabel(step);
  const existing = label.kind === 'ok' ? label.expectation : null;
  const [decision, setDecision] = useState<Decision>(existing?.decision ?? step.decision);
  const [note, setNote] = useState(existing?.note ?? '');
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // The control the keyboard was on when a save began takes it back once the step shows the save: the fields are
  // disabled while saving and the step is shown anew after it, either of which sent the focus to the page's body.
  const refocus = useApp((s) => s.labelFocus);
  // Only the form showing the label saved takes it: the one that saved may still be up until the step comes back.
  const shown = JSON.stringify(existing);
  useEffect(() => {
    if (saving || !refocus || refocus.label !== shown || !form.current) return;
    useApp.getState().focusLabelControl(null);
    // "Remove label" is gone once the label is: the save button stands in for it.
    (form.current.querySelector<HTMLElement>(`[data-testid="${refocus.control}"]`) ?? form.current.querySelector<HTMLElement>('[data-testid="label-save"]'))?.focus();
  }, [saving, refocus, shown]);
  const state = label.kind === 'none' ? 'none' : label.kind === 'bad' ? 'bad' : label.failures.length === 0 ? 'met' : 'violated';
  // Fields a golden file may carry besides the decision (reason, payload…) stay checked as they are.
  const others = existing ? Object.keys(existing).filter((k) => k !== 'decision' && k !== 'note') : [];

  const save = async (next: Expectation | null) => {
    const on = document.activeElement;
    const id = on && form.current?.contains(on) ? on.getAttribute('data-testid') : null;
    setSaving(true);
    await traces.setLabel(step.index, next);
    // A label saved as it was keeps this form (same key): it must not stay disabled. A new label remounts it.
    setSaving(false);
    if (id) useApp.getState().focusLabelControl({ control: id, label: JSON.stringify(next) });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { note: _note, ...kept } = existing ?? { decision };
    const text = note.trim();
    void save({ ...kept, decision, ...(text ? { note: text } : {}) });
  };

  return (
    <section className={`dbg-section dbg-label ${state}`} aria-label="Label" data-testid="label-panel" data-state={state}>
      <h3 className="section-title">Label</h3>
      {label.kind === 'ok' && (
        <div data-testid="label-status">
          <p>
            Expected <span className={`dec dec-${label.expectation.decision}`}>{OUTCOME_LONG[label.expectation.decision]}</span>{' '}
            {label.failures.length === 0 ? <strong className="dbg-label-met">met by this pipeline</strong> : <strong className="dbg-label-violated">not met by this pipeline</strong>}
          </p>
          {label.expectation.note && <p className="dbg-label-note" data-testid="label-note-text">“{label.expectation.note}”</p>}
          {label.failures.length > 0 && <ul className="dbg-label-failures" data-testid="label-failures">{label.failures.map((f, i) => <li key={i}>{f}</li>)}</ul>}
          {others.length > 0 && <p className="dbg-muted">Also checks: {others.join(', ')} (as the trace file says).</p>}
        </div>
      )}
      {label.kind === 'bad' && <p className="dbg-label-violated" data-testid="label-status">This step's label does not read: {label.message}</p>}
      <form className="dbg-label-form" onSubmit={submit} ref={form}>
        <label className="dbg-label-field">
          <span>Expected decision</span>
          <select className="input" value={decision} disabled={saving} data-testid="label-decision" onChange={(e) => setDecision(e.target.value as Decision)}>
            {DECISIONS.map((d) => <option key={d} value={d}>{OUTCOME_LONG[d]}</option>)}
          </select>
        </label>
        <label className="dbg-label-field">
          <span>Note</span>
          <input className="input" value={note} disabled={saving} maxLength={500} placeholder="Why (for people; never checked)" data-testid="label-note"
            onChange={(e) => setNote(e.target.value)} />
        </label>
        <div className="dbg-label-actions">
          <button type="submit" className="btn primary small" disabled={saving} data-testid="label-save">{existing ? 'Update label' : 'Label this step'}</button>
          {label.kind !== 'none' && (
            <button type="button" className="btn ghost small" disabled={saving} data-testid="label-remove" onClick={() => void save(null)}>Remove label</button>
          )}
        </div>
      </form>
      <p className="dbg-muted">Stored in the trace as <code>meta.expect</code>. Download the trace from the library: <code>hookwire test</code> and <code>hookwire backtest</code> check its labels.</p>
    </section>
  );
}
