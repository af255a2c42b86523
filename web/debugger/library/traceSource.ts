import type { AgentLabel, TraceFormat } from '../../../engine/app.ts';

/** A format as a library row names it (the full name, from the engine, is in the row's title). */
const SHORT_FORMAT: Readonly<Record<TraceFormat, string>> = {
  'hookwire-trace': 'Hookwire trace',
  'claude-code': 'Claude Code',
  'codex-rollout': 'Codex CLI',
  'otel-genai': 'OpenTelemetry',
  'otlp-json': 'OTLP/JSON',
  'otel-spans-jsonl': 'OTel spans',
  'otel-console': 'OTel console',
  'swe-agent': 'SWE-agent',
  'mini-swe-agent': 'mini-swe-agent',
  openhands: 'OpenHands',
  'gemini-cli': 'Gemini CLI',
  cline: 'Cline / Roo Code',
  'copilot-cli': 'Copilot CLI',
  goose: 'goose',
  cursor: 'Cursor',
  specstory: 'SpecStory',
  aider: 'aider',
  opencode: 'OpenCode',
  'qwen-code': 'Qwen Code',
  'cline-ui': 'Cline UI log',
};

/** Where a trace came from, in the words of its library row: the agent, then the format. */
export interface TraceSource {
  /** The agent the recording names (the engine's recordingAgent), or null. */
  readonly agent: string | null;
  /** The format, or null when it says no more than the agent ("Cline / Roo Code" for a Roo Code task). */
  readonly format: string | null;
}

/**
 * The agent first: a row cut to the panel's width keeps it ("SpecStory from Cursor" lost "Cursor" in the 256 px
 * panel; "Cursor (SpecStory)" loses the format, which the row's title gives whole).
 * `traceSource('specstory', {id: 'cursor', name: 'Cursor'})` → `{agent: 'Cursor', format: 'SpecStory'}`.
 */
export function traceSource(format: TraceFormat, agent: AgentLabel | null): TraceSource {
  const short = SHORT_FORMAT[format];
  if (!agent) return { agent: null, format: short };
  return { agent: agent.name, format: short.includes(agent.name) ? null : short };
}

