#!/usr/bin/env node
// The `hookwire` binary: runs the TypeScript CLI on plain Node (20.19+) with no build step. tsx's loader is
// registered for this process only, then the CLI is imported from source.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli.ts');
process.stdout.on('error', (err) => {
  // `hookwire replay … | head` closes the pipe early: stop quietly.
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
process.exitCode = await main(process.argv);
