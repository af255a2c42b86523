#!/usr/bin/env node
// The installed package's ES module CLI (dist/cli/bin.js, bundled by buildCli.mjs): the CLI as built JavaScript, no
// TypeScript loader. The package's `bin` is dist/cli/bin.cjs (packageBin.cjs), a CommonJS front that answers the hook
// calls it can from bundles of their own and imports this file for the rest; its crash handler and compile cache
// are then on already (both once per process), and this file sets them up when it is run directly. A checkout runs
// engine/node/bin.cjs instead.
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { crashFailsClosed } from './crashFailsClosed.cjs';

// Before the CLI is loaded (the imports above are Node's own): a crash of an agent's hook call fails closed in
// its block form [P12][AG4].
const args = process.argv.slice(2);
const claudeHook = args[0] === 'claude-hook' || args[0] === 'hook';
const agentArg = args.findIndex((a) => a === '--agent' || a.startsWith('--agent='));
const hookAgent = args[0] !== 'hook' || agentArg < 0 ? 'claude' : args[agentArg]!.startsWith('--agent=') ? args[agentArg]!.slice('--agent='.length) : (args[agentArg + 1] ?? 'claude');
if (claudeHook) crashFailsClosed(hookAgent);

// Node 22.1+ keeps V8's compiled code of the CLI's chunks on disk, so a `claude-hook` call (one process per
// tool call) does not compile ~700 KB of JavaScript again (`npm run bench -- package`: 0.107 → 0.089 s of CPU
// per call on Node 22.12). The cache lives in the user's own cache directory, not a shared /tmp one that
// another account could fill with code for this process to run. Node 20 has no compile cache: nothing happens.
// NODE_COMPILE_CACHE (a directory) and NODE_DISABLE_COMPILE_CACHE=1 keep working, as Node documents them.
// A cache that cannot be set up only costs the compile, never the call.
try {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache?.(join(cacheHome, 'hookwire', 'node-compile-cache'));
} catch {
  // no home directory, or a cache directory that cannot be made
}

process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  // `hookwire replay … | head` closes the pipe early: stop quietly.
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
// A hook call runs once per tool call: `--server URL` loads only the forwarder, and a deciding call only the
// hook command (hookMain.ts: no commander), not the whole CLI. What they do not take, the CLI answers.
const forwarding = claudeHook && args.some((a) => a === '--server' || a.startsWith('--server='));
const answered = !claudeHook
  ? null
  : forwarding
    ? await (await import('./serve/forwardMain.ts')).forwardMain(args.slice(1), args[0] === 'hook')
    : await (await import('./hookMain.ts')).hookMain(args.slice(1), args[0] === 'hook');
if (answered !== null) process.exit(answered);
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv);
// A Claude Code hook answers and leaves (Claude Code reads the exit code only once the process has exited):
// work its deadline answered for must not keep it alive. stdout and stderr are synchronous for files and pipes.
if (claudeHook) process.exit(process.exitCode);
