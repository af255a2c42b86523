import { useEffect, useId, useState, type ReactNode } from 'react';

/** Labelled form controls of the inspector. Values come from the document; edits go out through onChange. */
export function Field({ label, hint, error, children, htmlFor }: { label: string; hint?: ReactNode; error?: string | null; children: ReactNode; htmlFor?: string }) {
  return (
    <div className="field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {error ? <div className="error" role="alert">{error}</div> : hint ? <div className="hint">{hint}</div> : null}
    </div>
  );
}

export function TextField(props: {
  label: string; value: string; onChange: (v: string) => void; hint?: ReactNode; mono?: boolean; placeholder?: string;
  testId?: string; list?: string; multiline?: boolean; error?: string | null;
}) {
  const id = useId();
  const cls = `${props.multiline ? 'textarea' : 'input'}${props.mono ? ' mono' : ''}`;
  return (
    <Field label={props.label} hint={props.hint} error={props.error ?? null} htmlFor={id}>
      {props.multiline ? (
        <textarea id={id} className={cls} value={props.value} placeholder={props.placeholder} data-testid={props.testId}
          aria-invalid={!!props.error} onChange={(e) => props.onChange(e.target.value)} rows={3} />
      ) : (
        <input id={id} className={cls} value={props.value} placeholder={props.placeholder} data-testid={props.testId} list={props.list}
          aria-invalid={!!props.error} onChange={(e) => props.onChange(e.target.value)} spellCheck={false} />
      )}
    </Field>
  );
}

/**
 * A number input that keeps what the user types while it is not a number yet ("-", "1e"), and reports
 * only numbers. Empty means `undefined` when `optional`.
 */
export function NumberField(props: {
  label: string; value: number | undefined; onChange: (v: number | undefined) => void; hint?: ReactNode; optional?: boolean;
  testId?: string; min?: number; integer?: boolean; placeholder?: string;
}) {
  const id = useId();
  const [text, setText] = useState(props.value === undefined ? '' : String(props.value));
  useEffect(() => {
    setText((t) => (Number(t) === props.value && t.trim() !== '' ? t : props.value === undefined ? '' : String(props.value)));
  }, [props.value]);
  const n = Number(text);
  const bad = text.trim() === '' ? !props.optional : !Number.isFinite(n) || (props.integer && !Number.isInteger(n)) || (props.min !== undefined && n < props.min);
  return (
    <Field label={props.label} hint={props.hint} error={bad ? (text.trim() === '' ? 'Required' : `Not a valid ${props.integer ? 'whole number' : 'number'}${props.min !== undefined ? ` ≥ ${props.min}` : ''}`) : null} htmlFor={id}>
      <input id={id} className="input mono" inputMode="decimal" value={text} placeholder={props.placeholder} data-testid={props.testId} aria-invalid={bad}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          const v = Number(t);
          if (t.trim() === '' && props.optional) props.onChange(undefined);
          else if (t.trim() !== '' && Number.isFinite(v) && (!props.integer || Number.isInteger(v)) && (props.min === undefined || v >= props.min)) props.onChange(v);
        }} />
    </Field>
  );
}

export function SelectField<T extends string>(props: {
  label: string; value: T; options: readonly { value: T; label: string }[]; onChange: (v: T) => void; hint?: ReactNode; testId?: string;
}) {
  const id = useId();
  return (
    <Field label={props.label} hint={props.hint} htmlFor={id}>
      <select id={id} className="select" value={props.value} data-testid={props.testId} onChange={(e) => props.onChange(e.target.value as T)}>
        {props.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </Field>
  );
}

export function Checkbox({ label, checked, onChange, testId, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; testId?: string; hint?: string }) {
  return (
    <label className="check" title={hint}>
      <input type="checkbox" checked={checked} data-testid={testId} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** Comma-separated list of strings ("Bash, run_shell"). */
export function ListField(props: { label: string; value: readonly string[] | undefined; onChange: (v: string[] | undefined) => void; hint?: ReactNode; testId?: string; placeholder?: string }) {
  const [text, setText] = useState((props.value ?? []).join(', '));
  useEffect(() => {
    setText((t) => (sameList(split(t), props.value ?? []) ? t : (props.value ?? []).join(', ')));
  }, [props.value]);
  return (
    <TextField label={props.label} value={text} hint={props.hint} testId={props.testId} placeholder={props.placeholder} mono
      onChange={(t) => {
        setText(t);
        const list = split(t);
        props.onChange(list.length ? list : undefined);
      }} />
  );
}

function split(t: string): string[] {
  return t.split(',').map((s) => s.trim()).filter(Boolean);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
