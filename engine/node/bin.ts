#!/usr/bin/env node
// The installed package's `hookwire` binary (package.json "bin" → dist/node/bin.js): the CLI as built
// JavaScript, no TypeScript loader. A checkout runs engine/node/bin.mjs instead.
import { main } from './cli.ts';

process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  // `hookwire replay … | head` closes the pipe early: stop quietly.
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
process.exitCode = await main(process.argv);
