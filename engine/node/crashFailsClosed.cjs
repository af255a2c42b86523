'use strict';
// [P12] A Claude Code hook must never crash into Node's exit 1: Claude Code takes every exit code but 0 and 2
// as a non-blocking error and runs the tool (https://code.claude.com/docs/en/hooks#exit-code-output). So any
// error no command caught (a module that does not load, a throw in a timer, a rejection nobody awaited) ends a
// claude-hook call in exit 2 with the reason, the adapter's fail-closed answer. Plain JavaScript, so the
// checkout's binary (bin.cjs) can install it before anything else loads; the package's (packageBin.cjs, and
// bin.ts behind it) bundle it.

/**
 * For an agent's hook call (`claude-hook`, `hook --agent <id>`): every uncaught exception or rejection from now
 * on ends in the agent's block form [AG4]. Plain data here, since nothing else may have loaded: GitHub Copilot
 * ignores exit codes and reads only a JSON deny on stdout (exit 0); Cursor takes a JSON deny and exit 2; every
 * other agent blocks on exit 2 with the reason on stderr (engine/agents/ has the sources).
 */
function crashFailsClosed(agent = 'claude') {
  // Once per process: the package's CommonJS front (packageBin.cjs) installs it, then imports the ES module CLI,
  // whose own copy of this function (bin.ts) finds it there.
  const installed = Symbol.for('hookwire.crashFailsClosed');
  if (process[installed]) return;
  process[installed] = true;
  const failClosed = (err) => {
    const reason = `hookwire ${agent === 'claude' ? 'claude-hook' : `hook --agent ${agent}`}: internal error: ${err instanceof Error ? err.message : String(err)} (failing closed)`;
    let code = 2;
    try {
      if (agent === 'copilot') {
        code = 0;
        // Also in VS Code's form: VS Code runs Copilot's files and reads only hookSpecificOutput (engine/agents/copilot.ts).
        const deny = { permissionDecision: 'deny', permissionDecisionReason: reason };
        process.stdout.write(`${JSON.stringify({ ...deny, hookSpecificOutput: { hookEventName: 'PreToolUse', ...deny } })}\n`);
      } else if (agent === 'cursor') {
        process.stdout.write(`${JSON.stringify({ permission: 'deny', user_message: reason, agent_message: reason })}\n`);
      }
      process.stderr.write(`${reason}\n`);
    } finally {
      process.exit(code);
    }
  };
  process.on('uncaughtException', failClosed);
  process.on('unhandledRejection', failClosed);
}

module.exports = { crashFailsClosed };
