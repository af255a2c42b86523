#!/usr/bin/env node
// The installed package's `hookwire` binary (package.json "bin" → dist/cli/bin.cjs): this file, bundled by
// buildPackage.mjs with crashFailsClosed.cjs and cliBundle.cjs into one CommonJS file. CommonJS, so that a hook
// call (one process per tool call) starts without Node's ES module loader (~10 ms of CPU on Node 20,
// docs/speed.md). It takes the two hook routes that run once per tool call, and the commands that read traces,
// from CommonJS bundles of their own beside it, each whole in itself (no module of theirs is shared with another
// bundle, so no class such as CliError has two identities in one route), and `import()`s the ES module CLI
// (dist/cli/bin.js, from bin.ts) for everything else. A checkout runs engine/node/bin.cjs instead.
'use strict';
const { crashFailsClosed } = require('./crashFailsClosed.cjs');

// Before anything else is loaded: a crash of an agent's hook call fails closed in its block form [P12][AG4].
const args = process.argv.slice(2);
const claudeHook = args[0] === 'claude-hook' || args[0] === 'hook';
const agentArg = args.findIndex((a) => a === '--agent' || a.startsWith('--agent='));
const hookAgent = args[0] !== 'hook' || agentArg < 0 ? 'claude' : args[agentArg].startsWith('--agent=') ? args[agentArg].slice('--agent='.length) : (args[agentArg + 1] ?? 'claude');
if (claudeHook) crashFailsClosed(hookAgent);

async function run() {
  const { join } = require('node:path');
  // Node 22.1+ keeps V8's compiled code on disk (bin.ts says where and why); Node 20 has no compile cache.
  const compileCache = enableCompileCache(join);
  let answered = null;
  // `claude-hook --server URL` (`hook --agent … --server URL`): the forwarder alone, ~8 KB, required plainly.
  const forwarding = claudeHook && args.some((a) => a === '--server' || a.startsWith('--server='));
  if (forwarding) answered = await require(join(__dirname, 'forward', 'forwardMain.cjs')).forwardMain(args.slice(1), args[0] === 'hook');
  // A deciding call that neither records nor audits: the fast route (hookMain.ts hookFastMain says which calls it
  // takes; null, decided before stdin is read, is the ES module CLI's). With a compile cache Node keeps its code;
  // without (Node 20), V8's code cache in the user's cache directory.
  if (answered === null && claudeHook && !forwarding && !args.some((a) => /^--(record|audit)(=|$)/.test(a))) {
    const fast = join(__dirname, 'hook-fast', 'hookMain.cjs');
    const cacheFile = compileCache ? null : codeCacheFile(join);
    if (cacheFile === null) {
      answered = await require(fast).hookFastMain(args.slice(1), args[0] === 'hook');
    } else {
      const { exports, keep } = require('./cliBundle.cjs').loadWithCodeCache(fast, cacheFile);
      answered = await exports.hookFastMain(args.slice(1), args[0] === 'hook');
      if (answered !== null) keep();
    }
  }
  if (answered !== null) process.exit(answered);
  // The commands that read traces: the CLI as one CommonJS file beside this one (readingMain.ts says why), through
  // the compile cache or, on Node 20, V8's code cache, one per command. cliBundle.cjs READING_COMMANDS names them.
  const { READING_COMMANDS, loadWithCodeCache } = require('./cliBundle.cjs');
  if (READING_COMMANDS.has(args[0])) {
    const reading = join(__dirname, 'reading', 'readingMain.cjs');
    const cacheFile = compileCache ? null : codeCacheFile(join, `reading-${args[0]}`);
    const loaded = cacheFile === null ? { exports: require(reading), keep: () => {} } : loadWithCodeCache(reading, cacheFile);
    process.stdout.on('error', (err) => {
      // `hookwire replay … | head` closes the pipe early: stop quietly (as bin.ts).
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
    process.exitCode = await loaded.exports.main(process.argv);
    loaded.keep();
    return;
  }
  // Everything else: the ES module CLI (its crash handler and compile cache are on already).
  await import('./bin.js');
}

/**
 * Node's compile cache in the user's own cache directory (bin.ts says why there). True on a Node that has one
 * (22.1+), whether or not it could be turned on: NODE_DISABLE_COMPILE_CACHE=1 means no cache of ours either.
 */
function enableCompileCache(join) {
  // Node 20 and 21 have none (22.1 added it): node:module is not loaded for nothing (~0.7 ms of a call's CPU).
  if (Number(process.versions.node.split('.')[0]) < 22) return false;
  const module = require('node:module');
  if (typeof module.enableCompileCache !== 'function') return false;
  try {
    module.enableCompileCache(join(cacheHome(join), 'node-compile-cache'));
  } catch {
    // no home directory, or a cache directory that cannot be made: the compile costs, not the call
  }
  return true;
}

const cacheHome = (join) => join(process.env.XDG_CACHE_HOME || join(require('node:os').homedir(), '.cache'), 'hookwire');

/**
 * Where Node 20 keeps a route's V8 code cache (`name`: the fast hook route's, or a reading command's): the user's own directory, like the compile cache, named by
 * the build (npm gives every file of a package one mtime, so size and mtime would not tell two versions apart;
 * V8 itself checks only the source's length). null (no home directory): no cache.
 */
function codeCacheFile(join, name = 'hook-fast') {
  try {
    return join(cacheHome(join), 'v8-code-cache', `${name}-${__HOOKWIRE_BUILD__}.bin`);
  } catch {
    return null;
  }
}

// What escapes is what an ES module's top-level await rejecting would be: an uncaught error (a hook call's is
// answered by crashFailsClosed above).
run().catch((err) => {
  process.nextTick(() => {
    throw err;
  });
});
