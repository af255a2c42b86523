#!/usr/bin/env node
// The `hookwire` binary. It runs the prebuilt bundle (engine/node/buildCli.mjs, made by `npm install`) while
// that is current, and otherwise the TypeScript sources through tsx's loader, registered for this process only.
import { pathToFileURL } from 'node:url';
import { freshBundle } from './cliBundle.mjs';

// HOOKWIRE_FROM_SOURCE=1 skips the bundle (tests check both routes give the same answers).
const bundle = process.env.HOOKWIRE_FROM_SOURCE === '1' ? null : freshBundle();
let main;
if (bundle) {
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
if (process.argv[2] === 'claude-hook') process.exit(process.exitCode);
