// `hookwire hook --agent <id> <pipeline.json>` and its alias `hookwire claude-hook` [P12][P13][AG4]: reads one
// hook input on stdin, dispatches it and answers the way that agent reads answers (engine/agents/ has each
// agent's contract and mapping; Claude Code's is engine/runtime/claudeHook.ts). Anything that stops it from
// deciding fails closed in the agent's own block form (Claude Code, Codex, Gemini, Windsurf: exit 2 with the
// reason on stderr; Copilot: a JSON deny on stdout; Cursor: both).
import { appendFileSync, truncateSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createReplayRun } from '../../replay/replaySteps.ts';
import { auditRecord, type AuditRecord } from '../../dispatch/records.ts';
import { recordedDecision } from '../../replay/recordedDecision.ts';
import type { JsonObject } from '../../model/json.ts';
import { defaultHookTimeoutSeconds } from '../../agents/claudeEvents.ts';
import type { AgentAdapter, NativeAnswer } from '../../agents/types.ts';
import { CLAUDE_ADAPTER } from '../../runtime/agentHook.ts';
import { isJsonObject, ownGet } from '../../model/json.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceHeader } from '../../trace/traceTypes.ts';
import { traceEventLine, traceHeaderLine } from '../../trace/traceToJsonl.ts';
import { CliError, fileErrorText, readUtf8, type Io } from '../cliIo.ts';
import { compilePipelineFile, type LoadedPipeline } from '../loadPipelineFile.ts';
// The recording's reader (its trace schema is zod) and lock (proper-lockfile) are loaded by calls that
// record, only: a plain hook call starts without them (test/bench/package.bench.ts).
const recordingFile = () => import('../serve/recordingFile.ts');
const recordingLock = () => import('../serve/recordingLock.ts');
const recordingAnchor = () => import('../serve/recordingAnchor.ts');
// So is where an audit file's chain ends (chainedFile.ts reads with node:fs/promises, which a plain call need not load).
const chainedFile = () => import('../chainedFile.ts');
import type { RecordingContents } from '../serve/recordingFile.ts';
import type { Fence } from '../serve/recordingLock.ts';
import type { Anchor } from '../serve/recordingAnchor.ts';
import { createChainWriter, describeChain, lineChainHash } from '../../trace/hashChain.ts';

export interface ClaudeHookOptions {
  /** Trace v1 file to append the session's events to; earlier events of the session restore its state [P13]. */
  record?: string;
  /** JSON Lines file to append audit records to. */
  audit?: string;
  /** Send a rewritten tool input with `allow` instead of `ask` (auto-approves rewritten calls). */
  allowRewrites?: boolean;
  /** The hook's `timeout` in seconds, as configured in Claude Code's settings; default: read from the settings. */
  timeout?: string;
  /** A settings file to read the hook's timeout from (default: the project's and the user's settings). */
  settings?: string;
  /** How long to wait for the recording's lock before failing closed (default: until the hook's deadline; 10 s with the file lock). */
  lockTimeoutMs?: number;
  /** The agent's event this call is, when its input does not say (Copilot's camelCase input). */
  event?: string;
}

type ClaudeHookAnswer = NativeAnswer;

/** Reads and compiles the pipeline at a path (a CliError when it cannot): the file's, unless the caller read it already. */
export type PipelineLoader = (path: string) => Promise<LoadedPipeline>;

/** Where the adapter looks for the hook's configured timeout, most specific first (Claude Code's settings files). */
function settingsFiles(options: ClaudeHookOptions, env: NodeJS.ProcessEnv): string[] {
  if (options.settings) return [options.settings];
  const project = env.CLAUDE_PROJECT_DIR ?? process.cwd();
  return [join(project, '.claude', 'settings.local.json'), join(project, '.claude', 'settings.json'), join(homedir(), '.claude', 'settings.json')];
}

/** The `timeout` (seconds) of this event's claude-hook command in a settings document, if it sets one. */
export function configuredTimeout(settings: unknown, hook: string): number | null {
  const hooks = isJsonObject(settings) ? ownGet(settings, 'hooks') : undefined;
  const groups = isJsonObject(hooks) ? ownGet(hooks, hook) : undefined;
  if (!Array.isArray(groups)) return null;
  for (const g of groups) {
    const list = isJsonObject(g) ? ownGet(g, 'hooks') : undefined;
    if (!Array.isArray(list)) continue;
    for (const h of list) {
      if (!isJsonObject(h)) continue;
      const command = [ownGet(h, 'command'), ...(Array.isArray(ownGet(h, 'args')) ? (ownGet(h, 'args') as unknown[]) : [])].join(' ');
      const t = ownGet(h, 'timeout');
      if (/claude-hook|hook --agent claude\b/.test(command) && typeof t === 'number' && t > 0) return t;
    }
  }
  return null;
}

/** The hook's timeout in seconds: the flag, else (Claude Code) the settings, else the agent's default for the event. */
async function hookTimeoutSeconds(adapter: AgentAdapter, hook: string, options: ClaudeHookOptions, env: NodeJS.ProcessEnv): Promise<number> {
  if (options.timeout !== undefined) return Number(options.timeout);
  if (adapter.contract.id !== 'claude') return adapter.contract.timeoutSeconds;
  for (const file of settingsFiles(options, env)) {
    const text = await readUtf8(file).catch(() => null);
    if (text === null) continue;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      continue;
    }
    const t = configuredTimeout(doc, hook);
    if (t !== null) return t;
  }
  return defaultHookTimeoutSeconds(hook);
}

/** When to answer, in ms after start: before Claude Code's own timeout, with a margin (10%, at least 100 ms, at most 2 s). */
export function answerDeadlineMs(timeoutSeconds: number): number {
  const ms = timeoutSeconds * 1000;
  return Math.max(50, ms - Math.min(2000, Math.max(100, ms * 0.1)));
}

/** One Claude Code hook call: {@link agentHookCommand} with Claude Code's contract. */
export function claudeHookCommand(...args: AgentHookArgs): Promise<number> {
  return agentHookCommand(CLAUDE_ADAPTER, ...args);
}

/** The arguments of a hook call after the agent's adapter. */
type AgentHookArgs = Parameters<typeof agentHookCommand> extends [AgentAdapter, ...infer Rest] ? Rest : never;

/** When a hook call's read of stdin must have ended (ms since the epoch), and the reason its fail-closed answer gives then. */
export interface StdinDeadline {
  at: number;
  reason: string;
}

/**
 * Reads the hook input. The call's deadline [P12] is a timer, which answers while a stream read waits. A reader
 * that blocks the thread (hookMain.ts's fast route) cannot be interrupted by it: it has `byDeadline`, which is
 * called instead, with the deadline, and ends its read there itself, throwing a CliError with the deadline's
 * reason (the same answer). A property, not an argument: plain readers take a byte limit as theirs.
 */
export interface StdinReader {
  (): Promise<string>;
  byDeadline?: (deadline: StdinDeadline) => Promise<string>;
}

/** One hook call of an agent [AG4]: the answer in the agent's form, its block form on every failure. */
export async function agentHookCommand(
  adapter: AgentAdapter,
  pipelinePath: string,
  options: ClaudeHookOptions,
  io: Io,
  readStdin: StdinReader,
  now: () => number = Date.now,
  env: NodeJS.ProcessEnv = process.env,
  loadPipeline: PipelineLoader = compilePipelineFile,
): Promise<number> {
  const failClosedAnswer = (hook: string | null, reason: string) => adapter.failClosed(hook, reason);
  if (options.timeout !== undefined && !(Number(options.timeout) > 0)) {
    const a = failClosedAnswer(null, `--timeout ${options.timeout} is not a number of seconds above 0`);
    if (a.stdout) io.out(a.stdout);
    if (a.stderr) io.err(a.stderr);
    return a.exitCode;
  }
  // [P12] answer before Claude Code's timeout: a slow load must end in the fail-closed answer, not in Claude
  // Code's timeout (a non-blocking error). The deadline starts at the flag's (or the longest default) and
  // tightens once the input names its event.
  const known: { hook: string | null } = { hook: null };
  // Once the deadline has answered, the call is over: the work still in flight stops before it waits for
  // the lock or appends (else a late append would record "allowed" for a call answered "blocked").
  const abandon = new AbortController();
  // Once its event is in the recording, the call's answer is bound to it: a deadline after that gives it.
  const bound: { answer: ClaudeHookAnswer | null } = { answer: null };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The deadline as the stdin reader is told it (a blocking reader ends its read there, with the timer's reason).
  let readBy: StdinDeadline | undefined;
  let fire: (a: ClaudeHookAnswer) => void = () => {};
  const late = new Promise<ClaudeHookAnswer>((resolve) => (fire = resolve));
  const started = now();
  const arm = (seconds: number) => {
    clearTimeout(timer);
    const wait = Math.max(0, answerDeadlineMs(seconds) - (now() - started));
    const reason = `no decision within ${answerDeadlineMs(seconds)} ms, before the hook's ${seconds} s timeout`;
    readBy = { at: Date.now() + wait, reason };
    timer = setTimeout(() => {
      if (bound.answer) return fire(bound.answer);
      abandon.abort(new CliError(reason));
      fire(failClosedAnswer(known.hook, reason));
    }, wait);
    timer.unref?.();
  };
  arm(options.timeout !== undefined ? Number(options.timeout) : adapter.contract.id === 'claude' ? defaultHookTimeoutSeconds('') : adapter.contract.timeoutSeconds);
  const onHook = async (hook: string) => {
    known.hook = hook;
    arm(await hookTimeoutSeconds(adapter, hook, options, env));
  };
  let answer: ClaudeHookAnswer;
  const read = () => (readStdin.byDeadline && readBy ? readStdin.byDeadline(readBy) : readStdin());
  const work = decide(adapter, pipelinePath, options, read, now, onHook, abandon.signal, (a) => (bound.answer = a), loadPipeline);
  // The abandoned work ends in the abort's error, which nobody waits for any more.
  work.catch(() => undefined);
  try {
    answer = await Promise.race([work, late]);
  } catch (err) {
    // Every failure, expected or not, must block: a crashed adapter must not read as "allow".
    answer = failClosedAnswer(known.hook, err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
  }
  if (answer.stdout) io.out(answer.stdout);
  if (answer.stderr) io.err(answer.stderr);
  return answer.exitCode;
}

async function decide(adapter: AgentAdapter, pipelinePath: string, options: ClaudeHookOptions, readStdin: () => Promise<string>, now: () => number, onHook: (hook: string) => Promise<void>, signal: AbortSignal, bind: (a: ClaudeHookAnswer) => void, loadPipeline: PipelineLoader): Promise<ClaudeHookAnswer> {
  const failClosed = (hook: string | null, reason: string) => adapter.failClosed(hook, reason);
  const text = await readStdin();
  if (text.trim() === '') return failClosed(null, 'no hook input on stdin');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    return failClosed(null, `stdin is not JSON: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`);
  }
  const named = adapter.hookName(input, options.event);
  if (typeof named === 'string') await onHook(named);
  let loaded: LoadedPipeline;
  try {
    loaded = await loadPipeline(pipelinePath);
  } catch (err) {
    return failClosed(typeof named === 'string' ? named : null, err instanceof CliError ? err.message : `cannot load ${pipelinePath}: ${String(err)}`);
  }
  try {
    // [P13] read → decide → append under the recording's lock, so parallel hook calls see each other's events.
    const work = (fence: Fence | null) => decideAndRecord(adapter, loaded, input, options, now, signal, bind, fence);
    if (!options.record) return await work(null);
    const { withRecordingLock } = await recordingLock();
    return await withRecordingLock(options.record, options.lockTimeoutMs, work, signal);
  } finally {
    loaded.dispose();
  }
}

async function decideAndRecord(adapter: AgentAdapter, loaded: LoadedPipeline, input: unknown, options: ClaudeHookOptions, now: () => number, signal: AbortSignal, bind: (a: ClaudeHookAnswer) => void, fence: Fence | null): Promise<ClaudeHookAnswer> {
  const failClosed = (hook: string | null, reason: string) => adapter.failClosed(hook, reason);
  const prior = options.record ? await readRecording(options.record) : null;
  // [K4] a recording whose hash chain is broken was changed after it was written (a removed TERMINATE or budget
  // count would let calls through): the call fails closed and names the line, as `hookwire verify` does.
  if (prior?.chain.status === 'broken' && !(await readmittedBreak(options.record!, prior))) {
    throw new CliError(`the recording ${options.record} was changed after it was written, so its session fails closed: ${describeChain(prior.chain)} (check it with hookwire verify; re-admit it deliberately with hookwire readmit ${options.record} --reason "…")`);
  }
  const ts = new Date(now()).toISOString();
  const sessionId = adapter.sessionId(input);
  const earlier = prior ? prior.events.filter((e) => e.trace_id === sessionId) : [];
  const mapped = adapter.parse(input, { ts, seq: earlier.length + 1 }, options.event);
  if (!mapped.ok) return failClosed(mapped.hook, mapped.reason);

  // [P13] The new event is the next step of replaying the session's recording: budgets, breakers, repeated
  // ids and TERMINATE carry over, and replaying the file later gives exactly these decisions.
  const run = createReplayRun(loaded.compiled, { explain: false });
  for (const e of earlier) run.push(e);
  const step = run.push(mapped.event);
  const result = { decision: step.decision, reason: step.reason, decided_by: step.decided_by, payload: step.payload_after, context: [...step.context] };
  const reply = adapter.reply(mapped.hook, mapped.event, result, { allowRewrites: options.allowRewrites === true });
  const audit: (AuditRecord | JsonObject)[] = step.duplicate ? [] : [...step.audit];
  if (step.mode === 'sync') audit.push(auditRecord(mapped.event, { ...result, state: step.state_after, errors: [...step.errors], audit: [...step.audit], mode: step.mode }, step.now));

  if (options.record) {
    const header: TraceHeader = prior?.header ?? newHeader(adapter, mapped.event.trace_id, loaded.pipeline.name, ts);
    // [P7][R15] the ASK's answer as the mapping gave it (Claude Code's prompt: deferred; no prompt: denied); the one
    // record shape, as hookwire serve records it: the deciding handler [R6], the code the wall-clock net stopped
    // [S14] (a later call rebuilding the state replays them as recorded), the pipeline file's version [R17].
    const recorded = recordedDecision(step, { approval: reply.approval, pipeline: loaded.version });
    const line = traceEventLine({ ...mapped.event, recorded }, header);
    // The recording's hash chain continues from its last line [K1][K3].
    const chain = createChainWriter(prior?.chain.tail ?? { kind: 'new' });
    const out = prior ? chain.prepare(line) : chain.prepare(traceHeaderLine(header), line);
    // A line the reader would not read back is refused before it is written [recordings].
    (await recordingFile()).checkLineLength(out.lines.at(-1)!);
    const anchors = await recordingAnchor();
    // The deadline answered while this was read and decided: the call is over, nothing is recorded.
    signal.throwIfAborted();
    // [P13] fenced: a call whose lock was taken over while it was starved writes nothing (two writers would tear the file).
    fence?.();
    appendRecording(options.record, out.text);
    // [K6] then the anchor, then the answer: an answered line that is cut off later is seen by the next call.
    const head = lineChainHash(out.lines.at(-1)!);
    if (head) writeAnchor(anchors, options.record, prior?.size ?? 0, { lines: (prior?.chain.lines ?? 0) + out.lines.length, bytes: (prior?.size ?? 0) + Buffer.byteLength(out.text, 'utf8'), head });
    bind(reply.answer);
  }
  if (options.audit && audit.length > 0) await appendAudit(options.audit, audit, signal, options.lockTimeoutMs);
  return reply.answer;
}

/**
 * Appends the call's audit records, continuing the audit file's hash chain [K1][K3]. Under the audit file's own
 * lock: hook calls of other sessions (other recordings, or none) append to the same audit file at once.
 */
async function appendAudit(path: string, records: (AuditRecord | JsonObject)[], signal: AbortSignal, lockTimeoutMs?: number): Promise<void> {
  const { withRecordingLock } = await recordingLock();
  const { RecordingError } = await recordingFile();
  await withRecordingLock(path, lockTimeoutMs, async (fence) => {
    const chain = createChainWriter(await (await chainedFile()).chainTailOfFile(path));
    const text = chain.prepare(...records.map((a) => `${JSON.stringify(a)}\n`)).text;
    fence();
    appendFileSync(path, text);
  }, signal).catch((err) => {
    throw new CliError(`cannot append to audit file ${path}: ${err instanceof RecordingError ? err.message : fileErrorText(err)}`);
  });
}

/** A new recording's header; the source says which agent sent the events (the debugger shows it) [AG4]. */
function newHeader(adapter: AgentAdapter, trace_id: string, pipeline: string, ts: string): TraceHeader {
  const id = adapter.contract.id;
  return { format: TRACE_FORMAT, version: TRACE_VERSION, trace_id, agent_id: adapter.contract.agentId, source: { kind: id === 'claude' ? 'claude-code-hook' : `${id}-hook`, pipeline, agent: id }, created: ts };
}

/**
 * The recording so far; null when the file does not exist yet or is empty. A torn last line is cut off; a file
 * that is not a clean trace (a bad or oversize line, binary data, not a regular file: a FIFO or a device would
 * block the read past the deadline) fails closed.
 */
async function readRecording(path: string): Promise<RecordingContents | null> {
  const file = await recordingFile();
  try {
    return await file.readRecording(path);
  } catch (err) {
    // [K6] answered lines are gone: refused until re-admitted, deliberately.
    const readmit = err instanceof file.IntegrityError ? `; re-admit it deliberately with hookwire readmit ${path} --reason "…"` : '';
    throw new CliError(`${err instanceof Error ? err.message : String(err)}${readmit}`);
  }
}

/** [K4] The chain's break was re-admitted with `hookwire readmit` (serve/integrity.ts, loaded only for a broken chain). */
async function readmittedBreak(path: string, prior: RecordingContents): Promise<boolean> {
  const { Integrity } = await import('../serve/integrity.ts');
  const integrity = Integrity.besideRecording(path);
  await integrity.start();
  return (await integrity.problem(path, prior.chain, true)) === null;
}

/**
 * Writes the recording's anchor after its append [K6], synchronously (nothing runs between the append, the anchor
 * and binding the answer). A failure fails the call closed and cuts the line back off (it is not answered as
 * recorded); were that cut to fail too, the line would stay past the anchor, where a later call keeps it.
 */
function writeAnchor(anchors: typeof import('../serve/recordingAnchor.ts'), path: string, before: number, anchor: Anchor): void {
  try {
    anchors.writeAnchor(path, anchor);
  } catch (err) {
    try {
      truncateSync(path, before);
    } catch {
      // Left past the anchor: see above.
    }
    throw new CliError(`cannot write the anchor of the recording ${path}: ${fileErrorText(err)}`);
  }
}

/**
 * Appends whole lines with one write (the caller holds the lock, so no other call writes in between).
 * Synchronous, so nothing runs between the lock's fence and the write.
 */
function appendRecording(path: string, text: string): void {
  try {
    appendFileSync(path, text, { mode: 0o600 });
  } catch (err) {
    throw new CliError(`cannot append to the recording ${path}: ${fileErrorText(err)}`);
  }
}
