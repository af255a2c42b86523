import { LIFECYCLE_EVENTS, type EventMode, type EventNode, eventModes, patternMode } from '../../engine/app.ts';
import { useApp, selectDoc } from '../store/appStore.ts';
import { Field, TextField } from './fields.tsx';
import { compact, useUpdateNode } from './useUpdateNode.ts';

const EVENT_LIST_ID = 'hw-event-types';

/** Event node: its pattern, and the sync/async mode of the type it names, kept in the pipeline's event_types [D8]. */
export function EventForm({ node }: { node: EventNode }) {
  const doc = useApp(selectDoc);
  const apply = useApp((s) => s.apply);
  const update = useUpdateNode(node);
  if (!doc) return null;
  const known = eventModes(doc);
  const exact = node.pattern !== '*' && !node.pattern.endsWith('.*');
  const mode = patternMode(node.pattern, known);
  const builtin = LIFECYCLE_EVENTS.find((e) => e.type === node.pattern);
  const declared = doc.event_types.find((d) => d.type === node.pattern);

  const setMode = (m: EventMode) => {
    const rest = doc.event_types.filter((d) => d.type !== node.pattern);
    // A built-in type at its built-in mode needs no declaration; anything else is declared.
    const next = builtin && builtin.mode === m && !declared?.description ? rest : [...rest, { ...(declared ?? { type: node.pattern }), mode: m }];
    apply([{ type: 'setProps', props: { event_types: next } }], `Make ${node.pattern} ${m}`);
  };

  return (
    <div>
      <TextField label="Event pattern" value={node.pattern} mono list={EVENT_LIST_ID} testId="event-pattern"
        hint="An exact type (tool.before_call), a prefix wildcard (tool.*) or * for every event."
        onChange={(pattern) => update({ ...node, pattern }, 'pattern')} />
      <datalist id={EVENT_LIST_ID}>
        {[...known.known.keys()].map((t) => <option key={t} value={t} />)}
        <option value="tool.*" />
        <option value="model.*" />
        <option value="*" />
      </datalist>
      <TextField label="Label" value={node.label ?? ''} placeholder="Event" testId="event-label"
        onChange={(label) => update(compact({ ...node, label: label || undefined }), 'label')} />
      <Field label="Mode">
        {exact ? (
          <div className="row">
            <span className="seg" role="group" aria-label="Mode">
              <button aria-pressed={mode === 'sync'} onClick={() => setMode('sync')} data-testid="mode-sync">sync</button>
              <button aria-pressed={mode === 'async'} onClick={() => setMode('async')} data-testid="mode-async">async</button>
            </span>
          </div>
        ) : (
          <div><span className={`badge ${mode}`}>{mode}</span></div>
        )}
        <div className="hint">
          {exact
            ? mode === 'sync'
              ? 'Sync: handlers run before the action and may block it.'
              : 'Async: observe only; never blocks, errors are logged.'
            : 'The mode of each selected type applies; set modes on exact event nodes.'}
          {declared ? ' Declared in this pipeline.' : builtin ? ' Built-in default.' : exact ? ' Unknown types are sync.' : ''}
        </div>
      </Field>
      {builtin && <p className="hint" style={{ color: 'var(--muted)' }}>{builtin.description}</p>}
    </div>
  );
}
