import { checkWire, LIFECYCLE_EVENTS, HANDLER_ACTION_TYPES, type Wire } from '../../engine/app.ts';
import { ACTION_LABELS } from '../model/describeAction.ts';
import type { PaletteItem } from '../model/nodeFactory.ts';
import { useApp } from '../store/appStore.ts';
import { addPaletteItem } from './addPaletteItem.ts';
import type { MenuItem } from './ContextMenu.tsx';
import { duplicateSelection } from './useCanvasShortcuts.ts';
import { nodeName } from '../model/nodeName.ts';
import { breakpointId } from '../debugger/model/breakpoints.ts';

/**
 * What the canvas context menu offers for a node, a wire or the empty pane. Every action is a typed change
 * through the store (so undo takes it back) or a store action the rest of the app already uses; the wire
 * rule offered in "Connect to…" is the engine's [V3] (checkWire), never a copy of it.
 */
export function nodeMenu(id: string, readOnly: boolean): MenuItem[] {
  const s = useApp.getState();
  const doc = s.doc;
  const node = doc?.nodes.find((n) => n.id === id);
  if (!doc || !node) return [];
  const items: MenuItem[] = [];
  if (node.kind === 'handler' && readOnly) {
    // Only the "fires" breakpoint of this handler: its "blocks" and "rewrites" ones are other triggers.
    const fires = breakpointId({ kind: 'handler', handler_id: id });
    const existing = s.breakpoints.find((b) => b.id === fires);
    items.push({
      label: 'Break when it fires', testId: 'ctx-break', checked: !!existing,
      run: () => {
        if (existing) useApp.getState().removeBreakpoint(existing.id);
        else useApp.getState().addBreakpoint({ kind: 'handler', handler_id: id });
      },
    });
  }
  if (readOnly) return items;
  items.push(
    { label: 'Rename', hint: 'F2', testId: 'ctx-rename', run: () => useApp.getState().startRename(id) },
    { label: 'Duplicate', hint: 'Ctrl+D', testId: 'ctx-duplicate', run: () => { useApp.getState().select([id]); duplicateSelection(); } },
    {
      label: 'Connect to…', testId: 'ctx-connect', empty: 'No node can take a wire from this one',
      items: () => {
        const d = useApp.getState().doc;
        if (!d) return [];
        return d.nodes
          .filter((t) => t.id !== id && checkWire(d, { from: id, to: t.id }) === null)
          .map((t): MenuItem => ({
            label: `${nodeName(t)} (${t.kind})`, testId: `ctx-connect-${t.id}`,
            run: () => useApp.getState().apply([{ type: 'connect', wires: [{ value: { from: id, to: t.id } }] }], 'Connect'),
          }));
      },
    },
    { label: 'Delete', hint: 'Del', testId: 'ctx-delete', run: () => useApp.getState().apply([{ type: 'removeNodes', ids: [id] }], 'Delete 1 node') },
  );
  return items;
}

export function wireMenu(wire: Wire, readOnly: boolean): MenuItem[] {
  if (readOnly) return [];
  return [
    { label: 'Select source', testId: 'ctx-select-source', run: () => useApp.getState().select([wire.from]) },
    { label: 'Select target', testId: 'ctx-select-target', run: () => useApp.getState().select([wire.to]) },
    { label: 'Delete wire', hint: 'Del', testId: 'ctx-delete-wire', run: () => useApp.getState().apply([{ type: 'disconnect', wires: [wire] }], 'Delete 1 wire') },
  ];
}

const PALETTE: { item: PaletteItem; label: string; key: string }[] = [
  ...LIFECYCLE_EVENTS.map((e) => ({ item: { kind: 'event', pattern: e.type } as PaletteItem, label: `Event ${e.type}`, key: `event-${e.type}` })),
  { item: { kind: 'event', pattern: '*' }, label: 'Event * (every event)', key: 'event-any' },
  { item: { kind: 'matcher' }, label: 'Matcher', key: 'matcher' },
  ...HANDLER_ACTION_TYPES.map((t) => ({ item: { kind: 'handler', action: t } as PaletteItem, label: `Handler: ${ACTION_LABELS[t]}`, key: `handler-${t}` })),
];

export function paneMenu(at: { x: number; y: number }, readOnly: boolean, sizes: () => ReadonlyMap<string, { width: number; height: number }>): MenuItem[] {
  if (readOnly) return [];
  return [
    {
      label: 'Add node here…', testId: 'ctx-add', empty: '',
      items: () => PALETTE.map(({ item, label, key }): MenuItem => ({ label, testId: `ctx-add-${key}`, run: () => addPaletteItem(item, at, 'near', sizes()) })),
    },
    { label: 'Select all', hint: 'Ctrl+A', testId: 'ctx-select-all', run: () => useApp.getState().select(useApp.getState().doc?.nodes.map((n) => n.id) ?? []) },
  ];
}
