import type { Pipeline } from '../../engine/model/pipelineSchema.ts';
import { isCodeNode } from '../../engine/model/codeNodes.ts';
import type { Problem } from '../../engine/model/problem.ts';

/**
 * The editor validates on the page without a sandbox (user code never runs on the page's thread), so
 * `code_error` problems come separately, from the engine's loader in the sandbox worker
 * (web/sandbox/checkCode.ts), a little after the edit. This joins the two lists. The worker's answer may
 * be about an older version of the document: problems of nodes that are gone or no longer code are
 * dropped, and the rest are moved to their node's current index, until the next answer replaces them.
 */

export { hasCode, isCodeNode } from '../../engine/model/codeNodes.ts';

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
