// `hookwire claude-hook <pipeline.json>`: the Claude Code adapter [P12][P13]. Reads one hook input on stdin,
// dispatches it and answers the way Claude Code reads answers (engine/runtime/claudeHook.ts has the mapping and
// the sources). Anything that stops it from deciding fails closed: exit 2 with the reason on stderr.
import { appendFile } from 'node:fs/promises';
import { createReplayRun } from '../../replay/replaySteps.ts';
import { auditRecord, type AuditRecord } from '../../dispatch/records.ts';
import type { JsonObject } from '../../model/json.ts';
import { claudeHookAnswer, claudeHookEvent, claudeHookFailClosed, claudeSessionId, type ClaudeHookAnswer } from '../../runtime/claudeHook.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceEvent, type TraceHeader } from '../../trace/traceSchema.ts';
import { traceEventLine, traceHeaderLine } from '../../trace/traceToJsonl.ts';
import { CliError, fileErrorText, type Io } from '../cliIo.ts';
import { compilePipelineFile, type LoadedPipeline } from '../loadPipelineFile.ts';
import { checkLineLength, readRecording as readRecordingFile } from '../serve/recordingFile.ts';
import { DEFAULT_LOCK_TIMEOUT_MS, withRecordingLock } from '../serve/recordingLock.ts';

export interface ClaudeHookOptions {
  /** Trace v1 file to append the session's events to; earlier events of the session restore its state [P13]. */
  record?: string;
  /** JSON Lines file to append audit records to. */
  audit?: string;
  /** How long to wait for the recording's lock before failing closed (default 10 s). */
  lockTimeoutMs?: number;
}

/** Largest stdin read; a hook input is a few KB (tool_response can be larger). */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

export async function claudeHookCommand(pipelinePath: string, options: ClaudeHookOptions, io: Io, readStdin: () => Promise<string>, now: () => number = Date.now): Promise<number> {
  let answer: ClaudeHookAnswer;
  try {
    answer = await decide(pipelinePath, options, readStdin, now);
  } catch (err) {
    // Every failure, expected or not, must block: a crashed adapter must not read as "allow".
    answer = claudeHookFailClosed(err instanceof Error ? err.message : String(err));
  }
  if (answer.stdout) io.out(answer.stdout);
  if (answer.stderr) io.err(answer.stderr);
  return answer.exitCode;
}

async function decide(pipelinePath: string, options: ClaudeHookOptions, readStdin: () => Promise<string>, now: () => number): Promise<ClaudeHookAnswer> {
  const text = await readStdin();
  if (text.trim() === '') return claudeHookFailClosed('no hook input on stdin');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    return claudeHookFailClosed(`stdin is not JSON: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`);
  }
  let loaded: LoadedPipeline;
  try {
    loaded = await compilePipelineFile(pipelinePath);
  } catch (err) {
    return claudeHookFailClosed(err instanceof CliError ? err.message : `cannot load ${pipelinePath}: ${String(err)}`);
  }
  try {
    // [P13] read → decide → append under the recording's lock, so parallel hook calls see each other's events.
    const work = () => decideAndRecord(loaded, input, options, now);
    return options.record ? await withRecordingLock(options.record, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, work) : await work();
  } finally {
    loaded.dispose();
  }
}

async function decideAndRecord(loaded: LoadedPipeline, input: unknown, options: ClaudeHookOptions, now: () => number): Promise<ClaudeHookAnswer> {
  const prior = options.record ? await readRecording(options.record) : null;
  const ts = new Date(now()).toISOString();
  const sessionId = claudeSessionId(input);
  const earlier = prior ? prior.events.filter((e) => e.trace_id === sessionId) : [];
  const mapped = claudeHookEvent(input, { ts, seq: earlier.length + 1 });
  if (!mapped.ok) return claudeHookFailClosed(mapped.reason);

  // [P13] The new event is the next step of replaying the session's recording: budgets, breakers, repeated
  // ids and TERMINATE carry over, and replaying the file later gives exactly these decisions.
  const run = createReplayRun(loaded.compiled, { explain: false });
  for (const e of earlier) run.push(e);
  const step = run.push(mapped.event);
  const result = { decision: step.decision, reason: step.reason, decided_by: step.decided_by, payload: step.payload_after, blocked: step.blocked };
  const audit: (AuditRecord | JsonObject)[] = step.duplicate ? [] : [...step.audit];
  if (step.mode === 'sync') audit.push(auditRecord(mapped.event, { ...result, state: step.state_after, errors: [...step.errors], audit: [...step.audit], mode: step.mode }, step.now));

  if (options.record) {
    const header: TraceHeader = prior?.header ?? newHeader(mapped.event.trace_id, loaded.pipeline.name, ts);
    const recorded = result.reason ? { decision: result.decision, reason: result.reason } : { decision: result.decision };
    const line = traceEventLine({ ...mapped.event, recorded }, header);
    // A line the reader would not read back is refused before it is written [recordings].
    checkLineLength(line);
    await appendRecording(options.record, prior ? line : traceHeaderLine(header) + line);
  }
  if (options.audit && audit.length > 0) {
    await appendFile(options.audit, audit.map((a) => `${JSON.stringify(a)}\n`).join('')).catch((err) => {
      throw new CliError(`cannot append to audit file ${options.audit}: ${fileErrorText(err)}`);
    });
  }
  return claudeHookAnswer(mapped.hook, mapped.event, result);
}

function newHeader(trace_id: string, pipeline: string, ts: string): TraceHeader {
  return { format: TRACE_FORMAT, version: TRACE_VERSION, trace_id, agent_id: 'claude-code', source: { kind: 'claude-code-hook', pipeline }, created: ts };
}

/**
 * The recording so far; null when the file does not exist yet or is empty. A torn last line is cut off; a file
 * that is not a clean trace (a bad or oversize line, binary data, not a regular file) fails closed.
 */
async function readRecording(path: string): Promise<{ header: TraceHeader; events: TraceEvent[] } | null> {
  try {
    return await readRecordingFile(path);
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}

/** Appends whole lines with one write (the caller holds the lock, so no other call writes in between). */
async function appendRecording(path: string, text: string): Promise<void> {
  try {
    await appendFile(path, text, { mode: 0o600 });
  } catch (err) {
    throw new CliError(`cannot append to the recording ${path}: ${fileErrorText(err)}`);
  }
}
