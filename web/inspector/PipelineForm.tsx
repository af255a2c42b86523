import { EVENT_TYPE_RE, type EventTypeDecl } from '../../engine/app.ts';
import { useApp, selectDoc } from '../store/appStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { TextField } from './fields.tsx';

/** Pipeline settings: name, description and the declared event types with their modes [D8]. */
export function PipelineForm() {
  const doc = useApp(selectDoc);
  const apply = useApp((s) => s.apply);
  if (!doc) return null;
  const setTypes = (event_types: EventTypeDecl[], label: string) => apply([{ type: 'setProps', props: { event_types } }], label, 'event_types');
  const handlers = doc.nodes.filter((n) => n.kind === 'handler').length;
  return (
    <div>
      <div className="inspector-head">
        <div style={{ minWidth: 0, flex: 1 }}>
          <h2>Pipeline</h2>
          <div className="sub">{doc.nodes.length} nodes · {doc.wires.length} wires · {handlers} handlers</div>
        </div>
      </div>
      <TextField label="Name" value={doc.name} testId="pipeline-name"
        onChange={(name) => apply([{ type: 'setProps', props: { name } }], 'Rename pipeline', 'pipeline:name')} />
      <TextField label="Description" multiline value={doc.description ?? ''} testId="pipeline-description"
        onChange={(d) => apply([{ type: 'setProps', props: { description: d === '' ? undefined : d } }], 'Edit description', 'pipeline:description')} />
      <div className="section-title">Event types</div>
      <p className="hint" style={{ color: 'var(--faint)', margin: '0 0 8px' }}>
        Custom types, and overrides of the built-in modes. Sync events may be blocked; async ones are observed only.
      </p>
      {doc.event_types.map((d, i) => (
        <div className="clause" key={i} data-testid={`event-type-${i}`}>
          <div className="clause-row">
            <input className="input mono" value={d.type} aria-label="Event type" aria-invalid={!EVENT_TYPE_RE.test(d.type)} spellCheck={false}
              onChange={(e) => setTypes(doc.event_types.map((x, j) => (j === i ? { ...x, type: e.target.value } : x)), 'Edit event type')} />
            <select className="select" style={{ flex: '0 0 84px' }} value={d.mode} aria-label="Mode"
              onChange={(e) => setTypes(doc.event_types.map((x, j) => (j === i ? { ...x, mode: e.target.value as 'sync' | 'async' } : x)), 'Edit event mode')}>
              <option value="sync">sync</option>
              <option value="async">async</option>
            </select>
            <button className="btn ghost icon" aria-label="Remove event type" onClick={() => setTypes(doc.event_types.filter((_, j) => j !== i), 'Remove event type')}>
              <Icon name="close" size={12} />
            </button>
          </div>
        </div>
      ))}
      <button className="btn" data-testid="add-event-type"
        onClick={() => setTypes([...doc.event_types, { type: `custom.event${doc.event_types.length ? `_${doc.event_types.length + 1}` : ''}`, mode: 'sync' }], 'Add event type')}>
        <Icon name="plus" size={12} /> Event type
      </button>
      <div className="section-title">Tips</div>
      <ul className="hint" style={{ color: 'var(--muted)', paddingLeft: 18, margin: 0, lineHeight: 1.7 }}>
        <li>Drag from the palette; wire right handle → left handle.</li>
        <li>Wires run event → matcher → handler. Matchers in a row are AND; several paths are OR.</li>
        <li>Handlers run in ascending order; ties keep document order.</li>
        <li><span className="kbd">Ctrl/⌘ Z</span> undo · <span className="kbd">Ctrl/⌘ Shift Z</span> redo · <span className="kbd">Ctrl/⌘ D</span> duplicate</li>
        <li><span className="kbd">Ctrl/⌘ Shift M</span> Problems · <span className="kbd">F2</span> rename · <span className="kbd">Ctrl/⌘ Shift E</span> code full screen</li>
      </ul>
    </div>
  );
}
