import { useId, useState } from 'react';
import { checkWire, type Pipeline, type PipelineNode } from '../../engine/app.ts';
import { useApp, selectDoc } from '../store/appStore.ts';
import { nodeName } from '../model/nodeName.ts';

/** Every wire the engine would accept between `node` and another node, in both directions [V3]. */
function candidates(doc: Pipeline, node: PipelineNode): { value: string; label: string; from: string; to: string }[] {
  const out: { value: string; label: string; from: string; to: string }[] = [];
  for (const other of doc.nodes) {
    if (other.id === node.id) continue;
    if (checkWire(doc, { from: node.id, to: other.id }) === null) out.push({ value: `to:${other.id}`, label: `→ to ${nodeName(other)}`, from: node.id, to: other.id });
    if (checkWire(doc, { from: other.id, to: node.id }) === null) out.push({ value: `from:${other.id}`, label: `← from ${nodeName(other)}`, from: other.id, to: node.id });
  }
  return out;
}

/**
 * The node's wires, each with a Disconnect, and a "Connect" that wires it to any node the engine accepts:
 * wiring without dragging between handles (keyboard, screen readers).
 */
export function WiresField({ node }: { node: PipelineNode }) {
  const doc = useApp(selectDoc);
  const apply = useApp((s) => s.apply);
  const [choice, setChoice] = useState('');
  const id = useId();
  if (!doc) return null;
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const mine = doc.wires.filter((w) => w.from === node.id || w.to === node.id);
  const options = candidates(doc, node);
  const chosen = options.find((o) => o.value === choice) ?? options[0];
  return (
    <div className="field wires-field" data-testid="wires-field">
      <label htmlFor={id}>Wires</label>
      {mine.length > 0 && (
        <ul className="wire-list">
          {mine.map((w) => {
            const other = byId.get(w.from === node.id ? w.to : w.from);
            const text = `${w.from === node.id ? '→ to' : '← from'} ${other ? nodeName(other) : '?'}`;
            return (
              <li key={`${w.from}>${w.to}`} data-testid="wire-item">
                <span className="grow">{text}</span>
                <button className="btn ghost" aria-label={`Disconnect ${text}`} data-testid="wire-disconnect"
                  onClick={() => apply([{ type: 'disconnect', wires: [w] }], 'Disconnect')}>Disconnect</button>
              </li>
            );
          })}
        </ul>
      )}
      {options.length === 0 ? (
        <div className="hint">{mine.length ? 'No other wire is possible from or to this node.' : 'No wire is possible from or to this node yet.'}</div>
      ) : (
        <div className="row">
          <select id={id} className="select grow" value={chosen?.value ?? ''} onChange={(e) => setChoice(e.target.value)} data-testid="connect-target">
            {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
          <button className="btn" data-testid="connect-button" disabled={!chosen}
            onClick={() => chosen && apply([{ type: 'connect', wires: [{ value: { from: chosen.from, to: chosen.to } }] }], 'Connect')}>Connect</button>
        </div>
      )}
    </div>
  );
}
