import type { EventTypeDecl, Pipeline, PipelineNode, Wire } from '../../engine/app.ts';

/**
 * Every edit of a pipeline is one of these typed changes, applied by `applyChange` and nothing else
 * (STYLE habit 6): the canvas, the inspector, undo/redo and autosave all go through it. Applying a change
 * also yields its exact inverse, so undo is "apply the inverse" through the same function.
 *
 * The editor's document always has a `layout` with one entry per node (see `normalizeLayout`), so that
 * positions can be restored exactly; positions never touch the semantic part of the document.
 */
export interface NodePosition {
  id: string;
  x: number;
  y: number;
}

/** An item with the array index it goes back to (undo of a removal restores document order [H1]). */
export interface At<T> {
  value: T;
  at?: number;
}

export interface PipelineProps {
  name?: string;
  description?: string | undefined;
  event_types?: EventTypeDecl[];
}

export type Change =
  | { type: 'addNodes'; nodes: At<PipelineNode>[]; wires: At<Wire>[]; positions: At<NodePosition>[] }
  | { type: 'removeNodes'; ids: string[] }
  | { type: 'connect'; wires: At<Wire>[] }
  | { type: 'disconnect'; wires: Wire[] }
  | { type: 'updateNode'; node: PipelineNode }
  | { type: 'moveNodes'; positions: NodePosition[] }
  | { type: 'setProps'; props: PipelineProps }
  /** The whole document at once (restoring a version from the history); its inverse is the document before. */
  | { type: 'replaceDoc'; doc: Pipeline };

export interface Applied {
  doc: Pipeline;
  inverse: Change;
}

/** Thrown for a change that cannot apply to the document: a bug in the caller, never a user error. */
export class ChangeError extends Error {
  override name = 'ChangeError';
}

export const sameWire = (a: Wire, b: Wire): boolean => a.from === b.from && a.to === b.to;

/** Inserts items at their recorded indices, ascending, which restores the order they were removed from. */
function insertAll<T>(list: readonly T[], items: readonly At<T>[]): T[] {
  const out = list.slice();
  const withAt = items.filter((i) => i.at !== undefined).sort((a, b) => (a.at as number) - (b.at as number));
  for (const item of withAt) out.splice(Math.min(item.at as number, out.length), 0, item.value);
  for (const item of items) if (item.at === undefined) out.push(item.value);
  return out;
}

/** Removes the items that `pick` selects and returns them with the indices they had. */
function takeOut<T>(list: readonly T[], pick: (item: T) => boolean): { kept: T[]; removed: At<T>[] } {
  const kept: T[] = [];
  const removed: At<T>[] = [];
  list.forEach((value, at) => (pick(value) ? removed.push({ value, at }) : kept.push(value)));
  return { kept, removed };
}

function layoutNodes(doc: Pipeline): NodePosition[] {
  return doc.layout?.nodes ?? [];
}

function withLayoutNodes(doc: Pipeline, nodes: NodePosition[]): Pipeline {
  return { ...doc, layout: { ...(doc.layout ?? {}), nodes } };
}

function addNodes(doc: Pipeline, change: Extract<Change, { type: 'addNodes' }>): Applied {
  const ids = new Set(doc.nodes.map((n) => n.id));
  const added = new Set<string>();
  for (const { value } of change.nodes) {
    if (ids.has(value.id) || added.has(value.id)) throw new ChangeError(`addNodes: id "${value.id}" is taken`);
    added.add(value.id);
  }
  for (const { value } of change.wires) {
    // A wire between two old nodes belongs in `connect`; here it would not be undone by removing the nodes.
    if (!added.has(value.from) && !added.has(value.to)) throw new ChangeError('addNodes: a wire must touch an added node');
  }
  const next = {
    ...doc,
    nodes: insertAll(doc.nodes, change.nodes),
    wires: insertAll(doc.wires, change.wires),
  };
  return { doc: withLayoutNodes(next, insertAll(layoutNodes(doc), change.positions)), inverse: { type: 'removeNodes', ids: [...added] } };
}

function removeNodes(doc: Pipeline, ids: readonly string[]): Applied {
  const gone = new Set(ids);
  const present = new Set(doc.nodes.map((n) => n.id));
  for (const id of gone) if (!present.has(id)) throw new ChangeError(`removeNodes: no node "${id}"`);
  const nodes = takeOut(doc.nodes, (n) => gone.has(n.id));
  const wires = takeOut(doc.wires, (w) => gone.has(w.from) || gone.has(w.to));
  const positions = takeOut(layoutNodes(doc), (p) => gone.has(p.id));
  const next = withLayoutNodes({ ...doc, nodes: nodes.kept, wires: wires.kept }, positions.kept);
  return { doc: next, inverse: { type: 'addNodes', nodes: nodes.removed, wires: wires.removed, positions: positions.removed } };
}

function connect(doc: Pipeline, wires: readonly At<Wire>[]): Applied {
  const ids = new Set(doc.nodes.map((n) => n.id));
  for (const { value } of wires) {
    if (!ids.has(value.from) || !ids.has(value.to)) throw new ChangeError(`connect: unknown node in ${value.from} → ${value.to}`);
    if (doc.wires.some((w) => sameWire(w, value))) throw new ChangeError(`connect: ${value.from} → ${value.to} exists`);
  }
  return { doc: { ...doc, wires: insertAll(doc.wires, wires) }, inverse: { type: 'disconnect', wires: wires.map((w) => w.value) } };
}

function disconnect(doc: Pipeline, wires: readonly Wire[]): Applied {
  for (const w of wires) if (!doc.wires.some((x) => sameWire(x, w))) throw new ChangeError(`disconnect: no wire ${w.from} → ${w.to}`);
  const { kept, removed } = takeOut(doc.wires, (w) => wires.some((x) => sameWire(x, w)));
  return { doc: { ...doc, wires: kept }, inverse: { type: 'connect', wires: removed } };
}

function updateNode(doc: Pipeline, node: PipelineNode): Applied {
  const index = doc.nodes.findIndex((n) => n.id === node.id);
  if (index < 0) throw new ChangeError(`updateNode: no node "${node.id}"`);
  const old = doc.nodes[index] as PipelineNode;
  const nodes = doc.nodes.slice();
  nodes[index] = node;
  return { doc: { ...doc, nodes }, inverse: { type: 'updateNode', node: old } };
}

function moveNodes(doc: Pipeline, positions: readonly NodePosition[]): Applied {
  const list = layoutNodes(doc).slice();
  const old: NodePosition[] = [];
  for (const p of positions) {
    const index = list.findIndex((q) => q.id === p.id);
    if (index < 0) throw new ChangeError(`moveNodes: "${p.id}" has no position`);
    old.push(list[index] as NodePosition);
    list[index] = { id: p.id, x: p.x, y: p.y };
  }
  return { doc: withLayoutNodes(doc, list), inverse: { type: 'moveNodes', positions: old } };
}

function setProps(doc: Pipeline, props: PipelineProps): Applied {
  const next: Pipeline = { ...doc };
  const old: PipelineProps = {};
  if ('name' in props && props.name !== undefined) {
    old.name = doc.name;
    next.name = props.name;
  }
  if ('description' in props) {
    old.description = doc.description;
    if (props.description === undefined) delete next.description;
    else next.description = props.description;
  }
  if ('event_types' in props && props.event_types !== undefined) {
    old.event_types = doc.event_types;
    next.event_types = props.event_types;
  }
  return { doc: next, inverse: { type: 'setProps', props: old } };
}

/** Applies one change to a document without mutating it, and returns the change that undoes it exactly. */
export function applyChange(doc: Pipeline, change: Change): Applied {
  switch (change.type) {
    case 'addNodes': return addNodes(doc, change);
    case 'removeNodes': return removeNodes(doc, change.ids);
    case 'connect': return connect(doc, change.wires);
    case 'disconnect': return disconnect(doc, change.wires);
    case 'updateNode': return updateNode(doc, change.node);
    case 'moveNodes': return moveNodes(doc, change.positions);
    case 'setProps': return setProps(doc, change.props);
    case 'replaceDoc': return { doc: change.doc, inverse: { type: 'replaceDoc', doc } };
  }
}

/** Applies changes in order; the inverse list undoes them all (it is in reverse order). */
export function applyChanges(doc: Pipeline, changes: readonly Change[]): { doc: Pipeline; inverse: Change[] } {
  let current = doc;
  const inverse: Change[] = [];
  for (const change of changes) {
    const applied = applyChange(current, change);
    current = applied.doc;
    inverse.unshift(applied.inverse);
  }
  return { doc: current, inverse };
}
