#!/usr/bin/env node
// Bundles the CLI's TypeScript into one ES module (packages stay external, resolved from node_modules), so
// that `hookwire` — above all `hookwire claude-hook`, which Claude Code runs for every tool call — starts in a
// tenth of the time it takes to compile the sources with tsx on each run. `npm install` runs it (prepare);
// bin.mjs uses the bundle only while it is newer than every source file, and falls back to tsx otherwise.
// The forwarding command (`claude-hook --server`) gets a bundle of its own: it must start in little more
// than Node's own start-up.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { CLI_BUNDLE, ENGINE_DIR, FORWARD_BUNDLE } from './cliBundle.mjs';

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning', absWorkingDir: ENGINE_DIR };
await build({ ...common, entryPoints: [fileURLToPath(new URL('./cli.ts', import.meta.url))], outfile: CLI_BUNDLE });
await build({ ...common, entryPoints: [fileURLToPath(new URL('./serve/forwardMain.ts', import.meta.url))], outfile: FORWARD_BUNDLE });
