import { type Pipeline, isCodeNode, type Problem } from '../../engine/app.ts';

/**
 * The editor validates on the page without a sandbox (user code never runs on the page's thread), so
 * `code_error` problems come separately, from the engine's loader in the sandbox worker
 * (web/sandbox/checkCode.ts), a little after the edit. This joins the two lists. The worker's answer may
 * be about an older version of the document: problems of nodes that are gone or no longer code are
 * dropped, and the rest are moved to their node's current index, until the next answer replaces them.
 */

export { hasCode, isCodeNode } from '../../engine/app.ts';

const same = (a: Problem, b: Problem) => a.code === b.code && a.node_id === b.node_id && a.message === b.message;

/**
 * `base` (the page's load of `doc`) with the sandbox's `code_error` problems added: errors first (the
 * page's, then the code's), then warnings, each in the order given.
 */
export function mergeCodeProblems(doc: Pipeline, base: readonly Problem[], code: readonly Problem[]): Problem[] {
  const codeIndex = new Map<string, number>();
  doc.nodes.forEach((n, i) => {
    if (isCodeNode(n)) codeIndex.set(n.id, i);
  });
  const added: Problem[] = [];
  for (const p of code) {
    if (p.code !== 'code_error' || p.node_id === undefined) continue;
    const index = codeIndex.get(p.node_id);
    if (index === undefined || base.some((b) => same(b, p)) || added.some((a) => same(a, p))) continue;
    // The path is ['nodes', i, ...]: the node may have moved in the array since the check.
    const path = p.path[0] === 'nodes' ? ['nodes', index, ...p.path.slice(2)] : p.path;
    added.push({ ...p, path });
  }
  if (added.length === 0) return base as Problem[];
  const errors = base.filter((p) => p.severity === 'error');
  const warnings = base.filter((p) => p.severity !== 'error');
  return [...errors, ...added, ...warnings];
}

/** What Monaco's TypeScript check said about one node's source (the editor's own check; the engine strips types). */
export interface TypeMarks {
  source: string;
  markers: readonly { severity: 'error' | 'warning'; message: string; line: number; column: number }[];
}

/**
 * The type checker's findings as problems, for nodes whose source is still the one checked. They are
 * warnings: TypeScript's types are stripped before the code runs, so the pipeline still loads [S1].
 */
export function typeProblems(doc: Pipeline, marks: ReadonlyMap<string, TypeMarks>): Problem[] {
  const out: Problem[] = [];
  doc.nodes.forEach((n, i) => {
    const m = marks.get(n.id);
    const spec = n.kind === 'handler' && n.action.type === 'code' ? { spec: n.action, path: ['nodes', i, 'action', 'source'] } : n.kind === 'matcher' && n.code ? { spec: n.code, path: ['nodes', i, 'code', 'source'] } : null;
    if (!m || !spec || spec.spec.source !== m.source) return;
    for (const k of m.markers) {
      out.push({ code: 'code_error', severity: 'warning', path: spec.path, node_id: n.id, at: { line: k.line, column: k.column }, message: `Type check, line ${k.line}:${k.column}: ${k.message} (the code still runs: types are stripped)` });
    }
  });
  return out;
}
