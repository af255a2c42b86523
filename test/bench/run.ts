// `npm run bench`: every benchmark of the project, one after another, each printing its contenders side by
// side and their ratios. Not a test: nothing here asserts a time. `npm run bench -- dispatch replay` runs some.
import { runAdaptersBench } from './adapters.bench.ts';
import { runAdapterMemoryBench } from './adapterMemory.bench.ts';
import { runDispatchBench } from './dispatch.bench.ts';
import { runFormatsBench } from './formats.bench.ts';
import { runImportBench } from './import.bench.ts';
import { runPackageBench } from './package.bench.ts';
import { runLimitsBench } from './limits.bench.ts';
import { runRegexBench } from './regex.bench.ts';
import { runReplayBench } from './replay.bench.ts';
import { runSandboxBench } from './sandbox.bench.ts';
import { runServeBench } from './serve.bench.ts';
import { runServeMemoryBench } from './serveMemory.bench.ts';
import { runSpeedBench } from './speed.bench.ts';

const all: Record<string, () => unknown> = {
  // The paths a user feels, each beside its floor (node -e 0, JSON.parse per line, a bare node:http server).
  speed: () => runSpeedBench(),
  dispatch: () => runDispatchBench(100_000, [10, 100, 1000]),
  regex: () => runRegexBench(),
  sandbox: () => runSandboxBench(),
  replay: () => runReplayBench(100_000, 100),
  import: () => runImportBench(100_000, false),
  adapters: () => runAdaptersBench(7),
  package: () => runPackageBench(),
  limits: () => runLimitsBench(1_000_000, 10_000, 2),
  formats: () => runFormatsBench(),
  serve: () => runServeBench(),
  'serve-memory': () => runServeMemoryBench(),
  'adapter-memory': () => runAdapterMemoryBench(),
};

const chosen = process.argv.slice(2).filter((a) => a in all);
for (const name of chosen.length ? chosen : Object.keys(all)) {
  console.log(`\n=== ${name} ===`);
  await all[name]!();
}
