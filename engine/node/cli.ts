// The `hookwire` command line (engine/node/bin.cjs runs it). Argument parsing is commander's; each command's
// module is imported only when that command runs, so `--help` and small commands start fast.
import { useNativeSha256 } from './nativeSha256.ts';
import { Command, CommanderError, Option } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { TRACE_FORMATS } from '../trace/detectTraceFormat.ts';
import { CliError, EXIT, processIo, type Io } from './cliIo.ts';
import { readStdin as readStdinText } from './readStdin.ts';

const VERSION = pkg.version;

const AGENT_LIST = 'claude, codex, gemini, copilot, vscode, cursor, windsurf, qwen, factory, goose, kimi';

const fromOption = () => new Option('--from <format>', 'read the trace as this format instead of detecting it').choices(TRACE_FORMATS as string[]);

const EXIT_HELP = `
Exit codes: 0 done; 1 the check failed (invalid pipeline, failed test, differences, partial import);
2 the command could not run (bad arguments, missing or unreadable file, not JSON, wrong format, refused pipeline).`;

/** Builds the program; every action stores its exit code in `result.code`. */
export function buildProgram(io: Io, result: { code: number }, readStdin: () => Promise<string>): Command {
  const run = (f: () => Promise<number> | number) => async () => {
    result.code = await f();
  };
  const program = new Command('hookwire')
    .description('Run Hookwire pipelines outside the editor: validate, replay, diff, backtest, golden tests, import, Claude Code hooks, and the app (ui).')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .addHelpText('after', EXIT_HELP);

  /**
   * One agent hook call [AG4]: every error, expected or not, ends in the agent's own block form (Copilot reads
   * only a JSON deny on stdout; an exit code of 2 with a message would let its tool run).
   */
  const hookAction = async (agent: string, p: string | undefined, opts: Record<string, string | boolean | undefined>): Promise<number> => {
    const { isAgentId, isHookAgentId } = await import('../agents/types.ts');
    if (isAgentId(agent) && !isHookAgentId(agent)) throw new CliError(`--agent ${agent}: OpenCode has no command hooks; it runs Hookwire in process as a plugin (hookwire install --agent opencode writes it)`);
    if (!isHookAgentId(agent)) throw new CliError(`--agent ${agent} is not one of ${AGENT_LIST}`);
    const { agentAdapter } = await import('../runtime/agentHook.ts');
    const adapter = agentAdapter(agent);
    const say = (a: { exitCode: number; stdout: string; stderr: string }) => {
      if (a.stdout) io.out(a.stdout);
      if (a.stderr) io.err(a.stderr);
      return a.exitCode;
    };
    try {
      const str = (k: string) => (typeof opts[k] === 'string' ? (opts[k] as string) : undefined);
      if (opts.server !== undefined) {
        if (p !== undefined || opts.record !== undefined || opts.audit !== undefined) throw new CliError('--server forwards to the server, which has the pipeline and the recordings: give no pipeline, --record or --audit');
        const { byDeadline, forwardInput, processStart } = await import('./serve/forwardHook.ts');
        const timeoutMs = opts.deadline === undefined ? undefined : Number(opts.deadline);
        if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new CliError(`--deadline ${opts.deadline} must be a positive number of milliseconds`);
        // [P12] the deadline counts from the process's start and covers the read of stdin.
        return say(await forwardInput((at) => byDeadline(readStdin(), at), { startedAt: processStart(), server: str('server')!, tokenFile: str('tokenFile'), stateDir: str('stateDir'), agent: { id: agent, failClosed: adapter.failClosed }, ...(str('event') ? { event: str('event') } : {}), ...(timeoutMs ? { timeoutMs } : {}) }));
      }
      if (p === undefined) throw new CliError('give a pipeline file, or --server URL to forward to `hookwire serve`');
      const lockTimeoutMs = opts.lockTimeout === undefined ? undefined : Number(opts.lockTimeout);
      if (lockTimeoutMs !== undefined && !(lockTimeoutMs > 0)) throw new CliError(`--lock-timeout ${opts.lockTimeout} must be a positive number of milliseconds`);
      const options = {
        record: str('record'), audit: str('audit'), allowRewrites: opts.allowRewrites === true, timeout: str('timeout'), settings: str('settings'), event: str('event'),
        ...(lockTimeoutMs ? { lockTimeoutMs } : {}),
      };
      return await (await import('./commands/claudeHookCommand.ts')).agentHookCommand(adapter, p, options, io, readStdin);
    } catch (err) {
      return say(adapter.failClosed(null, err instanceof Error ? err.message : String(err)));
    }
  };

  program
    .command('validate')
    .description('check a pipeline file and print every problem with its JSON path (exit 1 on any error)')
    .argument('<pipeline>', 'pipeline JSON file (format "hookwire.pipeline")')
    .option('--json', 'print one JSON object {file, valid, errors, warnings, problems}')
    .action((path: string, opts: { json?: boolean }) => run(async () => (await import('./commands/validateCommand.ts')).validateCommand(path, opts, io))());

  program
    .command('replay')
    .description('replay a trace through a pipeline and print the decision of every event')
    .argument('<pipeline>', 'pipeline JSON file')
    .argument('<trace>', 'trace file: Hookwire trace v1, Claude Code transcript, OpenTelemetry GenAI spans, SWE-agent .traj or OpenHands events')
    .option('--json', 'one JSON object per event and line: {event_id, type, decision, reason, decided_by, payload}')
    .option('--check', 'compare every recorded decision with the replay, whichever pipeline version recorded it; exit 1 on any difference (by default only the decisions recorded by this pipeline file, or naming no version, are compared)')
    .option('--no-check', 'only replay: do not compare with the recorded decisions')
    .addOption(fromOption())
    .action((p: string, t: string, opts) => run(async () => (await import('./commands/replayCommand.ts')).replayCommand(p, t, opts, io))());

  program
    .command('diff')
    .description('replay a trace through two pipelines and print the events they decide differently (exit 1 when any)')
    .argument('<a>', 'first pipeline JSON file')
    .argument('<b>', 'second pipeline JSON file')
    .argument('<trace>', 'trace file in any importable format')
    .option('--json', 'one JSON object per differing event: {event_id, type, changes, a, b}')
    .addOption(fromOption())
    .action((a: string, b: string, t: string, opts) => run(async () => (await import('./commands/diffCommand.ts')).diffCommand(a, b, t, opts, io))());

  program
    .command('backtest')
    .description('replay every trace under the given files and folders through two pipelines and report the events they decide differently, by category (exit 1 per --fail-on)')
    .argument('<old>', 'the pipeline before the change, or none: no pipeline (every event continues), to try a first pipeline on sessions')
    .argument('<new>', 'the pipeline after the change')
    .argument('<traces...>', 'trace files in any importable format, or folders walked recursively (files no importer accepts are listed as skipped)')
    .option('--json', 'one JSON document: {files, skipped, total, unguarded, never_matched, never_sent} (schema: engine/schema/backtest.v1.schema.json)')
    .addOption(new Option('--fail-on <what>', 'exit 1 when any event changed, when any new block appears, or never').choices(['changed', 'new-blocks', 'none']).default('new-blocks'))
    .option('--report <file>', 'also write a report: .md (for a pull-request comment) or .html (one self-contained page)')
    .option('--workers <n>', 'worker threads (default: one per core when the input is large; 0 runs in one thread)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 64) throw new CliError(`--workers ${v}: expected a whole number from 0 to 64`);
      return n;
    })
    .addOption(new Option('--progress <when>', 'progress lines on stderr').choices(['auto', 'always', 'never']).default('auto'))
    .action((a: string, b: string, traces: string[], opts) => run(async () => (await import('./commands/backtestCommand.ts')).backtestCommand(a, b, traces, opts, io))());

  program
    .command('test')
    .description('golden decision tests: check the meta.expect of every event of trace v1 files (exit 1 on any failure)')
    .argument('<pipeline>', 'pipeline JSON file')
    .argument('<tests...>', 'trace v1 files, or directories searched for *.jsonl')
    .addHelpText('after', '\nAn event line is checked when its meta has "expect": {"decision": "block_action", "reason"?, "reason_includes"?, "decided_by"?, "payload"?}.\nmeta.expect is removed before the event is dispatched.')
    .action((p: string, tests: string[]) => run(async () => (await import('./commands/testCommand.ts')).testCommand(p, tests, io))());

  program
    .command('import')
    .description('convert a recording (any agent\'s session file or SQLite store as <db>#<session id>, OpenTelemetry, SWE-agent, OpenHands, …: docs/sessions.md, docs/formats.md) to trace v1 JSON Lines')
    .argument('<file>', 'the recording')
    .addOption(fromOption())
    .option('-o, --output <file>', 'write the trace to this file instead of stdout')
    .action((f: string, opts) => run(async () => (await import('./commands/importCommand.ts')).importCommand(f, opts, io))());

  program
    .command('sessions')
    .description("list the session files at each agent's default location (Claude Code, Codex, Gemini CLI, Cline, Roo Code, Copilot CLI, …): agent, date, size, events, path (read-only; see docs/sessions.md)")
    .option('--agent <id>', 'only this agent: claude-code, codex, gemini-cli, cline, roo-code')
    .option('--since <date>', 'only files changed since this date (e.g. 2026-03-01)')
    .option('--json', 'one JSON object per file {agent, path, size, modified, events, format, problems}')
    .action((opts) => run(async () => (await import('./commands/sessionsCommand.ts')).sessionsCommand(opts, io))());

  program
    .command('verify')
    .description("check a recording's or an audit log's hash chain: exit 0 when intact, 1 naming the first line that breaks it (docs/records.md)")
    .argument('<file>', 'a recording (trace v1) or an audit log (JSON Lines) written by Hookwire')
    .option('--json', 'print one JSON object {file, ok, status, lines, head, broken?}')
    .option('--allow-unchained', 'exit 0 for a file with no hash chain at all (written before Hookwire chained its records)')
    .action((f: string, opts) => run(async () => (await import('./commands/verifyCommand.ts')).verifyCommand(f, opts, io))());

  program
    .command('readmit')
    .description('take back a claude-hook --record recording refused for its integrity (lines cut off, a broken chain), as it now is, deliberately (docs/records.md)')
    .argument('<recording>', 'the recording that claude-hook --record (or hook --agent --record) refuses')
    .requiredOption('--reason <text>', 'why it is re-admitted; kept in <recording>.readmissions.jsonl with the overridden error')
    .action((f: string, opts: { reason?: string }) => run(async () => (await import('./commands/readmitCommand.ts')).readmitCommand(f, opts, io))());

  program
    .command('schema')
    .description('print the JSON Schema of the pipeline format')
    .option('--trace', 'print the JSON Schema of a trace v1 line instead')
    .action((opts: { trace?: boolean }) => run(async () => (await import('./commands/schemaCommand.ts')).schemaCommand(opts, io))());

  program
    .command('claude-hook')
    .description('Claude Code hook adapter: read one hook input on stdin, dispatch it, answer as Claude Code expects')
    .argument('[pipeline]', 'pipeline JSON file (not with --server)')
    .option('--record <trace>', 'append every event to this trace v1 file; earlier events of the session restore its state')
    .option('--audit <file>', 'append audit records to this JSON Lines file')
    .option('--allow-rewrites', 'send a rewritten tool input with "allow" (auto-approve) instead of "ask"')
    .option('--timeout <seconds>', "the hook's timeout as set in Claude Code's settings (default: read from the settings, else Claude Code's default)")
    .option('--settings <file>', 'read the hook timeout from this settings file instead of .claude/settings*.json and ~/.claude/settings.json')
    .option('--lock-timeout <ms>', 'with --record: fail closed when the recording stays locked by other hook calls this long (default: until the hook\'s deadline; 10000 with HOOKWIRE_RECORDING_LOCK=file)')
    .option('--server <url>', 'forward to a running `hookwire serve` (e.g. http://127.0.0.1:7347) instead of deciding here')
    .option('--token-file <file>', 'with --server: the file holding the token (default <state-dir>/token; HOOKWIRE_TOKEN wins)')
    .option('--state-dir <dir>', 'with --server: the server\'s state dir (default .hookwire)')
    .option('--deadline <ms>', 'with --server: fail closed when no answer comes within this many milliseconds of the start, the read of stdin included (default 5000)')
    .addHelpText('after', '\nFails closed: input it cannot read, a pipeline it cannot load, no decision before the hook\'s timeout, a server that\ndoes not answer within --deadline or any internal error → exit 2 with the reason on stderr (PermissionRequest: a deny\ndecision), which Claude Code treats as blocking. See docs/claude-code.md (in the package and the repository).')
    .action((p: string | undefined, opts) => run(async () => {
      if (opts.server !== undefined) {
        if (p !== undefined || opts.record !== undefined || opts.audit !== undefined) throw new CliError('--server forwards to the server, which has the pipeline and the recordings: give no pipeline, --record or --audit');
        const { byDeadline, forwardInput, processStart } = await import('./serve/forwardHook.ts');
        const timeoutMs = opts.deadline === undefined ? undefined : Number(opts.deadline);
        if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new CliError(`--deadline ${opts.deadline} must be a positive number of milliseconds`);
        const a = await forwardInput((at) => byDeadline(readStdin(), at), { startedAt: processStart(), server: opts.server, tokenFile: opts.tokenFile, stateDir: opts.stateDir, ...(timeoutMs ? { timeoutMs } : {}) });
        if (a.stdout) io.out(a.stdout);
        if (a.stderr) io.err(a.stderr);
        return a.exitCode;
      }
      if (p === undefined) throw new CliError('give a pipeline file, or --server URL to forward to `hookwire serve`');
      const lockTimeoutMs = opts.lockTimeout === undefined ? undefined : Number(opts.lockTimeout);
      if (lockTimeoutMs !== undefined && !(lockTimeoutMs > 0)) throw new CliError(`--lock-timeout ${opts.lockTimeout} must be a positive number of milliseconds`);
      const { lockTimeout: _l, server: _s, tokenFile: _t, stateDir: _d, deadline: _dl, ...rest } = opts;
      return (await import('./commands/claudeHookCommand.ts')).claudeHookCommand(p, { ...rest, ...(lockTimeoutMs ? { lockTimeoutMs } : {}) }, io, readStdin);
    })());

  program
    .command('hook')
    .description('one coding agent\'s hook call: read its native input on stdin, dispatch it, answer exactly as that agent documents (see docs/agents.md)')
    .requiredOption('--agent <id>', `the agent: ${AGENT_LIST}`)
    .argument('[pipeline]', 'pipeline JSON file (not with --server)')
    .option('--event <name>', 'the agent\'s hook event, for inputs that do not name it (GitHub Copilot\'s camelCase input)')
    .option('--record <trace>', 'append every event to this trace v1 file; earlier events of the session restore its state')
    .option('--audit <file>', 'append audit records to this JSON Lines file')
    .option('--allow-rewrites', 'send a rewritten tool input where the agent can only take it by approving the call (Claude Code, Codex, Copilot)')
    .option('--timeout <seconds>', "the hook's timeout as configured in the agent (default: the agent's default)")
    .option('--settings <file>', 'Claude Code: read the hook timeout from this settings file')
    .option('--lock-timeout <ms>', 'with --record: fail closed when the recording stays locked by other hook calls this long (default: until the hook\'s deadline; 10000 with HOOKWIRE_RECORDING_LOCK=file)')
    .option('--server <url>', 'forward to a running `hookwire serve` instead of deciding here')
    .option('--token-file <file>', 'with --server: the file holding the token (default <state-dir>/token; HOOKWIRE_TOKEN wins)')
    .option('--state-dir <dir>', 'with --server: the server\'s state dir (default .hookwire)')
    .option('--deadline <ms>', 'with --server: fail closed when no answer comes within this many milliseconds of the start, the read of stdin included (default 5000)')
    .addHelpText('after', '\nFails closed in the agent\'s own block form: input it cannot read, another agent\'s input, a pipeline it cannot load, no\ndecision before the hook\'s timeout, a server that does not answer, any internal error.')
    .action((p: string | undefined, opts) => run(async () => hookAction(opts.agent, p, opts))());

  program
    .command('install')
    .description("write (or print) a coding agent's own hook configuration for a pipeline, merged into the project's file, and print the loss report")
    .requiredOption('--agent <id>', `the agent: ${AGENT_LIST}, opencode (a plugin file)`)
    .requiredOption('--pipeline <file>', 'pipeline JSON file (the hooks name its absolute path)')
    .option('--dir <project>', 'the project directory (default: the current one)')
    .option('--serve <url>', 'route the hooks to a running `hookwire serve` (Claude Code: an http hook) instead of deciding in each hook')
    .option('--print', 'print the resulting file on stdout instead of writing it (the loss report goes to stderr)')
    .option('--strict', 'exit 1 when the loss report is not empty')
    .option('--bin <command>', 'how the hooks run hookwire (default: hookwire)')
    .addHelpText('after', '\nAn existing file keeps every other hook and is backed up when it changes; a file that is not JSON is refused and left\nas it was; a second install changes nothing. OpenCode gets a plugin file (.opencode/plugins/hookwire.js); one there\nthat Hookwire did not write is refused and kept. See docs/agents.md.')
    .action((opts) => run(async () => (await import('./commands/installCommand.ts')).installCommand(opts, io))());

  program
    .command('agents')
    .description('list the coding agents: id, the contract version or date read, and their hook events')
    .option('--json', 'print the contracts as JSON (events and the channel of each outcome)')
    .action((opts: { json?: boolean }) => run(async () => (await import('./commands/installCommand.ts')).agentsCommand(opts, io))());

  program
    .command('serve')
    .description('run a decision server on 127.0.0.1: Claude Code http hooks, a JSON API for any agent, a live stream for the debugger')
    .argument('<pipeline>', 'pipeline JSON file (reloaded when it changes; a bad file keeps the old one)')
    .option('--port <port>', 'port on 127.0.0.1 (0: any free port)', '7347')
    .option('--host <host>', 'loopback address to bind: 127.0.0.1, ::1 or localhost', '127.0.0.1')
    .option('--state-dir <dir>', 'where the token, the pipelines and the recordings live', '.hookwire')
    .addOption(new Option('--flush <policy>', 'write: each line is written before its answer (survives kill -9); fsync: also fdatasync (survives power loss)').choices(['write', 'fsync']).default('write'))
    .option('--max-body <bytes>', 'largest request body', String(1024 * 1024))
    .option('--allow-origin <origin...>', 'browser origins allowed to call the server (the debugger, e.g. http://127.0.0.1:4173)')
    .option('--no-watch', 'do not reload the pipeline file when it changes')
    .option('--allow-rewrites', 'Claude Code: send a rewritten tool input with "allow" (auto-approve) instead of "ask"')
    .option('--idle-timeout <seconds>', 'a session with no event for this long leaves memory (it comes back from its recording)', '900')
    .option('--max-sessions <n>', 'live sessions at most; one more is answered 503', '10000')
    .option('--max-streams <n>', 'live-stream (SSE) clients at most; one more is answered 503', '32')
    .addHelpText('after', '\nEvery request needs Authorization: Bearer <token>; the token is printed once at start and written to <state-dir>/token (0600).\nEndpoints: GET /openapi.json. See docs/serve.md (in the package and the repository).')
    .action((p: string, opts) => run(async () => (await import('./serve/serveCommand.ts')).serveCommand(p, opts, io))());

  program
    .command('ui')
    .description('serve the app from the package on 127.0.0.1 and open the given pipeline and traces in it (the debugger, when there are traces)')
    .argument('[files...]', 'a pipeline JSON file, then trace files in any importable format')
    .option('--port <n>', 'port on 127.0.0.1 (default 4310; 0 picks a free one)')
    .option('--open', 'open the address in the default browser')
    .option('--live <server>', 'attach the debugger to a running `hookwire serve` (e.g. http://127.0.0.1:7347)')
    .option('--state-dir <dir>', 'with --live: the server\'s state dir, for its token (default .hookwire; HOOKWIRE_TOKEN wins)')
    .addHelpText('after', '\nRuns until Ctrl+C. The files are handed to the app only with the token in the printed address.')
    .action((files: string[], opts) => run(async () => (await import('./commands/uiCommand.ts')).uiCommand(files, opts, io))());

  return program;
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit code. Never throws. */
export async function main(argv: string[], io: Io = processIo, readStdin: () => Promise<string> = readStdinText): Promise<number> {
  // Commands that read or write traces chain and check every line: node:crypto's SHA-256, the same digests.
  useNativeSha256();
  const result = { code: EXIT.ok as number };
  const program = buildProgram(io, result, readStdin);
  try {
    await program.parseAsync(argv);
    return result.code;
  } catch (err) {
    const command = argv[2] ?? '';
    if (command === 'hook' && !(err instanceof CommanderError && err.exitCode === 0)) {
      // [AG4] a usage error of an agent's hook call still answers in the agent's block form.
      const closed = await hookUsageFailClosed(argv, err instanceof Error ? err.message : String(err));
      if (closed) {
        if (closed.stdout) io.out(closed.stdout);
        if (closed.stderr) io.err(closed.stderr);
        return closed.exitCode;
      }
    }
    if (err instanceof CommanderError) {
      // Help and version end with code 0; a usage error is "could not run" [P9].
      return err.exitCode === 0 ? EXIT.ok : EXIT.cannotRun;
    }
    if (err instanceof CliError) {
      io.err(`hookwire ${command}: ${err.message}\n`);
      return err.exitCode;
    }
    io.err(`hookwire ${command}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.cannotRun;
  }
}

/** The block form of the agent named by `--agent` in argv, for a call that could not even be parsed; null: no known agent. */
async function hookUsageFailClosed(argv: string[], reason: string): Promise<{ exitCode: number; stdout: string; stderr: string } | null> {
  const i = argv.findIndex((a) => a === '--agent' || a.startsWith('--agent='));
  const agent = i < 0 ? undefined : argv[i]!.startsWith('--agent=') ? argv[i]!.slice('--agent='.length) : argv[i + 1];
  const { isHookAgentId } = await import('../agents/types.ts');
  if (agent === undefined || !isHookAgentId(agent)) return null;
  const { agentAdapter } = await import('../runtime/agentHook.ts');
  return agentAdapter(agent).failClosed(null, reason.replace(/^error: /, ''));
}
