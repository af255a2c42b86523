// Where each agent keeps its session files by default, per OS (`hookwire sessions`, #29). Read-only.
// HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, APPDATA, CODEX_HOME, COPILOT_HOME, CLAUDE_CONFIG_DIR, GOOSE_PATH_ROOT, GEMINI_CLI_HOME,
// QWEN_HOME and QWEN_RUNTIME_DIR are honoured, as the agents honour them, so tests point it at a temp dir.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface SessionLocation {
  agent: string;
  /** Where to look (the documented folder). */
  root: string;
  /** Folder levels below root that may hold files. */
  depth: number;
  /** The file name of a session file. */
  file: RegExp;
  /** Said in help and in the app: where the agent documents it. */
  source: string;
  /** Other folders of the same agent (e.g. a database beside the older file storage); `path`, when given, must match the whole path. */
  more?: { root: string; depth: number; file: RegExp; path?: RegExp }[];
}

export interface FoundSession {
  agent: string;
  path: string;
  size: number;
  /** Last modified, ISO. */
  modified: string;
}

/** The default session folders on this machine for `env` and `platform`. */
export function sessionLocations(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, cwd: string = process.cwd()): SessionLocation[] {
  const home = env.HOME ?? env.USERPROFILE ?? '';
  // VS Code's user data: ~/.config/Code (Linux, XDG), ~/Library/Application Support/Code (macOS), %APPDATA%\Code (Windows).
  const vscode = platform === 'darwin' ? join(home, 'Library', 'Application Support', 'Code')
    : platform === 'win32' ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Code')
    : join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Code');
  const storage = join(vscode, 'User', 'globalStorage');
  // Cursor is a VS Code fork: its user data is the same layout under Cursor (Electron's appData).
  const cursor = platform === 'darwin' ? join(home, 'Library', 'Application Support', 'Cursor')
    : platform === 'win32' ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Cursor')
    : join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Cursor');
  const dataHome = env.XDG_DATA_HOME ?? join(home, '.local', 'share');
  const gooseData = env.GOOSE_PATH_ROOT ? join(env.GOOSE_PATH_ROOT, 'data')
    : platform === 'win32' ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Block', 'goose', 'data')
    : join(dataHome, 'goose');
  return [
    // Claude Code: ~/.claude/projects/<project>/<session>.jsonl (CLAUDE_CONFIG_DIR moves ~/.claude).
    // Since 2.1.233 a subagent's records are in <project>/<session-id>/subagents/agent-<id>.jsonl (engine/node/claudeSubagents.ts).
    {
      agent: 'claude-code', root: join(env.CLAUDE_CONFIG_DIR ?? join(home, '.claude'), 'projects'), depth: 1, file: /\.jsonl$/, source: 'Claude Code docs: ~/.claude/projects/<project>/<session-id>.jsonl (subagents: <session-id>/subagents/agent-<id>.jsonl)',
      more: [{ root: join(env.CLAUDE_CONFIG_DIR ?? join(home, '.claude'), 'projects'), depth: 3, file: /^agent-.+\.jsonl$/, path: /[\\/]subagents[\\/][^\\/]+$/ }],
    },
    // Codex CLI: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl (CODEX_HOME defaults to ~/.codex).
    { agent: 'codex', root: join(env.CODEX_HOME ?? join(home, '.codex'), 'sessions'), depth: 3, file: /^rollout-.*\.jsonl$/, source: 'openai/codex: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl' },
    // Gemini CLI 0.56: ~/.gemini/tmp/<project>/chats/session-*.jsonl (older: .json); subagents in chats/<parent id>/.
    // <project> is the project's short id from ~/.gemini/projects.json (older versions: the sha256 of its path, which
    // Storage.performMigration renames); GEMINI_CLI_HOME replaces the home folder (packages/core/src/utils/paths.ts
    // homedir(), config/storage.ts getGlobalGeminiDir / getProjectTempDir, commit 5411f113).
    { agent: 'gemini-cli', root: join(env.GEMINI_CLI_HOME || home, '.gemini', 'tmp'), depth: 3, file: /^(session-.*\.jsonl?|[^/\\]+\.jsonl)$/, source: 'google-gemini/gemini-cli chatRecordingService.ts: ~/.gemini/tmp/<project>/chats/session-*.jsonl (GEMINI_CLI_HOME moves ~)' },
    // Cline: VS Code globalStorage saoudrizwan.claude-dev/tasks/<id>/api_conversation_history.json (cline/cline disk.ts).
    { agent: 'cline', root: join(storage, 'saoudrizwan.claude-dev', 'tasks'), depth: 1, file: /^api_conversation_history\.json$/, source: 'cline/cline src/core/storage/disk.ts: <VS Code globalStorage>/saoudrizwan.claude-dev/tasks/<id>/' },
    // Roo Code: the same layout under rooveterinaryinc.roo-cline.
    { agent: 'roo-code', root: join(storage, 'rooveterinaryinc.roo-cline', 'tasks'), depth: 1, file: /^api_conversation_history\.json$/, source: 'RooCodeInc/Roo-Code src/utils/storage.ts: <VS Code globalStorage>/rooveterinaryinc.roo-cline/tasks/<id>/' },
    // GitHub Copilot CLI: $COPILOT_HOME/session-state/<sessionId>/events.jsonl, COPILOT_HOME defaulting to ~/.copilot
    // (github/copilot-sdk v1.0.9 docs/features/agent-loop.md, docs/setup/multi-tenancy.md).
    { agent: 'copilot-cli', root: join(env.COPILOT_HOME ?? join(home, '.copilot'), 'session-state'), depth: 1, file: /^events\.jsonl$/, source: 'github/copilot-sdk docs/features/agent-loop.md: ~/.copilot/session-state/<sessionId>/events.jsonl' },
    // Qwen Code: <runtime dir>/projects/<project>/chats/<sessionId>.jsonl (QwenLM/qwen-code Storage.getProjectDir() +
    // 'chats'), the runtime dir being QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen (packages/core/src/config/storage.ts
    // getRuntimeBaseDir / getGlobalQwenDir; the docs' environment variables page).
    { agent: 'qwen-code', root: join(env.QWEN_RUNTIME_DIR || env.QWEN_HOME || join(home, '.qwen'), 'projects'), depth: 2, file: /\.jsonl$/, source: 'QwenLM/qwen-code chatRecordingService.ts: ~/.qwen/projects/<project>/chats/<session-id>.jsonl (QWEN_RUNTIME_DIR or QWEN_HOME moves ~/.qwen)' },
    // OpenCode's JSON storage: $XDG_DATA_HOME/opencode/storage/session/<projectID>/<sessionID>.json (xdg-basedir,
    // ~/.local/share on every OS; anomalyco/opencode src/global and src/storage). Newer versions keep an SQLite
    // database there instead: export a session with `opencode export <id>`.
    // Newer versions keep every session in $XDG_DATA_HOME/opencode/opencode.db (opencode-<channel>.db for other
    // release channels; src/storage/db.ts), listed one line per session as <db>#<session id> [I22].
    {
      agent: 'opencode', root: join(dataHome, 'opencode', 'storage', 'session'), depth: 1, file: /\.json$/, source: 'anomalyco/opencode storage: ~/.local/share/opencode/storage/session/<project>/<session>.json, and opencode.db',
      more: [{ root: join(dataHome, 'opencode'), depth: 0, file: /^opencode(-[\w.-]+)?\.db$/ }],
    },
    // goose: <data>/sessions/sessions.db (SQLite, current versions) and the older <data>/sessions/<name>.jsonl;
    // <data> is etcetera's XDG data dir ~/.local/share/goose on Linux and macOS, %APPDATA%\Block\goose\data on
    // Windows, and $GOOSE_PATH_ROOT/data when that is set (block/goose crates/goose/src/config/paths.rs,
    // session/session_manager.rs ensure_session_dir, session/legacy.rs).
    { agent: 'goose', root: join(gooseData, 'sessions'), depth: 0, file: /^(sessions\.db|[^\\/]+\.jsonl)$/, source: 'block/goose config/paths.rs: ~/.local/share/goose/sessions/sessions.db (older sessions: <name>.jsonl)' },
    // Per-project files, looked for in the current directory: aider appends every run to .aider.chat.history.md
    // (Aider-AI/aider io.py, --chat-history-file default); SpecStory saves chats to .specstory/history/*.md.
    { agent: 'aider', root: cwd, depth: 0, file: /^\.aider\.chat\.history\.md$/, source: 'aider docs (--chat-history-file): <project>/.aider.chat.history.md' },
    // Cursor's own store: <Cursor user data>/User/globalStorage/state.vscdb, one line per chat as
    // state.vscdb#<composer id> [I23] (michaeldhood/chatrxiv docs/cursor/storage-reference.md).
    // SpecStory's exports of Cursor chats: <project>/.specstory/history/*.md, looked for in the current directory.
    {
      agent: 'cursor', root: join(cursor, 'User', 'globalStorage'), depth: 0, file: /^state\.vscdb$/, source: 'Cursor\'s store (michaeldhood/chatrxiv docs/cursor/storage-reference.md): <Cursor user data>/User/globalStorage/state.vscdb; SpecStory docs: <project>/.specstory/history/*.md',
      // Older versions kept chats in each workspace's own store, <Cursor user data>/User/workspaceStorage/<hash>/state.vscdb [I24].
      more: [{ root: join(cwd, '.specstory', 'history'), depth: 0, file: /\.md$/ }, { root: join(cursor, 'User', 'workspaceStorage'), depth: 1, file: /^state\.vscdb$/ }],
    },
  ];
}

/** Session files found at the locations (missing folders are skipped), newest first; `since` filters by modification time. */
export function findSessions(locations: readonly SessionLocation[], options: { agent?: string; since?: Date } = {}): FoundSession[] {
  const found: FoundSession[] = [];
  for (const loc of locations) {
    if (options.agent && loc.agent !== options.agent) continue;
    for (const place of [loc, ...(loc.more ?? [])] as { root: string; depth: number; file: RegExp; path?: RegExp }[]) {
      walk(place.root, place.depth, (path, name) => {
        if (!place.file.test(name) || (place.path && !place.path.test(path))) return;
        const st = statSync(path, { throwIfNoEntry: false });
        if (!st?.isFile()) return;
        // A database holds many sessions, each with its own time: the command lists them and filters by that.
        if (options.since && st.mtime < options.since && !/\.(db|vscdb)$/.test(name)) return;
        found.push({ agent: loc.agent, path, size: st.size, modified: st.mtime.toISOString() });
      });
    }
  }
  return found.sort((a, b) => (a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : a.path < b.path ? -1 : 1));
}

function walk(dir: string, depth: number, onFile: (path: string, name: string) => void): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // not there, or not readable: nothing of this agent here
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (depth > 0) walk(path, depth - 1, onFile);
    } else if (e.isFile()) onFile(path, e.name);
  }
}
