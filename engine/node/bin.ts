#!/usr/bin/env node
// The installed package's `hookwire` binary (package.json "bin" → dist/node/bin.js): the CLI as built
// JavaScript, no TypeScript loader. A checkout runs engine/node/bin.mjs instead.
export {};

process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  // `hookwire replay … | head` closes the pipe early: stop quietly.
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
// `claude-hook --server URL` runs once per tool call: only the forwarder is loaded, not the CLI and the engine.
const args = process.argv.slice(2);
const forwarded = args[0] === 'claude-hook' && args.some((a) => a === '--server' || a.startsWith('--server=')) ? await (await import('./serve/forwardMain.ts')).forwardMain(args.slice(1)) : null;
if (forwarded !== null) process.exit(forwarded);
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv);
// A Claude Code hook answers and leaves (Claude Code reads the exit code only once the process has exited):
// work its deadline answered for must not keep it alive. stdout and stderr are synchronous for files and pipes.
if (args[0] === 'claude-hook') process.exit(process.exitCode);
