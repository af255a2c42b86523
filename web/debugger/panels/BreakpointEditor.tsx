import { useEffect, useRef, useState } from 'react';
import type { HitCount, HitMode, JsonObject, JsonValue } from '../../../engine/app.ts';
import { conditionToEntries, entriesToCondition, formatList, OPERATOR_LABELS, OPERATORS, parseList, type Operator } from '../../model/conditionTree.ts';
import { useApp } from '../../store/appStore.ts';
import { breakpointLabel, nodeNamer, ordinal, triggerChoice, triggerSpec, type Breakpoint, type TriggerChoice } from '../model/breakpoints.ts';
import { TriggerFields, useTrigger } from './TriggerFields.tsx';

const HIT_MODE_LABEL: Record<HitMode, (n: string) => string> = {
  at: (n) => `only the ${n} hit`,
  from: (n) => `from the ${n} hit on`,
  every: (n) => `every ${n} hit`,
};

/** The one clause the fields edit, or null when the condition has more (then it is edited as JSON). */
function singleClause(when: JsonObject | undefined): { path: string; op: string; value: JsonValue } | null {
  if (!when) return { path: '', op: 'eq', value: '' };
  const entries = conditionToEntries(when);
  const e = entries?.length === 1 ? entries[0]! : null;
  return e?.kind === 'clause' ? { path: e.path, op: e.op, value: e.value } : null;
}

function valueText(op: string, v: JsonValue): string {
  if (op === 'in' || op === 'nin') return Array.isArray(v) ? formatList(v) : '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** What is typed, as the operator takes it: a list for in/nin, a number for gt…, JSON literals for eq/ne, else text. */
function typedValue(op: string, text: string): JsonValue {
  if (op === 'in' || op === 'nin') return parseList(text);
  if (op === 'exists') return text.trim() !== 'false';
  if (op === 'regex' || op === 'prefix' || op === 'suffix') return text;
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t) || t === 'true' || t === 'false' || t === 'null' || t.startsWith('[') || t.startsWith('{')) {
    try {
      return JSON.parse(t) as JsonValue;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * A breakpoint's trigger (what stops: a decision, a handler, a matcher, an event type, a condition alone), its
 * condition (one clause as path, operator and value, or any condition as JSON) and its hit count, as a form:
 * Enter saves, Escape leaves it as it was. `onDone` gets the breakpoint's id after a save (a new trigger is a
 * new id). The engine checks what is saved [R18]; its problems show on the breakpoint.
 */
export function BreakpointEditor({ b, onDone }: { b: Breakpoint; onDone: (id?: string) => void }) {
  const [trigger, setTrigger] = useState<TriggerChoice>(() => triggerChoice(b));
  // The breakpoint's own value stays offered (named as gone) if its node or type is no longer there.
  const { shown, options } = useTrigger(trigger, trigger.kind === b.kind ? triggerChoice(b).value : null);
  const clause = singleClause(b.when);
  const [path, setPath] = useState(clause?.path ?? '');
  const [op, setOp] = useState(clause?.op ?? 'eq');
  const [value, setValue] = useState(clause ? valueText(clause.op, clause.value) : '');
  const [json, setJson] = useState(clause ? '' : JSON.stringify(b.when ?? {}));
  const [count, setCount] = useState(String(b.hits?.count ?? 1));
  const [mode, setMode] = useState<HitMode>(b.hits?.mode ?? 'from');
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const save = () => {
    let when: JsonObject | undefined;
    if (clause) {
      when = path.trim() === '' ? undefined : entriesToCondition([{ kind: 'clause', path: path.trim(), op, value: typedValue(op, value) }]);
    } else {
      try {
        const parsed = JSON.parse(json) as unknown;
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('a condition is a JSON object');
        when = parsed as JsonObject;
      } catch (e) {
        setError(`The condition is not a JSON object: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
    }
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1) {
      setError('The hit count is a whole number from 1.');
      return;
    }
    const spec = triggerSpec(shown);
    if (!spec) {
      setError(`There is no ${shown.kind === 'handler' ? 'handler' : shown.kind === 'matcher' ? 'matcher' : 'event type'} to stop on: choose another kind of trigger.`);
      return;
    }
    if (spec.kind === 'condition' && !when) {
      setError('A condition breakpoint needs its condition (a path such as payload.tool_name).');
      return;
    }
    const hits: HitCount = { count: n, mode };
    const st = useApp.getState();
    const id = st.replaceBreakpoint(b.id, { ...spec, ...(when ? { when } : {}), hits, ...(b.enabled === false ? { enabled: false } : {}) });
    if (id === null) {
      setError(`There is already a breakpoint on ${breakpointLabel(spec, nodeNamer(st.doc))}: edit that one, or choose another trigger.`);
      return;
    }
    onDone(id);
  };

  return (
    <form className="dbg-bp-edit" data-testid="bp-editor" aria-label="Edit breakpoint"
      onSubmit={(e) => { e.preventDefault(); save(); }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        onDone();
      }}>
      <div className="row">
        <span className="field-label">Stop when</span>
        <TriggerFields value={shown} options={options} onChange={(t) => { setTrigger(t); setError(null); }} testId="bp-edit" />
      </div>
      <div className="row">
        <span className="field-label">Condition</span>
        {clause ? (
          <>
            <input ref={first} className="input mono grow" value={path} placeholder="payload.tool_name" aria-label="Condition path" data-testid="bp-cond-path" onChange={(e) => setPath(e.target.value)} />
            <select className="select" value={op} aria-label="Condition operator" data-testid="bp-cond-op" onChange={(e) => setOp(e.target.value)}>
              {OPERATORS.map((o) => <option key={o} value={o}>{OPERATOR_LABELS[o as Operator]}</option>)}
            </select>
            {op !== 'exists' && <input className="input mono grow" value={value} placeholder={op === 'in' || op === 'nin' ? 'a, b, c' : 'value'} aria-label="Condition value" data-testid="bp-cond-value" onChange={(e) => setValue(e.target.value)} />}
          </>
        ) : (
          <input ref={first} className="input mono grow" value={json} aria-label="Condition (JSON)" data-testid="bp-cond-json" onChange={(e) => setJson(e.target.value)} />
        )}
      </div>
      <div className="row">
        <span className="field-label">Stop on</span>
        <select className="select" value={mode} aria-label="Which hits stop" data-testid="bp-hits-mode" onChange={(e) => setMode(e.target.value as HitMode)}>
          {(Object.keys(HIT_MODE_LABEL) as HitMode[]).map((m) => <option key={m} value={m}>{HIT_MODE_LABEL[m]('Nth')}</option>)}
        </select>
        <label className="dbg-bp-n">N =
          <input className="input mono" value={count} inputMode="numeric" aria-label="Hit count" data-testid="bp-hits-count" style={{ width: '6ch' }} onChange={(e) => setCount(e.target.value.replace(/[^0-9]/g, ''))} />
        </label>
        <span className="dbg-muted grow" data-testid="bp-hits-text">{Number(count) >= 1 ? HIT_MODE_LABEL[mode](ordinal(Number(count))) : ''}</span>
        <button type="submit" className="btn primary" data-testid="bp-save">Save</button>
        <button type="button" className="btn ghost" onClick={() => onDone()} data-testid="bp-cancel">Cancel</button>
      </div>
      {error && <div className="dbg-bp-problem" role="alert" data-testid="bp-edit-error">{error}</div>}
      <div className="dbg-muted small">Paths start with payload., meta., event. or state. (the state before the step). Enter saves, Escape cancels; Shift+Tab from the condition reaches what stops.</div>
    </form>
  );
}
