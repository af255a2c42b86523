import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRuntime, type AuditRecord, type EmitResult, type PipelineInput, type RuntimeOptions, type RuntimeTrace } from '../../../engine/index.ts';

/**
 * The scenario every adapter test plays, with each framework's own offline test model:
 * 1. the model calls `delete_file` (destructive): the pipeline blocks it; the tool never runs and the model
 *    reads Hookwire's message as the tool result;
 * 2. the model calls `read_file {path: "/etc/passwd"}`: the pipeline rewrites the path; the tool returns text with
 *    an API key, which the pipeline redacts before the model sees it (keys in a model's answer are redacted too);
 * 3. the model spends 500 output tokens and asks for `send_email`: the token budget (100) terminates the run;
 *    `send_email` never runs.
 */
export const SECRET = 'sk-live-0123456789abcdefghijklmnop';
export const REWRITTEN_PATH = '/workspace/README.md';

export const PIPELINE: PipelineInput = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'adapter scenario',
  nodes: [
    { id: 'ev-tool-before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'ev-tool-after', kind: 'event', pattern: 'tool.after_call' },
    { id: 'ev-model-after', kind: 'event', pattern: 'model.after_call' },
    { id: 'm-destructive', kind: 'matcher', when: { 'payload.tool_name': { in: ['delete_file', 'run_shell'] } } },
    { id: 'm-etc', kind: 'matcher', when: { 'payload.tool_input.path': { prefix: '/etc' } } },
    { id: 'h-block', kind: 'handler', name: 'no destructive tools', order: 10, action: { type: 'block', reason: 'destructive tool {{payload.tool_name}}' } },
    { id: 'h-jail', kind: 'handler', name: 'keep reads in the workspace', order: 20, action: { type: 'rewrite', ops: [{ op: 'set', path: 'payload.tool_input.path', value: REWRITTEN_PATH }] } },
    { id: 'h-redact', kind: 'handler', name: 'redact keys', order: 30, action: { type: 'rewrite', ops: [{ op: 'redact', pattern: 'sk-[A-Za-z0-9-]{20,}', replacement: '[REDACTED]' }] } },
    { id: 'h-budget', kind: 'handler', name: 'token budget', order: 40, action: { type: 'budget', key: 'tokens', amount_path: 'payload.usage.output_tokens', limit: 100, on_exceed: 'terminate', reason: 'token budget of 100 spent' } },
  ],
  wires: [
    { from: 'ev-tool-before', to: 'm-destructive' },
    { from: 'm-destructive', to: 'h-block' },
    { from: 'ev-tool-before', to: 'm-etc' },
    { from: 'm-etc', to: 'h-jail' },
    { from: 'ev-tool-after', to: 'h-redact' },
    { from: 'ev-model-after', to: 'h-redact' },
    { from: 'ev-model-after', to: 'h-budget' },
  ],
};

/** A second pipeline: keys in what goes to the model are redacted; sending mail terminates the run. */
export const GATE_PIPELINE: PipelineInput = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'prompt and mail gate',
  nodes: [
    { id: 'ev-model-before', kind: 'event', pattern: 'model.before_call' },
    { id: 'ev-tool-before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'm-mail', kind: 'matcher', tools: ['send_email'] },
    { id: 'h-redact-prompt', kind: 'handler', name: 'redact keys in prompts', order: 10, action: { type: 'rewrite', ops: [{ op: 'redact', pattern: 'sk-[A-Za-z0-9-]{20,}', replacement: '[KEY]' }] } },
    { id: 'h-no-mail', kind: 'handler', name: 'no mail', order: 20, action: { type: 'terminate', reason: 'mail is not allowed' } },
  ],
  wires: [
    { from: 'ev-model-before', to: 'h-redact-prompt' },
    { from: 'ev-tool-before', to: 'm-mail' },
    { from: 'm-mail', to: 'h-no-mail' },
  ],
};

/** What the scenario's tools saw: a blocked tool is never in `calls`. */
export function scenarioTools() {
  const calls: { tool: string; input: unknown }[] = [];
  return {
    calls,
    delete_file: (input: unknown) => {
      calls.push({ tool: 'delete_file', input });
      return 'deleted';
    },
    read_file: (input: unknown) => {
      calls.push({ tool: 'read_file', input });
      return `contents of ${(input as { path?: string }).path}: OPENAI_API_KEY=${SECRET}`;
    },
    send_email: (input: unknown) => {
      calls.push({ tool: 'send_email', input });
      return 'sent';
    },
  };
}

export interface Live {
  trace: RuntimeTrace;
  pipeline: PipelineInput;
  /** One audit record per dispatched sync event. */
  audit: AuditRecord[];
  /** What every emit returned to the adapter (the decision each hook point acted on), with the event type. */
  results: (EmitResult & { type: string })[];
  /** The recording's JSON Lines (trace v1). */
  lines: string[];
}

export function startLive(options: RuntimeOptions = {}, traceId = 'adapter-trace', pipeline: PipelineInput = PIPELINE): Live {
  const audit: AuditRecord[] = [];
  const lines: string[] = [];
  let t = Date.parse('2026-12-01T10:00:00.000Z');
  const r = createRuntime(pipeline, { clock: { now: () => (t += 1000) }, sinks: { audit: (a) => void audit.push(a) }, ...options });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const trace = r.runtime.startTrace({ trace_id: traceId, record: (line) => void lines.push(line) });
  // Watch what the adapter gets: guard() and guardTool() emit through the trace's own `emit` / `emitAsync`.
  const results: Live['results'] = [];
  const emit = trace.emit;
  trace.emit = (type, payload, options) => {
    const res = emit(type, payload, options);
    results.push({ ...res, type });
    return res;
  };
  const emitAsync = trace.emitAsync;
  trace.emitAsync = async (type, payload, options) => {
    const res = await emitAsync(type, payload, options);
    results.push({ ...res, type });
    return res;
  };
  return { trace, pipeline, audit, lines, results };
}

export interface ReplayLine {
  event_id: string;
  type: string;
  decision: string;
  reason: string;
  decided_by: string | null;
  payload: Record<string, unknown>;
}

const run = promisify(execFile);

/** `hookwire replay --json` on the recording, as a user runs it (a subprocess of the CLI). */
export async function replayWithCli(live: Live): Promise<ReplayLine[]> {
  await live.trace.flush();
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-adapter-'));
  writeFileSync(join(dir, 'pipeline.json'), JSON.stringify(live.pipeline));
  writeFileSync(join(dir, 'trace.jsonl'), live.lines.join(''));
  const bin = join(__dirname, '..', '..', '..', 'engine', 'node', 'bin.mjs');
  const { stdout } = await run(process.execPath, [bin, 'replay', '--json', join(dir, 'pipeline.json'), join(dir, 'trace.jsonl')]);
  return stdout.trim().split('\n').map((l) => JSON.parse(l) as ReplayLine);
}

/** `hookwire replay --check` on recording lines (the table and the check's report), with its exit code. */
export async function replayCheckWithCli(pipeline: PipelineInput, lines: string[]): Promise<{ code: number; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-adapter-'));
  writeFileSync(join(dir, 'pipeline.json'), JSON.stringify(pipeline));
  writeFileSync(join(dir, 'trace.jsonl'), lines.join(''));
  const bin = join(__dirname, '..', '..', '..', 'engine', 'node', 'bin.mjs');
  try {
    const { stdout } = await run(process.execPath, [bin, 'replay', '--check', join(dir, 'pipeline.json'), join(dir, 'trace.jsonl')]);
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout ?? '' };
  }
}

/** The live decisions of the sync events, as the CLI prints them. */
export function liveDecisions(live: Live) {
  return live.results.map((r) => ({ event_id: r.event_id, type: r.type, decision: r.decision, reason: r.reason, decided_by: r.decided_by }));
}

export function replayedDecisions(lines: ReplayLine[]) {
  return lines.map(({ event_id, type, decision, reason, decided_by }) => ({ event_id, type, decision, reason, decided_by }));
}
