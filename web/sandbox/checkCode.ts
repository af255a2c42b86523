import { loadPipeline, type Problem, type Sandbox, trackPrograms } from '../../engine/app.ts';

/**
 * Compiles the code nodes of a pipeline document with the engine's own loader and returns its
 * `code_error` problems [S1][V5]. Runs where the sandbox is, in the sandbox worker (sandboxWorker.ts),
 * never on the page's thread: compiling runs each module's top level. Every program compiled is released,
 * so checking after each edit does not pile programs up in the worker.
 */
export function checkCode(sandbox: Sandbox, doc: unknown): Problem[] {
  // The worker's sandbox outlives the check; the programs it compiled do not.
  const tracking = trackPrograms(sandbox);
  try {
    return loadPipeline(doc, { sandbox: tracking.sandbox }).problems.filter((p) => p.code === 'code_error');
  } finally {
    tracking.releaseAll();
  }
}
