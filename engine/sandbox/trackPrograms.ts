import type { Sandbox, SandboxProgram } from './types.ts';

/**
 * A view of a long-lived sandbox that remembers every program compiled through it, so that whoever compiled
 * a pipeline can release exactly those programs later (a re-check after an edit, a replaced pipeline)
 * while the sandbox itself lives on: `dispose` on the view does nothing.
 * `const t = trackPrograms(sandbox); compilePipeline(doc, { sandbox: t.sandbox }); … t.releaseAll();`
 */
export function trackPrograms(sandbox: Sandbox): { sandbox: Sandbox; releaseAll(): void } {
  const made: SandboxProgram[] = [];
  return {
    sandbox: {
      compile: (source, options) => {
        const r = sandbox.compile(source, options);
        if (r.ok) made.push(r.program);
        return r;
      },
      call: (program, input, limits) => sandbox.call(program, input, limits),
      release: (program) => sandbox.release(program),
      dispose: () => undefined,
    },
    releaseAll: () => {
      for (const program of made.splice(0)) sandbox.release(program);
    },
  };
}
