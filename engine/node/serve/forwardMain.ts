// The forwarding command's own entry point: `hookwire claude-hook --server URL` runs for every tool call, so
// bin.cjs starts it from a small bundle of its own (its options, node:net and the fail-closed
// answer) instead of the whole CLI. Anything it does not understand goes to the full CLI (null).
import { forwardInput, processStart } from './forwardHook.ts';
import { claudeUnknownEventFailClosed as claudeHookFailClosed } from '../../runtime/claudeUnknownEventFailClosed.ts';
import { isHookAgentId, type HookAgentId } from '../../agents/types.ts';
import { readStdinBlocking } from '../readStdinBlocking.ts';
import { MAX_STDIN_BYTES } from '../readStdin.ts';
import { parseLongOptions, type LongOptions } from '../parseLongOptions.ts';

const FORWARD_OPTIONS: LongOptions = { server: 'string', 'token-file': 'string', 'state-dir': 'string', deadline: 'string' };
const FORWARD_AGENT_OPTIONS: LongOptions = { ...FORWARD_OPTIONS, agent: 'string' };

/** Runs `claude-hook --server …` or `hook --agent <id> --server …` (argv after the command name); null: not a plain forwarding call. */
export async function forwardMain(argv: string[], agentCall = false): Promise<number | null> {
  // Not node:util's parseArgs: its modules cost a forwarded call ~1 ms (parseLongOptions.ts says why it is enough).
  const parsed = parseLongOptions(argv, agentCall ? FORWARD_AGENT_OPTIONS : FORWARD_OPTIONS, false);
  if (parsed === null) return null;
  const values = parsed.values as { server?: string; 'token-file'?: string; 'state-dir'?: string; deadline?: string; agent?: string };
  const timeoutMs = values.deadline === undefined ? undefined : Number(values.deadline);
  if (values.server === undefined || (timeoutMs !== undefined && !(timeoutMs > 0))) return null;
  if (agentCall && (values.agent === undefined || !isHookAgentId(values.agent))) return null;
  // Every agent's adapter is built only for `hook --agent` (inside the bundle, not run for claude-hook: ~4 ms of
  // a forwarded call's CPU). A failure to load it is an error of the call, which fails closed [P12].
  const adapter = agentCall ? (await import('../../runtime/agentHook.ts')).agentAdapter(values.agent as HookAgentId) : null;
  const failClosed = (reason: string) => (adapter ? adapter.failClosed(null, reason) : claudeHookFailClosed(reason));
  let answer;
  try {
    // [P12] one deadline from the process's start: a stdin that never ends is answered fail-closed within it too.
    const startedAt = processStart();
    answer = await forwardInput((deadlineAt) => readStdinBlocking(MAX_STDIN_BYTES, deadlineAt), { server: values.server, tokenFile: values['token-file'], stateDir: values['state-dir'], ...(adapter ? { agent: { id: adapter.contract.id, failClosed: adapter.failClosed } } : {}), startedAt, ...(timeoutMs ? { timeoutMs } : {}) });
  } catch (err) {
    answer = failClosed(err instanceof Error ? err.message : String(err));
  }
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  return answer.exitCode;
}
