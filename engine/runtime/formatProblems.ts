import { formatPath, type Problem } from '../model/problem.ts';

/**
 * Every problem on its own line, errors first, each with its severity, JSON path, message and code [V2]:
 * `error   nodes[2].when["payload.tool_name"].regex: missing closing ) (bad_regex)`.
 */
export function formatProblems(problems: readonly Problem[]): string {
  const sorted = [...problems].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return sorted
    .map((p) => {
      const node = p.node_id !== undefined ? ` [node ${p.node_id}]` : '';
      return `${p.severity.padEnd(7)} ${formatPath(p.path)}${node}: ${p.message} (${p.code})`;
    })
    .join('\n');
}
