import { useEffect, useState } from 'react';
import type { JsonValue } from '../../engine/app.ts';
import { formatList, parseList, readRegex, writeRegex } from '../model/conditionTree.ts';

type ValueKind = 'text' | 'number' | 'boolean' | 'null' | 'json';

function kindOf(v: JsonValue): ValueKind {
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (v === null) return 'null';
  return 'json';
}

function show(v: JsonValue, kind: ValueKind): string {
  if (kind === 'text') return v as string;
  if (kind === 'null') return 'null';
  return JSON.stringify(v);
}

/** Reads text as a value of a kind, or undefined while it is not one yet. */
function read(text: string, kind: ValueKind): JsonValue | undefined {
  if (kind === 'text') return text;
  if (kind === 'null') return null;
  if (kind === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** A text box that keeps in-progress text and reports a value only once the text reads as one. */
function Buffered(props: { value: JsonValue; format: (v: JsonValue) => string; parse: (t: string) => JsonValue | undefined; onChange: (v: JsonValue) => void; testId?: string; placeholder?: string; ariaLabel: string }) {
  const { value, format, parse, onChange } = props;
  const [text, setText] = useState(format(value));
  const [bad, setBad] = useState(false);
  useEffect(() => {
    setText((t) => {
      const parsed = parse(t);
      return parsed !== undefined && JSON.stringify(parsed) === JSON.stringify(value) ? t : format(value);
    });
  }, [value]);
  return (
    <input className="input mono" value={text} placeholder={props.placeholder} data-testid={props.testId} aria-label={props.ariaLabel} aria-invalid={bad} spellCheck={false}
      onChange={(e) => {
        setText(e.target.value);
        const v = parse(e.target.value);
        setBad(v === undefined);
        if (v !== undefined) onChange(v);
      }} />
  );
}

/** The value part of a clause, shaped by its operator [C3]-[C7]. */
export function ValueEditor({ op, value, onChange, testId }: { op: string; value: JsonValue; onChange: (v: JsonValue) => void; testId?: string }) {
  if (op === 'in' || op === 'nin') {
    return (
      <Buffered value={value} ariaLabel="Values" testId={testId} placeholder="Bash, run_shell"
        format={(v) => (Array.isArray(v) ? formatList(v) : JSON.stringify(v))} parse={(t) => parseList(t)} onChange={onChange} />
    );
  }
  if (op === 'exists') {
    return (
      <select className="select" value={String(value !== false)} aria-label="Exists" data-testid={testId} onChange={(e) => onChange(e.target.value === 'true')}>
        <option value="true">yes</option>
        <option value="false">no (missing)</option>
      </select>
    );
  }
  if (op === 'regex') {
    const { pattern, flags } = readRegex(value);
    return (
      <div className="row grow regex-value">
        <Buffered value={pattern} ariaLabel="Pattern" testId={testId} placeholder="\\bsudo\\b" format={(v) => String(v)} parse={(t) => t}
          onChange={(p) => onChange(writeRegex(String(p), flags))} />
        <label className="check" title="Ignore case (flag i)">
          <input type="checkbox" aria-label="Ignore case" data-testid={testId ? `${testId}-ignore-case` : undefined} checked={flags.includes('i')} onChange={(e) => onChange(writeRegex(pattern, e.target.checked ? `${flags}i` : flags.replace('i', '')))} />
          Aa
        </label>
      </div>
    );
  }
  if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') {
    return (
      <Buffered value={value} ariaLabel="Value" testId={testId} placeholder="0" format={(v) => (typeof v === 'string' ? v : JSON.stringify(v))}
        parse={(t) => (t.trim() !== '' && Number.isFinite(Number(t)) ? Number(t) : t)} onChange={onChange} />
    );
  }
  if (op === 'prefix' || op === 'suffix') {
    return <Buffered value={value} ariaLabel="Text" testId={testId} format={(v) => (typeof v === 'string' ? v : JSON.stringify(v))} parse={(t) => t} onChange={onChange} />;
  }
  return <TypedValue value={value} onChange={onChange} testId={testId} />;
}

/** Any JSON value with an explicit type, so "3" the text and 3 the number stay apart. */
function TypedValue({ value, onChange, testId }: { value: JsonValue; onChange: (v: JsonValue) => void; testId?: string }) {
  const [kind, setKind] = useState<ValueKind>(kindOf(value));
  // An outside change (undo, the JSON view) brings its own type; a JSON-typed field stays JSON.
  useEffect(() => setKind((k) => (k === 'json' ? k : kindOf(value))), [value]);
  return (
    <div className="row grow">
      {kind === 'boolean' ? (
        <select className="select" value={String(value === true)} aria-label="Value" data-testid={testId} onChange={(e) => onChange(e.target.value === 'true')}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : kind === 'null' ? (
        <input className="input mono" value="null" disabled aria-label="Value" />
      ) : (
        <Buffered value={value} ariaLabel="Value" testId={testId} format={(v) => show(v, kind)} parse={(t) => read(t, kind)} onChange={onChange} />
      )}
      <select className="select" style={{ flex: '0 0 78px' }} value={kind} aria-label="Value type"
        onChange={(e) => {
          const k = e.target.value as ValueKind;
          setKind(k);
          const text = typeof value === 'string' ? value : JSON.stringify(value);
          onChange(k === 'boolean' ? text === 'true' : k === 'null' ? null : k === 'number' ? (Number.isFinite(Number(text)) ? Number(text) : 0) : k === 'text' ? text : (read(text, 'json') ?? text));
        }}>
        <option value="text">text</option>
        <option value="number">number</option>
        <option value="boolean">bool</option>
        <option value="null">null</option>
        <option value="json">JSON</option>
      </select>
    </div>
  );
}
