// [P12] A Claude Code hook must never crash into Node's exit 1: Claude Code takes every exit code but 0 and 2
// as a non-blocking error and runs the tool (https://code.claude.com/docs/en/hooks#exit-code-output). So any
// error no command caught (a module that does not load, a throw in a timer, a rejection nobody awaited) ends a
// claude-hook call in exit 2 with the reason, the adapter's fail-closed answer. Plain JavaScript, so the
// checkout's binary (bin.mjs) can install it before anything else loads; the package's (bin.ts) bundles it.

/** For a `claude-hook` call: every uncaught exception or rejection from now on is exit 2 with the reason. */
export function crashFailsClosed() {
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
