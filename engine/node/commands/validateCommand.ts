// `hookwire validate <pipeline.json>`: every problem with its JSON path; exit 1 on any error [P9][V2].
import { loadPipeline } from '../../compile/loadPipeline.ts';
import type { Problem } from '../../model/problem.ts';
import { formatProblems, nodeLabels } from '../../runtime/formatProblems.ts';
import { EXIT, plural, readTextFile, type Io } from '../cliIo.ts';
import { sandboxFor } from '../loadPipelineFile.ts';
import { parseJsonText } from '../../model/jsonErrorOffset.ts';

export async function validateCommand(path: string, options: { json?: boolean }, io: Io): Promise<number> {
  const text = await readTextFile(path, 'pipeline');
  const parsed = parseJsonText(text);
  let problems: Problem[];
  let summary = '';
  if (!parsed.ok) problems = parsed.problems;
  else {
    const sandbox = await sandboxFor(parsed.doc);
    try {
      const r = loadPipeline(parsed.doc, sandbox ? { sandbox } : {});
      problems = r.problems;
      if (r.ok) {
        const handlers = r.pipeline.nodes.filter((n) => n.kind === 'handler').length;
        summary = ` (pipeline "${r.pipeline.name}": ${r.pipeline.nodes.length} nodes, ${handlers} handlers, ${r.pipeline.wires.length} wires)`;
      }
    } finally {
      sandbox?.dispose();
    }
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  if (options.json) {
    io.out(`${JSON.stringify({ file: path, valid: errors === 0, errors, warnings, problems })}\n`);
  } else {
    if (problems.length > 0) io.out(`${formatProblems(problems, parsed.ok ? nodeLabels(parsed.doc) : undefined)}\n`);
    const verdict = errors === 0 ? `valid${summary}` : 'invalid';
    io.out(`${path}: ${verdict}; ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
  }
  return errors === 0 ? EXIT.ok : EXIT.failed;
}
