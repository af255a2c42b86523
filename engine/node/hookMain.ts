// A hook call's own entry point: `hookwire claude-hook <pipeline> …` and `hookwire hook --agent <id> <pipeline> …`
// run once per tool call, so the binaries (bin.cjs, bin.ts) start them from here — parseLongOptions and the
// hook command — instead of the whole CLI (commander, every command's table). Anything it does not
// understand exactly (help, an unknown or malformed option, --server, a bad value) is the full CLI's to answer:
// null, and the binary runs the CLI, whose messages and exit codes stay the one authority.
import { readFileSync } from 'node:fs';
import { isHookAgentId } from '../agents/types.ts';
import { hasCode } from '../model/codeNodes.ts';
import { agentAdapter } from '../runtime/agentHook.ts';
import { processIo, withoutBom, type Io } from './cliIo.ts';
import { agentHookCommand, type ClaudeHookOptions, type PipelineLoader, type StdinDeadline, type StdinReader } from './commands/claudeHookCommand.ts';
import { compilePipelineText } from './loadPipelineFile.ts';
import { cachedEntry, pipelineCache } from './pipelineCache.ts';
import { MAX_STDIN_BYTES, readStdin as readProcessStdin } from './readStdin.ts';
import { readStdinBlocking } from './readStdinBlocking.ts';
import { parseLongOptions, type LongOptions } from './parseLongOptions.ts';

type Values = Partial<Record<'record' | 'audit' | 'timeout' | 'settings' | 'lock-timeout' | 'event' | 'agent', string>> & { 'allow-rewrites'?: boolean };

const HOOK_OPTIONS: LongOptions = { record: 'string', audit: 'string', timeout: 'string', settings: 'string', 'lock-timeout': 'string', 'allow-rewrites': 'boolean' };
const AGENT_HOOK_OPTIONS: LongOptions = { ...HOOK_OPTIONS, agent: 'string', event: 'string' };

/** The options of a plain deciding hook call (argv after the command name); null: not one, the CLI answers. */
export function parseHookArgs(argv: string[], agentCall: boolean): { pipeline: string; agent: string; options: ClaudeHookOptions } | null {
  // Not node:util's parseArgs: its modules cost a call ~1 ms (parseLongOptions.ts says why it is enough).
  const parsed = parseLongOptions(argv, agentCall ? AGENT_HOOK_OPTIONS : HOOK_OPTIONS, true);
  if (parsed === null) return null;
  const values = parsed.values as Values;
  const positionals = parsed.positionals;
  if (positionals.length !== 1) return null;
  const agent = agentCall ? values.agent : 'claude';
  if (agent === undefined || !isHookAgentId(agent)) return null;
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
  return call === null ? null : runHookCall(call, agentCall, io, readStdin);
}

/**
 * The fast route's stdin: read(2)s outside the event loop (readStdinBlocking.ts), which end at the call's deadline
 * with the deadline's own reason, ~5 ms of CPU less than process.stdin's stream on Node 20 (docs/speed.md). On
 * Windows, where such a read has no deadline, the stream.
 */
const readFastStdin: StdinReader = Object.assign(() => readProcessStdin(), {
  byDeadline: (d: StdinDeadline) => (process.platform === 'win32' ? readProcessStdin() : readStdinBlocking(MAX_STDIN_BYTES, d.at, d.reason)),
});

/**
 * The same call on the fast route: the checkout's binary (bin.cjs) runs this from a CommonJS bundle that V8
 * compiles from its code cache (Node 20 has no compile cache for ES modules), a bundle without the parts a
 * hook call loads lazily (zod, QuickJS, the recording's reader and lock). So it takes only the calls that need
 * none of them: no --record or --audit, and a pipeline file whose validated document the pipeline cache holds
 * [pipelineCache.ts] and that has no code nodes. Any other call is null, decided before stdin is read, and the
 * binary runs `hookMain` from the ES module bundle. The pipeline's text is read once, here: the compile uses the
 * same text and cache entry, so no change to either file between the check and the compile needs the lazy parts.
 */
export async function hookFastMain(argv: string[], agentCall: boolean, io: Io = processIo, readStdin: StdinReader = readFastStdin): Promise<number | null> {
  const call = parseHookArgs(argv, agentCall);
  if (call === null || call.options.record !== undefined || call.options.audit !== undefined) return null;
  let text: string;
  try {
    text = withoutBom(readFileSync(call.pipeline, 'utf8'));
  } catch {
    return null; // the ES module route reads it again and says what is wrong
  }
  const hit = cachedEntry(text, pipelineCache());
  if (hit === null || hasCode(hit.doc)) return null;
  return runHookCall(call, agentCall, io, readStdin, (path) => compilePipelineText(text, path, hit));
}

async function runHookCall(call: NonNullable<ReturnType<typeof parseHookArgs>>, agentCall: boolean, io: Io, readStdin: StdinReader, load?: PipelineLoader): Promise<number> {
  const adapter = agentAdapter(call.agent as Parameters<typeof agentAdapter>[0]);
  if (!agentCall) return agentHookCommand(adapter, call.pipeline, call.options, io, readStdin, undefined, undefined, load);
  try {
    return await agentHookCommand(adapter, call.pipeline, call.options, io, readStdin, undefined, undefined, load);
  } catch (err) {
    // As the CLI's hook action: every failure ends in the agent's block form [AG4].
    const a = adapter.failClosed(null, err instanceof Error ? err.message : String(err));
    if (a.stdout) io.out(a.stdout);
    if (a.stderr) io.err(a.stderr);
    return a.exitCode;
  }
}
