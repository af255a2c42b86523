import type { DragEvent } from 'react';
import { Icon, kindColor } from '../ui/Icon.tsx';
import { PALETTE_MIME } from './addPaletteItem.ts';
import { PALETTE_ENTRIES, type PaletteEntry as Entry } from './paletteCatalog.ts';
import { useAddInFlow } from './useAddInFlow.ts';

/** Drag a node onto the canvas, or click (or Enter) to add it in flow order. */
function PaletteEntry({ entry: { item, key, label, hint, mono } }: { entry: Entry }) {
  const addInFlow = useAddInFlow();
  const color = item.kind === 'handler' ? kindColor(item.action) : kindColor(item.kind);
  const icon = item.kind === 'handler' ? item.action : item.kind;
  const onDragStart = (e: DragEvent) => {
    e.dataTransfer.setData(PALETTE_MIME, JSON.stringify(item));
    e.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <button className="palette-item" draggable onDragStart={onDragStart} onClick={() => addInFlow(item)} title={hint} data-testid={`palette-${key}`}>
      <span className="chip" style={{ background: color }}><Icon name={icon} size={12} /></span>
      <span className={`label${mono ? ' mono' : ''}`}>{label}</span>
    </button>
  );
}

export function Palette() {
  const group = (g: Entry['group']) => PALETTE_ENTRIES.filter((e) => e.group === g).map((e) => <PaletteEntry key={e.key} entry={e} />);
  return (
    <div className="side-scroll" data-testid="palette">
      <div className="section-title">Events</div>
      <div className="palette-group">{group('Events')}</div>
      <div className="section-title">Matchers</div>
      {group('Matchers')}
      <div className="section-title">Handlers</div>
      {group('Handlers')}
    </div>
  );
}
