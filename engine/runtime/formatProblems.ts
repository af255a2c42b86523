import { formatPath, type Problem } from '../model/problem.ts';

/**
 * What a person calls each node of a pipeline document: an event's or matcher's `label`, a handler's `name`
 * (ids are what the file says, labels what the editor shows). Reads the document as untrusted JSON.
 */
export function nodeLabels(doc: unknown): Map<string, string> {
  const labels = new Map<string, string>();
  const nodes = typeof doc === 'object' && doc !== null && Object.hasOwn(doc, 'nodes') ? (doc as { nodes: unknown }).nodes : null;
  if (!Array.isArray(nodes)) return labels;
  for (const n of nodes) {
    if (typeof n !== 'object' || n === null || !Object.hasOwn(n, 'id') || typeof n.id !== 'string') continue;
    const own = (k: string) => (Object.hasOwn(n, k) && typeof (n as Record<string, unknown>)[k] === 'string' ? ((n as Record<string, unknown>)[k] as string) : '');
    const label = own('label') || own('name');
    if (label.trim() !== '' && label !== n.id) labels.set(n.id, label);
  }
  return labels;
}

/** A node as a person finds it: `"Dangerous tools" (matcher)` — its label and its id — or the id alone. */
export function nodeRef(id: string, labels?: ReadonlyMap<string, string>): string {
  const label = labels?.get(id);
  return label === undefined ? id : `${JSON.stringify(label)} (${id})`;
}

/**
 * Every problem on its own line, errors first, each with its severity, JSON path, node, message and code [V2]:
 * `error   nodes[2].when["payload.tool_name"].regex [node "Dangerous tools" (matcher)]: missing closing ) (bad_regex)`.
 * `labels` (from `nodeLabels(doc)`) names each node by its label as well as its id.
 */
export function formatProblems(problems: readonly Problem[], labels?: ReadonlyMap<string, string>): string {
  const sorted = [...problems].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return sorted
    .map((p) => {
      const node = p.node_id !== undefined ? ` [node ${nodeRef(p.node_id, labels)}]` : '';
      return `${p.severity.padEnd(7)} ${formatPath(p.path)}${node}: ${p.message} (${p.code})`;
    })
    .join('\n');
}
