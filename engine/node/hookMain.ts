// A hook call's own entry point: `hookwire claude-hook <pipeline> …` and `hookwire hook --agent <id> <pipeline> …`
// run once per tool call, so the binaries (bin.mjs, bin.ts) start them from here — node:util's parseArgs and
// the hook command — instead of the whole CLI (commander, every command's table). Anything it does not
// understand exactly (help, an unknown or malformed option, --server, a bad value) is the full CLI's to answer:
// null, and the binary runs the CLI, whose messages and exit codes stay the one authority.
import { parseArgs } from 'node:util';
import { isAgentId } from '../agents/types.ts';
import { agentAdapter } from '../runtime/agentHook.ts';
import { processIo, type Io } from './cliIo.ts';
import { agentHookCommand, claudeHookCommand, type ClaudeHookOptions } from './commands/claudeHookCommand.ts';
import { readStdin as readProcessStdin } from './readStdin.ts';

type Values = Partial<Record<'record' | 'audit' | 'timeout' | 'settings' | 'lock-timeout' | 'event' | 'agent', string>> & { 'allow-rewrites'?: boolean };

/** The options of a plain deciding hook call (argv after the command name); null: not one, the CLI answers. */
export function parseHookArgs(argv: string[], agentCall: boolean): { pipeline: string; agent: string; options: ClaudeHookOptions } | null {
  const s = { type: 'string' } as const;
  const options: Record<string, { type: 'string' } | { type: 'boolean' }> = { record: s, audit: s, timeout: s, settings: s, 'lock-timeout': s, 'allow-rewrites': { type: 'boolean' } };
  if (agentCall) Object.assign(options, { agent: s, event: s });
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true }) as { values: Values; positionals: string[] });
  } catch {
    return null;
  }
  if (positionals.length !== 1) return null;
  const agent = agentCall ? values.agent : 'claude';
  if (agent === undefined || !isAgentId(agent)) return null;
  const lock = values['lock-timeout'];
  const lockTimeoutMs = lock === undefined ? undefined : Number(lock);
  if (lockTimeoutMs !== undefined && !(lockTimeoutMs > 0)) return null;
  // The same option object the CLI hands over (cli.ts): absent options absent, the flag true only when given.
  const given = (o: Partial<ClaudeHookOptions>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as ClaudeHookOptions;
  return {
    pipeline: positionals[0]!,
    agent,
    options: given({
      record: values.record,
      audit: values.audit,
      allowRewrites: values['allow-rewrites'] ? true : agentCall ? false : undefined,
      timeout: values.timeout,
      settings: values.settings,
      ...(agentCall ? { event: values.event } : {}),
      ...(lockTimeoutMs ? { lockTimeoutMs } : {}),
    }),
  };
}

/** Runs one deciding hook call and returns its exit code; null: the full CLI must run instead. */
export async function hookMain(argv: string[], agentCall: boolean, io: Io = processIo, readStdin: () => Promise<string> = readProcessStdin): Promise<number | null> {
  const call = parseHookArgs(argv, agentCall);
  if (call === null) return null;
  if (!agentCall) return claudeHookCommand(call.pipeline, call.options, io, readStdin);
  const adapter = agentAdapter(call.agent as Parameters<typeof agentAdapter>[0]);
  try {
    return await agentHookCommand(adapter, call.pipeline, call.options, io, readStdin);
  } catch (err) {
    // As the CLI's hook action: every failure ends in the agent's block form [AG4].
    const a = adapter.failClosed(null, err instanceof Error ? err.message : String(err));
    if (a.stdout) io.out(a.stdout);
    if (a.stderr) io.err(a.stderr);
    return a.exitCode;
  }
}
