import { isJsonObject } from '../../engine/app.ts';

/**
 * A short, human summary of what changed between two stored versions of a pipeline ("added “Block rm” ·
 * 1 wire removed · moved 2 nodes"), for the version history list. Stored documents may be ones the user
 * was still fixing, so both sides are read defensively; ids are kept in Maps (`__proto__` is just a name).
 */
type Rec = Record<string, unknown>;

const list = (doc: unknown, key: string): Rec[] =>
  isJsonObject(doc as never) && Array.isArray((doc as Rec)[key]) ? ((doc as Rec)[key] as unknown[]).filter((x): x is Rec => isJsonObject(x as never)) : [];

const byId = (items: Rec[]): Map<string, Rec> => new Map(items.filter((n) => typeof n.id === 'string').map((n) => [n.id as string, n]));

const nodeName = (n: Rec): string => String(n.kind === 'handler' ? (n.name ?? n.id) : (n.label ?? n.pattern ?? n.id));

const positions = (doc: unknown): Map<string, string> => {
  const layout = isJsonObject(doc as never) ? (doc as Rec).layout : undefined;
  return new Map(list(layout, 'nodes').map((p) => [String(p.id), `${p.x},${p.y}`]));
};

function names(label: string, nodes: Rec[]): string | null {
  if (nodes.length === 0) return null;
  const shown = nodes.slice(0, 2).map((n) => `“${nodeName(n)}”`).join(', ');
  return `${label} ${shown}${nodes.length > 2 ? ` +${nodes.length - 2}` : ''}`;
}

const count = (n: number, what: string, verb: string): string | null => (n ? `${n} ${what}${n === 1 ? '' : 's'} ${verb}` : null);

const SEMANTIC_PROPS = ['description', 'event_types', 'settings', 'format', 'version'];

/** What changed from `before` to `after`; `before` null means the first version. */
export function summarizeVersionChange(before: unknown, after: unknown): string {
  if (before === null) return 'First version';
  const a = byId(list(before, 'nodes'));
  const b = byId(list(after, 'nodes'));
  const added = [...b.values()].filter((n) => !a.has(n.id as string));
  const removed = [...a.values()].filter((n) => !b.has(n.id as string));
  const changed = [...b.values()].filter((n) => a.has(n.id as string) && JSON.stringify(a.get(n.id as string)) !== JSON.stringify(n));
  const wireKey = (w: Rec) => `${String(w.from)}\u0000${String(w.to)}`;
  const wa = new Set(list(before, 'wires').map(wireKey));
  const wb = new Set(list(after, 'wires').map(wireKey));
  const pa = positions(before);
  const pb = positions(after);
  const moved = [...pb].filter(([id, p]) => pa.has(id) && pa.get(id) !== p).length;
  const nameOf = (d: unknown) => (isJsonObject(d as never) ? (d as Rec).name : undefined);
  const props = SEMANTIC_PROPS.filter((k) => JSON.stringify((before as Rec | null)?.[k]) !== JSON.stringify((after as Rec | null)?.[k]));
  const parts = [
    nameOf(before) !== nameOf(after) ? `renamed to “${String(nameOf(after))}”` : null,
    names('added', added),
    names('removed', removed),
    names('changed', changed),
    count([...wb].filter((w) => !wa.has(w)).length, 'wire', 'added'),
    count([...wa].filter((w) => !wb.has(w)).length, 'wire', 'removed'),
    props.length ? `${props.join(', ').replace('_', ' ')} changed` : null,
    moved ? `moved ${moved} node${moved === 1 ? '' : 's'}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join(' · ') : 'No visible change';
}
