import type { DragEvent } from 'react';
import { useReactFlow } from '@xyflow/react';
import { LIFECYCLE_EVENTS, HANDLER_ACTION_TYPES } from '../../engine/app.ts';
import { ACTION_LABELS } from '../model/describeAction.ts';
import type { PaletteItem } from '../model/nodeFactory.ts';
import { Icon, kindColor } from '../ui/Icon.tsx';
import { addPaletteItem, PALETTE_MIME } from './addPaletteItem.ts';

const HANDLER_HINTS: Record<string, string> = {
  block: 'Block the action with a reason',
  terminate: 'Block and end the run',
  stop: 'Skip later handlers',
  rewrite: 'Set, remove or redact fields',
  audit: 'Write an audit record',
  budget: 'Count in state, block past a limit',
  code: 'TypeScript in the sandbox',
  flow: 'Decide by what happened earlier in the session',
};

function itemKey(item: PaletteItem): string {
  return item.kind === 'event' ? `event:${item.pattern}` : item.kind === 'handler' ? `handler:${item.action}` : 'matcher';
}

/** Drag a node onto the canvas, or click to add it in the middle of the view. */
function PaletteEntry({ item, label, title, mono }: { item: PaletteItem; label: string; title: string; mono?: boolean }) {
  const flow = useReactFlow();
  const color = item.kind === 'handler' ? kindColor(item.action) : kindColor(item.kind);
  const icon = item.kind === 'handler' ? item.action : item.kind;
  const onDragStart = (e: DragEvent) => {
    e.dataTransfer.setData(PALETTE_MIME, JSON.stringify(item));
    e.dataTransfer.effectAllowed = 'copy';
  };
  const onClick = () => {
    const box = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    const center = box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : { x: 400, y: 300 };
    const sizes = new Map(flow.getNodes().flatMap((n) => (n.measured?.width && n.measured.height ? [[n.id, { width: n.measured.width, height: n.measured.height }] as const] : [])));
    const id = addPaletteItem(item, flow.screenToFlowPosition(center), 'flow', sizes);
    // The free spot may be off screen (a full canvas at zoom 1): then the view pans to it, same zoom.
    if (id && box) {
      requestAnimationFrame(() => {
        const n = flow.getNode(id);
        if (!n) return;
        const w = n.measured?.width ?? 240, h = n.measured?.height ?? 90;
        const tl = flow.flowToScreenPosition(n.position), br = flow.flowToScreenPosition({ x: n.position.x + w, y: n.position.y + h });
        if (tl.x < box.left || tl.y < box.top || br.x > box.right || br.y > box.bottom) void flow.setCenter(n.position.x + w / 2, n.position.y + h / 2, { zoom: flow.getZoom(), duration: 200 });
      });
    }
  };
  return (
    <button className="palette-item" draggable onDragStart={onDragStart} onClick={onClick} title={title} data-testid={`palette-${itemKey(item)}`}>
      <span className="chip" style={{ background: color }}><Icon name={icon} size={12} /></span>
      <span className={`label${mono ? ' mono' : ''}`}>{label}</span>
    </button>
  );
}

export function Palette() {
  return (
    <div className="side-scroll" data-testid="palette">
      <div className="section-title">Events</div>
      <div className="palette-group">
        {LIFECYCLE_EVENTS.map((e) => (
          <PaletteEntry key={e.type} item={{ kind: 'event', pattern: e.type }} label={e.type} title={`${e.description} (${e.mode})`} mono />
        ))}
        <PaletteEntry item={{ kind: 'event', pattern: '*' }} label="* every event" title="Selects every event type" mono />
      </div>
      <div className="section-title">Matchers</div>
      <PaletteEntry item={{ kind: 'matcher' }} label="Matcher" title="A condition on the payload, state or metadata" />
      <div className="section-title">Handlers</div>
      {HANDLER_ACTION_TYPES.map((t) => (
        <PaletteEntry key={t} item={{ kind: 'handler', action: t }} label={ACTION_LABELS[t]} title={HANDLER_HINTS[t] ?? ''} />
      ))}
    </div>
  );
}
