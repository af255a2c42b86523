import { useEffect, useState, type ReactNode } from 'react';
import { type JsonObject, type JsonValue, isJsonObject, type Condition } from '../../engine/app.ts';
import { conditionToEntries, entriesToCondition, OPERATORS, OPERATOR_LABELS, valueForOperator, type Entry } from '../model/conditionTree.ts';
import { Icon } from '../ui/Icon.tsx';
import { PathInput } from './PathInput.tsx';
import { ValueEditor } from './ValueEditor.tsx';

const NEW_CLAUSE: Entry = { kind: 'clause', path: 'payload.tool_name', op: 'eq', value: '' };

function ClauseRow({ entry, onChange, onRemove, testId }: { entry: Extract<Entry, { kind: 'clause' }>; onChange: (e: Entry) => void; onRemove: () => void; testId: string }) {
  const known = (OPERATORS as readonly string[]).includes(entry.op);
  return (
    <div className="clause" data-testid={testId}>
      <div className="clause-row">
        <PathInput value={entry.path} onChange={(path) => onChange({ ...entry, path })} testId={`${testId}-path`} />
        <button className="btn ghost icon" onClick={onRemove} aria-label="Remove condition" title="Remove condition"><Icon name="close" size={12} /></button>
      </div>
      <div className="clause-row">
        <select className="select op" value={entry.op} aria-label="Operator" data-testid={`${testId}-op`}
          onChange={(e) => {
            const { bare: _b, ...rest } = entry;
            onChange({ ...rest, op: e.target.value, value: valueForOperator(e.target.value, entry.value, entry.op) });
          }}>
          {!known && <option value={entry.op}>{entry.op}</option>}
          {OPERATORS.map((op) => <option key={op} value={op}>{OPERATOR_LABELS[op]}</option>)}
        </select>
        <ValueEditor op={entry.op} value={entry.value} onChange={(value) => onChange({ ...entry, value })} testId={`${testId}-value`} />
      </div>
    </div>
  );
}

/**
 * The add row of a list. At the top level it offers every kind; inside a group only "+ Condition" (a
 * nested group is one JSON edit away) so one group shows one row of buttons, not one per level.
 */
function AddButtons({ onAdd, testId, nested, extra }: { onAdd: (e: Entry) => void; testId: string; nested?: boolean; extra?: ReactNode }) {
  return (
    <div className="cond-actions">
      <button className={nested ? 'btn ghost' : 'btn'} onClick={() => onAdd(NEW_CLAUSE)} data-testid={`${testId}-add-clause`}><Icon name="plus" size={12} /> Condition</button>
      {!nested && <>
        <button className="btn ghost" onClick={() => onAdd({ kind: 'any', items: [[NEW_CLAUSE]] })} data-testid={`${testId}-add-any`}>Any of…</button>
        <button className="btn ghost" onClick={() => onAdd({ kind: 'all', items: [[NEW_CLAUSE]] })}>All of…</button>
        <button className="btn ghost" onClick={() => onAdd({ kind: 'not', entries: [NEW_CLAUSE] })}>Not…</button>
      </>}
      {extra}
    </div>
  );
}

/** A list of entries, ANDed [C1]. Recursive through groups. */
function EntryList({ entries, onChange, testId, nested, extra }: { entries: Entry[]; onChange: (e: Entry[]) => void; testId: string; nested?: boolean; extra?: ReactNode }) {
  const replace = (i: number, e: Entry) => onChange(entries.map((x, j) => (j === i ? e : x)));
  const remove = (i: number) => onChange(entries.filter((_, j) => j !== i));
  return (
    <div>
      {entries.map((e, i) => (
        <EntryView key={i} entry={e} onChange={(n) => replace(i, n)} onRemove={() => remove(i)} testId={`${testId}-${i}`} />
      ))}
      <AddButtons onAdd={(e) => onChange([...entries, e])} testId={testId} nested={nested} extra={extra} />
    </div>
  );
}

function EntryView({ entry, onChange, onRemove, testId }: { entry: Entry; onChange: (e: Entry) => void; onRemove: () => void; testId: string }) {
  if (entry.kind === 'clause') return <ClauseRow entry={entry} onChange={onChange} onRemove={onRemove} testId={testId} />;
  const head = (title: ReactNode) => (
    <div className="cond-group-head">
      {title}
      <span className="grow" />
      <button className="btn ghost icon" onClick={onRemove} aria-label="Remove group" title="Remove group"><Icon name="close" size={12} /></button>
    </div>
  );
  if (entry.kind === 'not') {
    return (
      <div className="cond-group not" data-testid={testId}>
        {head('NOT — passes when this fails')}
        <EntryList entries={entry.entries} onChange={(entries) => onChange({ kind: 'not', entries })} testId={testId} nested />
      </div>
    );
  }
  const items = entry.items;
  const alternative = (
    <button className="btn ghost" onClick={() => onChange({ kind: entry.kind, items: [...items, [NEW_CLAUSE]] })} data-testid={`${testId}-add-alternative`}>
      <Icon name="plus" size={12} /> Alternative
    </button>
  );
  return (
    <div className={`cond-group ${entry.kind}`} data-testid={testId}>
      {head(
        <span className="seg" role="group" aria-label="Group kind">
          <button aria-pressed={entry.kind === 'any'} onClick={() => onChange({ kind: 'any', items })}>ANY of</button>
          <button aria-pressed={entry.kind === 'all'} onClick={() => onChange({ kind: 'all', items })}>ALL of</button>
        </span>,
      )}
      {items.map((item, i) => (
        <div className="cond-item" key={i}>
          <EntryList entries={item} testId={`${testId}-${i}`} nested
            // The last alternative's add row also holds "+ Alternative": one row of buttons per group.
            extra={i === items.length - 1 ? alternative : undefined}
            onChange={(next) => onChange({ kind: entry.kind, items: next.length ? items.map((x, j) => (j === i ? next : x)) : items.filter((_, j) => j !== i) })} />
        </div>
      ))}
    </div>
  );
}

/** The raw JSON of the condition; edits apply as soon as the text is a JSON object. */
function ConditionJson({ value, onChange }: { value: Condition; onChange: (c: Condition) => void }) {
  const pretty = JSON.stringify(value, null, 2);
  const [text, setText] = useState(pretty);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText((t) => {
      try {
        if (JSON.stringify(JSON.parse(t)) === JSON.stringify(value)) return t;
      } catch {
        /* the text is mid-edit: replace it with the document's value */
      }
      return pretty;
    });
    setError(null);
  }, [value, pretty]);
  return (
    <div>
      <textarea className="textarea mono json-view" value={text} spellCheck={false} data-testid="condition-json" aria-label="Condition as JSON" aria-invalid={!!error}
        onChange={(e) => {
          setText(e.target.value);
          let parsed: unknown;
          try {
            parsed = JSON.parse(e.target.value);
          } catch (err) {
            setError(`Not valid JSON yet: ${(err as Error).message}`);
            return;
          }
          if (!isJsonObject(parsed as JsonValue)) {
            setError('A condition is a JSON object: { "payload.tool_name": { "in": ["Bash"] } }');
            return;
          }
          setError(null);
          onChange(parsed as Condition);
        }} />
      {error && <div className="json-error" role="alert">{error}</div>}
    </div>
  );
}

/** Condition builder with a raw JSON view; both edit the same `when` of the document. */
export function ConditionEditor({ value, onChange }: { value: Condition; onChange: (c: Condition) => void }) {
  const [view, setView] = useState<'builder' | 'json'>('builder');
  const entries = conditionToEntries(value as JsonObject);
  return (
    <div data-testid="condition-editor">
      <div className="row" style={{ marginBottom: 8 }}>
        <span className="field-label grow">Condition</span>
        <span className="seg" role="group" aria-label="Condition view">
          <button aria-pressed={view === 'builder'} onClick={() => setView('builder')} data-testid="condition-view-builder">Builder</button>
          <button aria-pressed={view === 'json'} onClick={() => setView('json')} data-testid="condition-view-json">JSON</button>
        </span>
      </div>
      {view === 'json' ? (
        <ConditionJson value={value} onChange={onChange} />
      ) : entries ? (
        <EntryList entries={entries} onChange={(next) => onChange(entriesToCondition(next))} testId="cond" />
      ) : (
        <div className="inline-problem warning">This condition has a shape the builder cannot show. Edit it in the JSON view.</div>
      )}
    </div>
  );
}
