#!/usr/bin/env node
// The checkout's `hookwire` binary. It runs the prebuilt bundles (engine/node/buildCli.mjs, made by `npm install`)
// while they are current, and otherwise the TypeScript sources through tsx's loader, registered for this process
// only. CommonJS, so that a hook call (one process per tool call) starts without the ES module loader: an ES
// module main costs ~10 ms of CPU more than a CommonJS one on Node 20 (docs/speed.md). engine/node/bin.mjs, the
// name older settings files and scripts call, runs this file.
'use strict';
const { crashFailsClosed } = require('./crashFailsClosed.cjs');

// Before anything else is loaded: a crash of an agent's hook call fails closed in its block form [P12][AG4].
const hookAgent = (argv) => {
  const i = argv.findIndex((a) => a === '--agent' || a.startsWith('--agent='));
  return i < 0 ? 'claude' : argv[i].startsWith('--agent=') ? argv[i].slice('--agent='.length) : argv[i + 1] ?? 'claude';
};
const claudeHook = process.argv[2] === 'claude-hook' || process.argv[2] === 'hook';
if (claudeHook) crashFailsClosed(process.argv[2] === 'hook' ? hookAgent(process.argv.slice(3)) : 'claude');
const { FORWARD_BUNDLE, HOOK_BUNDLE, HOOK_FAST_BUNDLE, READING_BUNDLE, READING_COMMANDS, codeCacheBeside, freshBundle, loadWithCodeCache } = require('./cliBundle.cjs');

async function run() {
  // HOOKWIRE_FROM_SOURCE=1 skips the bundle (tests check both routes give the same answers).
  const fromSource = process.env.HOOKWIRE_FROM_SOURCE === '1';
  const args = process.argv.slice(2);
  // `claude-hook --server URL` runs once per tool call: its own small bundle, not the whole CLI.
  const forward = !fromSource && claudeHook && args.some((a) => a === '--server' || a.startsWith('--server=')) ? freshBundle(FORWARD_BUNDLE) : null;
  let answered = null;
  // Required, not through V8's code cache: at 8 KB it compiles in less time than the cache takes to read.
  if (forward) answered = await require(forward).forwardMain(args.slice(1), args[0] === 'hook');
  // A deciding hook call (`claude-hook <pipeline>`) likewise starts from its own bundle, without commander: first
  // the fast route (one CommonJS file from V8's code cache; hookMain.ts hookFastMain says which calls it takes),
  // then the ES module bundle. A call that records or audits loads the recording's reader and lock: straight to the
  // latter.
  const deciding = answered === null && !forward && !fromSource && claudeHook;
  const records = args.some((a) => /^--(record|audit)(=|$)/.test(a));
  const fast = deciding && !records ? freshBundle(HOOK_FAST_BUNDLE) : null;
  if (fast) {
    const { exports, keep } = loadWithCodeCache(fast);
    answered = await exports.hookFastMain(args.slice(1), args[0] === 'hook');
    if (answered !== null) keep();
  }
  // An answered hook call leaves now: its answer is written, and nothing below (node:url, the stdout stream's error
  // handler, which makes the stream) is needed for it.
  if (answered !== null) process.exit(answered);
  const { pathToFileURL } = require('node:url');
  const decideHere = answered === null && deciding ? freshBundle(HOOK_BUNDLE) : null;
  if (decideHere) answered = await (await import(pathToFileURL(decideHere).href)).hookMain(args.slice(1), args[0] === 'hook');
  // The commands that read traces: the CLI as one CommonJS file through V8's code cache, one cache per command
  // (cliBundle.cjs READING_COMMANDS). Stale or missing: the ES module CLI below.
  const reading = answered === null && !fromSource && READING_COMMANDS.has(args[0]) ? freshBundle(READING_BUNDLE) : null;
  const bundle = answered !== null || fromSource || reading ? null : freshBundle();
  let main;
  let keep = () => {};
  if (answered !== null) {
    main = async () => answered;
  } else if (reading) {
    ({ exports: { main }, keep } = loadWithCodeCache(reading, codeCacheBeside(reading, args[0])));
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
  keep(); // after the command: the cache holds every function it compiled
  // A Claude Code hook answers and leaves: a read that never ends (its deadline answered for it) must not keep
  // the process alive past Claude Code's timeout. stdout and stderr are synchronous for files and pipes here.
  if (claudeHook) process.exit(process.exitCode);
}

// What escapes is the same as an ES module's top-level await rejecting: an uncaught error (a hook call's is
// answered by crashFailsClosed above).
run().catch((err) => {
  process.nextTick(() => {
    throw err;
  });
});
