import { loadPipeline } from '../../engine/model/loadPipeline.ts';
import type { Problem } from '../../engine/model/problem.ts';
import type { Sandbox, SandboxProgram } from '../../engine/sandbox/types.ts';

/**
 * Compiles the code nodes of a pipeline document with the engine's own loader and returns its
 * `code_error` problems [S1][V5]. Runs where the sandbox is, in the sandbox worker (sandboxWorker.ts),
 * never on the page's thread: compiling runs each module's top level. Every program compiled is released,
 * so checking after each edit does not pile programs up in the worker.
 */
export function checkCode(sandbox: Sandbox, doc: unknown): Problem[] {
  const made: SandboxProgram[] = [];
  const tracking: Sandbox = {
    compile: (source, options) => {
      const r = sandbox.compile(source, options);
      if (r.ok) made.push(r.program);
      return r;
    },
    call: (program, input, limits) => sandbox.call(program, input, limits),
    release: (program) => sandbox.release(program),
    // The worker's sandbox outlives the check.
    dispose: () => undefined,
  };
  try {
    return loadPipeline(doc, { sandbox: tracking }).problems.filter((p) => p.code === 'code_error');
  } finally {
    for (const program of made) sandbox.release(program);
  }
}
