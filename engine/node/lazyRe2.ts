// re2js as the CLI's bundles see it (engine/node/buildCli.mjs points every `import … from 're2js'` here): the
// library (~150 KB, ~20 ms of compile at every process start) is required on first use, not at start. A hook
// call whose patterns all run as string operations or on the bit-parallel NFA (engine/accel/ACCEL.md), and
// whose pipeline this build compiled before (engine/node/pipelineCache.ts), never loads it. The same re2js
// (package.json's exact version), through Node's require: `createRequire` resolves it from the bundle's folder
// as Node resolves a dependency (node_modules/.cache/hookwire/… in a checkout, node_modules/hookwire/dist/cli in
// an install). Only what engine/match/regex.ts uses is here; test/engine/node/lazyRe2.test.ts holds it to re2js.
import type { RE2JS as Re2 } from 're2js';

let lib: typeof Re2 | null = null;
// node:module through process.getBuiltinModule (Node 20.16+), on first use too: a CommonJS hook bundle that loaded
// it at start paid ~0.7 ms of CPU for it on Node 20 (it brings the ES module loader's modules along).
const load = (): typeof Re2 => (lib ??= (process.getBuiltinModule('node:module').createRequire(import.meta.url)('re2js') as { RE2JS: typeof Re2 }).RE2JS);

/** re2js's flag bits (the same numbers: checked by the test) and `compile`, loading the library on first call. */
export const RE2JS = {
  CASE_INSENSITIVE: 1,
  DOTALL: 2,
  MULTILINE: 4,
  compile: (pattern: string, flags?: number): Re2 => load().compile(pattern, flags),
};

/** Whether re2js has been loaded in this process (for the test of the hook call's module graph). */
export const re2Loaded = (): boolean => lib !== null;
