#!/usr/bin/env node
// The `hookwire` binary. It runs the prebuilt bundle (engine/node/buildCli.mjs, made by `npm install`) while
// that is current, and otherwise the TypeScript sources through tsx's loader, registered for this process only.
import { pathToFileURL } from 'node:url';

// [P12] A Claude Code hook must never crash into Node's exit 1: Claude Code takes every exit code but 0
// and 2 as a non-blocking error and runs the tool (https://code.claude.com/docs/en/hooks#exit-code-output).
// So any error no command caught (a module that does not load, a throw in a timer, a rejection nobody
// awaited) ends a claude-hook call in exit 2 with the reason, the adapter's fail-closed answer. Installed
// before anything else is loaded; bin.ts does the same for the installed package.
const claudeHook = process.argv[2] === 'claude-hook';
if (claudeHook) {
  const failClosed = (err) => {
    try {
      process.stderr.write(`hookwire claude-hook: internal error: ${err instanceof Error ? err.message : String(err)} (failing closed)\n`);
    } finally {
      process.exit(2);
    }
  };
  process.on('uncaughtException', failClosed);
  process.on('unhandledRejection', failClosed);
}
const { FORWARD_BUNDLE, freshBundle } = await import('./cliBundle.mjs');

// HOOKWIRE_FROM_SOURCE=1 skips the bundle (tests check both routes give the same answers).
const fromSource = process.env.HOOKWIRE_FROM_SOURCE === '1';
const args = process.argv.slice(2);
// `claude-hook --server URL` runs once per tool call: its own small bundle, not the whole CLI.
const forward = !fromSource && args[0] === 'claude-hook' && args.some((a) => a === '--server' || a.startsWith('--server=')) ? freshBundle(FORWARD_BUNDLE) : null;
const forwarded = forward ? await (await import(pathToFileURL(forward).href)).forwardMain(args.slice(1)) : null;
const bundle = forwarded !== null || fromSource ? null : freshBundle();
let main;
if (forwarded !== null) {
  main = async () => forwarded;
} else if (bundle) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./cli.ts'));
}
process.stdout.on('error', (err) => {
  // `hookwire replay … | head` closes the pipe early: stop quietly.
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
process.exitCode = await main(process.argv);
// A Claude Code hook answers and leaves: a read that never ends (its deadline answered for it) must not keep
// the process alive past Claude Code's timeout. stdout and stderr are synchronous for files and pipes here.
if (claudeHook) process.exit(process.exitCode);
