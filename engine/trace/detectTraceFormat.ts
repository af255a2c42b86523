import { looksBinary } from './looksBinary.ts';

/** The formats Hookwire reads: its own trace v1 and the importers' sources. */
export type TraceFormat =
  | 'hookwire-trace'
  | 'claude-code'
  | 'codex-rollout'
  | 'otel-genai'
  | 'otlp-json'
  | 'otel-spans-jsonl'
  | 'otel-console'
  | 'swe-agent'
  | 'mini-swe-agent'
  | 'openhands'
  | 'gemini-cli'
  | 'cline'
  | 'copilot-cli'
  | 'specstory'
  | 'aider'
  | 'opencode'
  | 'qwen-code'
  | 'cline-ui'
  | 'goose'
  | 'cursor';

export const TRACE_FORMATS: readonly TraceFormat[] = [
  'hookwire-trace', 'claude-code', 'codex-rollout', 'otel-genai', 'otlp-json', 'otel-spans-jsonl', 'otel-console', 'swe-agent', 'mini-swe-agent', 'openhands',
  'gemini-cli', 'cline', 'copilot-cli', 'specstory', 'aider', 'opencode', 'qwen-code', 'cline-ui', 'goose', 'cursor',
];

/** Names for people, used in messages and the UI. */
export const TRACE_FORMAT_LABELS: Readonly<Record<TraceFormat, string>> = {
  'hookwire-trace': 'Hookwire trace v1 (JSON Lines)',
  'claude-code': 'Claude Code session transcript (JSONL)',
  'codex-rollout': 'Codex CLI session rollout (JSONL)',
  'otel-genai': 'OpenTelemetry GenAI spans (any-agent JSON: {"spans": [...]} or a span array)',
  'otlp-json': 'OpenTelemetry OTLP/JSON (resourceSpans, as the collector file exporter writes)',
  'otel-spans-jsonl': 'OpenTelemetry spans, one per line (JSON Lines)',
  'otel-console': 'OpenTelemetry SDK console exporter output (one JSON span after another)',
  'swe-agent': 'SWE-agent trajectory (.traj)',
  'mini-swe-agent': 'mini-swe-agent trajectory (.traj.json)',
  openhands: 'OpenHands event stream (JSON)',
  'gemini-cli': 'Gemini CLI chat recording (session-*.jsonl, or the older session-*.json)',
  cline: 'Cline / Roo Code task history (api_conversation_history.json)',
  'copilot-cli': 'GitHub Copilot CLI session events (session-state/<id>/events.jsonl)',
  'cline-ui': 'Cline / Roo Code UI messages (ui_messages.json)',
  'qwen-code': 'Qwen Code chat recording (JSONL: Claude Code-like records with Gemini parts)',
  opencode: 'OpenCode session (opencode export, or storage/session/<project>/<id>.json)',
  aider: 'aider chat history (.aider.chat.history.md)',
  goose: 'goose session (sessions/<name>.jsonl, goose session export, or a session of sessions.db)',
  cursor: 'Cursor chat (one composer of Cursor\'s state.vscdb, as state.vscdb#<composer id>)',
  specstory: 'SpecStory Markdown export (Cursor and other agents\' chats, .specstory/history/*.md)',
};

/**
 * Why detection decided as it did, as a code callers branch on (never the English text):
 * `content` and `file_name` found a format; the others did not.
 */
/** `pipeline`: the input is a Hookwire pipeline document, not a recorded run (someone opened the wrong file). */
export type DetectionCode = 'content' | 'file_name' | 'empty' | 'binary' | 'pipeline' | 'unknown_format';

export interface FormatDetection {
  format: TraceFormat | null;
  /** What decided: the content, only the file name (content unclear), or nothing. */
  by: 'content' | 'file_name' | null;
  code: DetectionCode;
  /** Why, in words: shown when the format is not recognised. */
  reason: string;
}

/** How much of the input detection looks at; callers may pass more, the rest is ignored. */
export const DETECT_SAMPLE_CHARS = 64 * 1024;

const CLAUDE_TYPE = /"type"\s*:\s*"(user|assistant|system|progress|summary|file-history-snapshot|queue-operation|attachment)"/;
const CLAUDE_IDS = /"(sessionId|uuid|messageId|leafUuid|parentUuid)"\s*:/;
const OPENHANDS_SOURCE = /"source"\s*:\s*"(user|agent|environment)"/;
const OPENHANDS_KIND = /"(action|observation)"\s*:\s*"/;
const FIRST_KEY = /^\{\s*"([^"\\]{1,100})"\s*:/;
/** A pipeline document: `"format": "hookwire.pipeline"` among the first keys (after `$schema`, say). */
const PIPELINE_DOC = /^\{(?:\s*"(?:[^"\\]|\\.)*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[\d.eE+-]+|true|false|null)\s*,)*\s*"format"\s*:\s*"hookwire\.pipeline"/;
const GEMINI_META = /^\{\s*"sessionId"\s*:\s*"/;
/** Copilot CLI event kinds (github/copilot-sdk session-events.ts, v1.0.9): dotted names such as `session.start`. */
const COPILOT_TYPE = /"type"\s*:\s*"((session|user|assistant|tool|subagent|hook|skill|system|permission)\.[a-z_.]+|abort)"/;
const QWEN_TYPE = /"type"\s*:\s*"(user|assistant|system|tool_result)"/;
/** Gemini-style content in a record: `"message": {"role": "user" | "model", "parts": [` or a `tool_result` record. */
const QWEN_MARK = /"message"\s*:\s*\{\s*"role"\s*:\s*"(user|model)"\s*,\s*"parts"\s*:\s*\[|"type"\s*:\s*"tool_result"/;
/** goose: a message line `{"id"?, "role", "created": <seconds>, "content": [{"type": …}]}` (block/goose conversation/message.rs). */
const GOOSE_MESSAGE = /^\{\s*(?:"id"\s*:\s*(?:null|"(?:[^"\\]|\\.)*")\s*,\s*)?"role"\s*:\s*"(?:user|assistant)"\s*,\s*"created"\s*:\s*\d+\s*,\s*"content"\s*:\s*\[/;
/** goose's session metadata (the legacy file's first line, a session export): working_dir with its own fields. */
const GOOSE_SESSION = /"working_dir"\s*:/;
const GOOSE_SESSION_FIELD = /"(description|message_count|accumulated_total_tokens|extension_data|schedule_id|user_set_name)"\s*:/;
/** Cursor's composerData (its id, and its bubbles inline or their headers). */
const CURSOR_COMPOSER = /^\{\s*(?:"_v"\s*:\s*\d+\s*,\s*)?"composerId"\s*:\s*"/;
const CURSOR_BUBBLES = /"(conversation|fullConversationHeadersOnly)"\s*:\s*\[/;
const CODEX_TYPE = /"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context|compacted)"/;

/**
 * Recognises a trace format by content [I1]: the first bytes (about 64 KB is plenty) and, only when the
 * content is unclear, the file name. Never parses the whole input.
 *
 * @example detectTraceFormat('{"format":"hookwire.trace","version":1,…}\n').format === 'hookwire-trace'
 */
export function detectTraceFormat(firstBytes: string, fileName?: string): FormatDetection {
  let s = firstBytes.length > DETECT_SAMPLE_CHARS ? firstBytes.slice(0, DETECT_SAMPLE_CHARS) : firstBytes;
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  s = s.trimStart();
  if (s === '') return byName(fileName, 'empty', 'the input is empty');
  if (looksBinary(s)) return { format: null, by: null, code: 'binary', reason: 'this is binary data, not a trace (a NUL byte or many control characters in the first bytes)' };
  const found = s[0] === '{' ? detectObject(s) : s[0] === '[' ? detectArray(s) : detectText(s);
  if (found) return { format: found, by: 'content', code: 'content', reason: `recognised as ${TRACE_FORMAT_LABELS[found]} by its content` };
  if (s[0] === '{' && PIPELINE_DOC.test(s)) return { format: null, by: null, code: 'pipeline', reason: 'this is a Hookwire pipeline (format "hookwire.pipeline"), not a recorded run: open it as a pipeline (Import in the editor, or `hookwire validate` / `hookwire replay PIPELINE TRACE`)' };
  // What the content is comes first: the list after it is long (every format), and a person reads the start.
  return byName(fileName, 'unknown_format', `the content is not a recording Hookwire reads (it is ${describeContent(s)}); it reads: ${TRACE_FORMATS.map((f) => TRACE_FORMAT_LABELS[f]).join('; ')}`);
}

function detectObject(s: string): TraceFormat | null {
  const nl = s.indexOf('\n');
  const firstLine = nl === -1 ? s : s.slice(0, nl);
  const firstKey = FIRST_KEY.exec(s)?.[1];
  if (/"format"\s*:\s*"hookwire\.trace"/.test(firstLine)) return 'hookwire-trace';
  if (firstKey === 'resourceSpans' || (firstKey !== undefined && /^\{\s*"resourceSpans"\s*:/.test(s))) return 'otlp-json';
  // JSON Lines: the first line is a whole record; a pretty-printed document's first line is just "{".
  if (CODEX_TYPE.test(firstLine) && /"payload"\s*:/.test(firstLine)) return 'codex-rollout';
  // goose: a legacy session file (metadata line, then messages), a message line, or a session export [I21].
  if (GOOSE_MESSAGE.test(firstLine) || (GOOSE_SESSION.test(firstLine) && GOOSE_SESSION_FIELD.test(firstLine))) return 'goose';
  if (firstLine.trim() === '{' && GOOSE_SESSION.test(s) && GOOSE_SESSION_FIELD.test(s)) return 'goose';
  // Cursor: one composer of its state.vscdb, assembled with its bubbles inline (`conversation`) [I23].
  if (CURSOR_COMPOSER.test(s) && CURSOR_BUBBLES.test(s)) return 'cursor';
  // Gemini CLI: a metadata line (JSONL) or document (older .json) with sessionId and projectHash [I12].
  if (GEMINI_META.test(firstLine) && /"projectHash"\s*:/.test(firstLine)) return 'gemini-cli';
  if (firstLine.trim() === '{' && firstKey === 'sessionId' && /^\{\s*"sessionId"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"projectHash"\s*:/.test(s)) return 'gemini-cli';
  // Copilot CLI: `{type: "session.start" | "user.message" | …, data: {…}, id, timestamp, parentId}` [I15].
  if (COPILOT_TYPE.test(firstLine) && /"data"\s*:\s*\{/.test(firstLine) && /"parentId"\s*:/.test(firstLine)) return 'copilot-cli';
  // Qwen Code records look like Claude Code's (uuid, parentUuid, sessionId, type) but hold Gemini `parts` [I19].
  if (QWEN_TYPE.test(firstLine) && CLAUDE_IDS.test(firstLine) && (QWEN_MARK.test(firstLine) || (!/"content"\s*:/.test(s) && QWEN_MARK.test(s)))) return 'qwen-code';
  if (CLAUDE_TYPE.test(firstLine) && CLAUDE_IDS.test(firstLine)) return 'claude-code';
  if (isSpanLine(firstLine)) return 'otel-spans-jsonl';
  // OpenCode: `opencode export` `{info: {id: "ses_…", projectID, …}, messages: [{info, parts}]}`, or a storage session file [I18].
  const ses = /"id"\s*:\s*"ses_/.test(s) && /"projectID"\s*:/.test(s);
  if (ses && (firstKey === 'info' || /"directory"\s*:/.test(s))) return 'opencode';
  if (firstLine.trim() === '{' && firstKey === 'name' && /^\{\s*"name"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"context"\s*:\s*\{\s*"trace_id"/.test(s)) return 'otel-console';
  if (firstKey === 'spans' || (/"spans"\s*:\s*\[/.test(s) && /"(gen_ai\.|start_time)/.test(s))) return 'otel-genai';
  if (/"trajectory_format"\s*:\s*"mini-swe-agent/.test(s) || (firstKey === 'info' && /"messages"\s*:\s*\[/.test(s) && /"(mini_version|model_stats)"\s*:/.test(s))) return 'mini-swe-agent';
  if (/"trajectory"\s*:\s*\[/.test(s)) {
    // OpenHands exports may wrap the event list as {"trajectory": [...]}; its events carry a `source`.
    if (OPENHANDS_SOURCE.test(s) && OPENHANDS_KIND.test(s) && !/"(history|environment)"\s*:/.test(s)) return 'openhands';
    if (/"(action|observation|response|thought)"\s*:/.test(s) || /"(history|environment|info)"\s*:/.test(s)) return 'swe-agent';
  }
  if (firstKey && ['environment', 'history', 'replay_config'].includes(firstKey) && /"(trajectory|history)"\s*:\s*\[/.test(s)) return 'swe-agent';
  return null;
}

/** One span per line: OTLP's own span shape or the Python SDK's `to_json` shape on one line. */
function isSpanLine(line: string): boolean {
  const otlp = /"traceId"\s*:/.test(line) && /"spanId"\s*:/.test(line) && /"startTimeUnixNano"\s*:/.test(line);
  const sdk = /"context"\s*:\s*\{/.test(line) && /"span_id"\s*:/.test(line) && /"start_time"\s*:/.test(line);
  return otlp || sdk;
}

function parsesAlone(line: string): boolean {
  if (line.length > DETECT_SAMPLE_CHARS - 1) return false;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Anthropic-style messages `[{"role": …, "content": …}]` as Cline and Roo Code keep them, with their marks [I14]. */
const MESSAGES_ARRAY = /^\[\s*\{\s*"(role|content|ts)"\s*:/;
const CLINE_MARKS = /<task>|<environment_details>|\] Result:|"modelInfo"\s*:\s*\{/;

function detectArray(s: string): TraceFormat | null {
  // Cline's UI log: `[{"ts": …, "type": "say" | "ask", "say": "task", …}]` [I20].
  if (/^\[\s*\{\s*"ts"\s*:\s*\d+\s*,\s*"type"\s*:\s*"(say|ask)"/.test(s) || (/^\[\s*\{/.test(s) && /"type"\s*:\s*"say"\s*,\s*"say"\s*:\s*"(task|api_req_started|text)"/.test(s))) return 'cline-ui';
  if (MESSAGES_ARRAY.test(s) && /"role"\s*:\s*"(user|assistant)"/.test(s) && CLINE_MARKS.test(s)) return 'cline';
  if (OPENHANDS_SOURCE.test(s) && OPENHANDS_KIND.test(s)) return 'openhands';
  if (/"context"\s*:\s*\{/.test(s) && /"(start_time|gen_ai\.)/.test(s)) return 'otel-genai';
  if (/^\[\s*\{\s*"resourceSpans"\s*:/.test(s)) return 'otlp-json';
  return null;
}

/** Markdown session files [I16]: SpecStory's header, or its message headers near the top. */
function detectText(s: string): TraceFormat | null {
  // aider: io.py writes `# aider chat started at <time>` at each start [I17].
  if (/^# aider chat started at \d{4}-\d\d-\d\d /m.test(s)) return 'aider';
  if (/^<!-- Generated by SpecStory/.test(s) || /^## SpecStory\s*\n/.test(s)) return 'specstory';
  if (/^_\*\*User\b[^\n]*\*\*_\s*$/m.test(s) && /^_\*\*(Agent|Assistant)\b[^\n]*\*\*_\s*$/m.test(s)) return 'specstory';
  return null;
}

/**
 * What a sample looks like, in words, for messages that refuse it: "a JSON object with keys a, b, c",
 * "JSON Lines whose first record has keys …", "a JSON array of objects with keys …", "text that is not JSON".
 */
export function describeContent(sample: string): string {
  const s = sample.trimStart();
  if (s === '') return 'empty';
  const keys = (text: string): string => {
    const found: string[] = [];
    const re = /"([^"\\]{1,60})"\s*:/g;
    let depth = 0;
    let last = 0;
    // Only keys at the first level of the first object: count braces between matches (strings aside, roughly).
    for (let m = re.exec(text); m && found.length < 6; m = re.exec(text)) {
      for (let i = last; i < m.index; i++) {
        const c = text[i];
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') depth--;
      }
      last = m.index;
      if (depth === 1 && !found.includes(m[1] as string)) found.push(m[1] as string);
    }
    return found.length ? `keys ${found.join(', ')}` : 'no keys';
  };
  const nl = s.indexOf('\n');
  const firstLine = nl === -1 ? s : s.slice(0, nl);
  if (s[0] === '{' && parsesAlone(firstLine) && nl !== -1 && s.slice(nl + 1).trimStart().startsWith('{')) return `JSON Lines whose first record has ${keys(firstLine)}`;
  if (s[0] === '{') return `a JSON object with ${keys(s)}`;
  if (s[0] === '[') {
    const inner = s.slice(1).trimStart();
    return inner[0] === '{' ? `a JSON array of objects with ${keys(inner)}` : inner[0] === ']' ? 'an empty JSON array' : 'a JSON array';
  }
  return 'text that is not JSON';
}

function byName(fileName: string | undefined, code: 'empty' | 'unknown_format', why: string): FormatDetection {
  const name = (fileName ?? '').toLowerCase();
  let format: TraceFormat | null = null;
  if (/\.hwtrace(\.jsonl)?$|\.trace\.jsonl$/.test(name)) format = 'hookwire-trace';
  else if (name.endsWith('.traj.json')) format = 'mini-swe-agent';
  else if (name.endsWith('.traj')) format = 'swe-agent';
  else if (/(^|[\\/])rollout-[^\\/]*\.jsonl$/.test(name)) format = 'codex-rollout';
  else if (/_trace\.json$|\.otel\.json$/.test(name)) format = 'otel-genai';
  else if (/(^|[\\/])api_conversation_history\.json$/.test(name)) format = 'cline';
  else if (/(^|[\\/])ui_messages\.json$/.test(name)) format = 'cline-ui';
  else if (/(^|[\\/])\.aider\.chat\.history\.md$/.test(name)) format = 'aider';
  else if (/(^|[\\/])\.specstory[\\/]history[\\/][^\\/]+\.md$/.test(name)) format = 'specstory';
  else if (/(^|[\\/])session-state[\\/][^\\/]+[\\/]events\.jsonl$/.test(name)) format = 'copilot-cli';
  if (format) return { format, by: 'file_name', code: 'file_name', reason: `${why}; guessed ${TRACE_FORMAT_LABELS[format]} from the file name` };
  return { format: null, by: null, code, reason: why };
}
