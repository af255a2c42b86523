import type { TraceFormat } from './detectTraceFormat.ts';

/** Where one agent keeps its session files by default, per OS, as people read paths (`~` is the home folder). */
export interface SessionPlace {
  /** The agent id `hookwire sessions --agent` takes. */
  agent: string;
  /** The agent's name for people. */
  label: string;
  /** The format its files import as. */
  format: TraceFormat;
  linux: string;
  macos: string;
  windows: string;
  /** What else to know: an environment variable that moves it, how to get a file out. */
  note?: string;
}

const CODE_STORAGE = { linux: '~/.config/Code/User/globalStorage', macos: '~/Library/Application Support/Code/User/globalStorage', windows: '%APPDATA%\\Code\\User\\globalStorage' };
const same = (path: string, windows = path.replace(/\//g, '\\')) => ({ linux: path, macos: path, windows: windows.replace(/^~/, '%USERPROFILE%') });

/**
 * The documented default session locations of the agents Hookwire imports (#29, docs/sessions.md): one table for
 * the app's import dialog; `hookwire sessions` resolves the same places on the machine it runs on
 * (engine/node/sessionLocations.ts; a test holds the two lists to the same agents). Sources are cited there.
 */
export const SESSION_PLACES: readonly SessionPlace[] = [
  { agent: 'claude-code', label: 'Claude Code', format: 'claude-code', ...same('~/.claude/projects/<project>/<session-id>.jsonl'), note: 'CLAUDE_CONFIG_DIR moves ~/.claude; subagents (2.1.233 and later): <session-id>/subagents/agent-<id>.jsonl beside it' },
  { agent: 'codex', label: 'Codex CLI', format: 'codex-rollout', ...same('~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl'), note: 'CODEX_HOME moves ~/.codex' },
  { agent: 'gemini-cli', label: 'Gemini CLI', format: 'gemini-cli', ...same('~/.gemini/tmp/<project>/chats/session-*.jsonl'), note: 'GEMINI_CLI_HOME moves ~; <project> is the project\'s short id (older versions: a hash of its path)' },
  { agent: 'qwen-code', label: 'Qwen Code', format: 'qwen-code', ...same('~/.qwen/projects/<project>/chats/<session-id>.jsonl'), note: 'QWEN_RUNTIME_DIR, else QWEN_HOME, moves ~/.qwen' },
  { agent: 'copilot-cli', label: 'GitHub Copilot CLI', format: 'copilot-cli', ...same('~/.copilot/session-state/<session-id>/events.jsonl'), note: 'COPILOT_HOME moves ~/.copilot' },
  {
    agent: 'cline', label: 'Cline', format: 'cline',
    linux: `${CODE_STORAGE.linux}/saoudrizwan.claude-dev/tasks/<task-id>/api_conversation_history.json`,
    macos: `${CODE_STORAGE.macos}/saoudrizwan.claude-dev/tasks/<task-id>/api_conversation_history.json`,
    windows: `${CODE_STORAGE.windows}\\saoudrizwan.claude-dev\\tasks\\<task-id>\\api_conversation_history.json`,
  },
  {
    agent: 'roo-code', label: 'Roo Code', format: 'cline',
    linux: `${CODE_STORAGE.linux}/rooveterinaryinc.roo-cline/tasks/<task-id>/api_conversation_history.json`,
    macos: `${CODE_STORAGE.macos}/rooveterinaryinc.roo-cline/tasks/<task-id>/api_conversation_history.json`,
    windows: `${CODE_STORAGE.windows}\\rooveterinaryinc.roo-cline\\tasks\\<task-id>\\api_conversation_history.json`,
  },
  { agent: 'opencode', label: 'OpenCode', format: 'opencode', ...same('~/.local/share/opencode/storage/session/<project>/<session-id>.json'), note: 'newer versions: ~/.local/share/opencode/opencode.db, one session as opencode.db#<session-id> (hookwire sessions lists them); or opencode export <session-id> > session.json' },
  {
    agent: 'goose', label: 'goose', format: 'goose',
    linux: '~/.local/share/goose/sessions/sessions.db', macos: '~/.local/share/goose/sessions/sessions.db', windows: '%APPDATA%\\Block\\goose\\data\\sessions\\sessions.db',
    note: 'one session as sessions.db#<session-id> (hookwire sessions lists them); older sessions: <name>.jsonl beside it; GOOSE_PATH_ROOT moves it',
  },
  {
    agent: 'cursor', label: 'Cursor', format: 'cursor',
    linux: '~/.config/Cursor/User/globalStorage/state.vscdb', macos: '~/Library/Application Support/Cursor/User/globalStorage/state.vscdb', windows: '%APPDATA%\\Cursor\\User\\globalStorage\\state.vscdb',
    note: 'one chat as state.vscdb#<composer-id> (hookwire sessions lists them); older versions: each workspace\'s User/workspaceStorage/<hash>/state.vscdb (chat tabs, composers, prompt history); chats saved by the SpecStory extension or CLI: <project>/.specstory/history/*.md',
  },
  { agent: 'aider', label: 'aider', format: 'aider', ...same('<project>/.aider.chat.history.md') },
];

/** The OS a user agent string or a Node platform name is: the column of SESSION_PLACES to show. */
export function placeOs(platform: string): 'linux' | 'macos' | 'windows' {
  const p = platform.toLowerCase();
  if (p.includes('mac') || p.includes('darwin')) return 'macos';
  if (p.includes('win')) return 'windows';
  return 'linux';
}
