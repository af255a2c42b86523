// The fail-closed answer of a Claude Code command hook whose event is not known [P12]: its input was not read, or
// the server did not answer it. A module of its own, without the Claude Code tables claudeHook.ts builds when it is
// loaded, because the forwarding command (one process per tool call) needs this answer and nothing else of them.
/**
 * `claudeHookFailClosed(reason)` with no event: exit 2, Claude Code's blocking error, with the reason on stderr.
 * @example claudeUnknownEventFailClosed('no answer') // { exitCode: 2, stdout: '', stderr: 'hookwire claude-hook: no answer (failing closed)\n' }
 */
export function claudeUnknownEventFailClosed(reason: string): { exitCode: 2; stdout: ''; stderr: string } {
  return { exitCode: 2, stdout: '', stderr: `hookwire claude-hook: ${reason} (failing closed)\n` };
}
