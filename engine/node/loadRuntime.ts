// The runtime API for Node: load an exported pipeline file into a runtime [P1], with a QuickJS sandbox when
// the pipeline has code. The runtime itself is pure (engine/runtime/); this file only reads the file.
import { createRuntime } from '../runtime/createRuntime.ts';
import type { RuntimeLoad, RuntimeOptions } from '../runtime/types.ts';
import { readTextFile } from './cliIo.ts';
import { sandboxFor } from './loadPipelineFile.ts';
import { parseJsonText } from '../model/jsonErrorOffset.ts';
import { pipelineVersionOf } from '../trace/pipelineVersion.ts';

const NODE_TIMERS = {
  set: (ms: number, run: () => void) => setTimeout(run, ms).unref(),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Reads a pipeline file and creates a runtime. A pipeline with errors is refused with every problem
 * (`{ok: false, problems}`; print them with `formatProblems`). A file that cannot be read throws.
 * Without `options.sandbox`, a Node QuickJS sandbox is made when the pipeline has code handlers or matchers.
 *
 * @example const r = await loadRuntime('guard.pipeline.json'); if (!r.ok) throw new Error(formatProblems(r.problems));
 */
export async function loadRuntime(path: string, options: RuntimeOptions = {}): Promise<RuntimeLoad> {
  const text = await readTextFile(path, 'pipeline');
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  const sandbox = options.sandbox !== undefined ? options.sandbox : await sandboxFor(parsed.doc);
  // Node's timers bound an asynchronous approver [P14]; unref'd, so a pending approval never keeps the process alive alone.
  const timers = options.timers ?? NODE_TIMERS;
  // [R17] recordings name the file's version, so a replay checks the decisions of its own version.
  const r = createRuntime(parsed.doc, { pipelineVersion: pipelineVersionOf(text), ...options, sandbox, timers });
  if (!r.ok && options.sandbox === undefined) sandbox?.dispose();
  return r;
}
