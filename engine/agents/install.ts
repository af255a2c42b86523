import { isJsonObject, jsonEqual, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import { lossReport, type LossItem } from './loss.ts';
import { OPENCODE_PLUGIN_FILE, OPENCODE_PLUGIN_MARK, openCodePluginFile } from './opencode.ts';
import { reaches, type PipelineShape } from './plan.ts';
import { AGENT_CONTRACTS } from './registry.ts';
import type { AgentContract, AgentId } from './types.ts';

/*
 * The agent's own hook configuration for a pipeline [AG6]: which native events to route through Hookwire (those
 * the pipeline's handlers listen to, no more), with matchers no wider than the pipeline's own narrowing, written
 * in the agent's file format and merged into an existing file without touching the user's other hooks. Pure: the
 * CLI (`hookwire install`) reads and writes the files, the app shows the same text ("Export for agent").
 * Files and fields, from each agent's documentation (see the agent's module):
 * - Claude Code .claude/settings.json `hooks.<Event>[{matcher, hooks: [{type: "command", command, timeout, onFailure: "block"}]}]`
 *   (`type: "http"` with --serve; `onFailure: "block"` needs 2.1.295+, checked in the 2.1.337 implementation, see claude.ts);
 * - Codex .codex/hooks.json, same shape (project hooks.json discovery: codex-cli-best-practice "Discovery Locations");
 * - Gemini CLI .gemini/settings.json, same shape, `timeout` in ms; Qwen Code .qwen/settings.json, ms;
 * - Factory .factory/hooks.json keyed by event name ("Hook files are keyed by event name", docs.factory.ai/harness/hooks);
 * - goose .agents/plugins/hookwire/hooks/hooks.json, a project plugin (Open Plugins), Claude Code's grouped shape with
 *   `on_failure: "block"` on PreToolUse (fieldMaps.ts);
 * - GitHub Copilot .github/hooks/hookwire.json `{version: 1, hooks: {preToolUse: [{type: "command", bash, timeoutSec}]}}`;
 * - VS Code .github/hooks/hookwire-vscode.json `{hooks: {PreToolUse: [{type: "command", command, timeout}]}}` (vscode.ts);
 * - OpenCode .opencode/plugins/hookwire.js, a plugin file (opencode.ts), not a hook configuration;
 * - Cursor .cursor/hooks.json `{version: 1, hooks: {preToolUse: [{command, matcher, failClosed: true}]}}`;
 * - Windsurf .windsurf/hooks.json `{hooks: {pre_run_command: [{command, show_output: true}]}}`.
 * Kimi Code reads hooks only from ~/.kimi-code/config.toml (TOML, outside the project; ~/.kimi/config.toml for the older
 * Python kimi-cli): install prints the entries to add and writes nothing (the loss report is still printed).
 */

/** goose discovers a project's plugins as the directories of `.agents/plugins/` and reads each one's `hooks/hooks.json` (block/goose plugins/discovery.rs, hooks/mod.rs at 0825b570). */
export const GOOSE_HOOKS_FILE = '.agents/plugins/hookwire/hooks/hooks.json';

interface FileFormat {
  file: string;
  /** Matcher groups `[{matcher, hooks: [entry]}]` (Claude Code's shape), or entries directly. */
  grouped: boolean;
  /** The object the event keys live in: `hooks`, or the file itself. */
  root: 'hooks' | 'top';
  version?: number;
  /** The entry's timeout field and its unit. */
  timeout?: { field: string; unit: 's' | 'ms' };
}

const FORMATS: ReadonlyMap<AgentId, FileFormat> = new Map<AgentId, FileFormat>([
  ['claude', { file: '.claude/settings.json', grouped: true, root: 'hooks', timeout: { field: 'timeout', unit: 's' } }],
  ['codex', { file: '.codex/hooks.json', grouped: true, root: 'hooks', timeout: { field: 'timeout', unit: 's' } }],
  ['gemini', { file: '.gemini/settings.json', grouped: true, root: 'hooks', timeout: { field: 'timeout', unit: 'ms' } }],
  ['qwen', { file: '.qwen/settings.json', grouped: true, root: 'hooks', timeout: { field: 'timeout', unit: 'ms' } }],
  ['factory', { file: '.factory/hooks.json', grouped: true, root: 'top', timeout: { field: 'timeout', unit: 's' } }],
  ['goose', { file: GOOSE_HOOKS_FILE, grouped: true, root: 'hooks', timeout: { field: 'timeout', unit: 's' } }],
  ['copilot', { file: '.github/hooks/hookwire.json', grouped: false, root: 'hooks', version: 1, timeout: { field: 'timeoutSec', unit: 's' } }],
  ['vscode', { file: '.github/hooks/hookwire-vscode.json', grouped: false, root: 'hooks', timeout: { field: 'timeout', unit: 's' } }],
  ['cursor', { file: '.cursor/hooks.json', grouped: false, root: 'hooks', version: 1 }],
  ['windsurf', { file: '.windsurf/hooks.json', grouped: false, root: 'hooks' }],
]);

/** Events whose hooks take a tool-name matcher in their config (Copilot: only permissionRequest, "Hook events"). */
function takesMatcher(id: AgentId, event: string): boolean {
  if (id === 'copilot') return event === 'permissionRequest';
  // VS Code parses matchers but ignores them: every hook runs on every tool call (hooks.md, FAQ).
  if (id === 'windsurf' || id === 'vscode') return false;
  return ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'BeforeTool', 'AfterTool', 'preToolUse', 'postToolUse'].includes(event);
}

export interface InstallTarget {
  /** How to run hookwire (default `hookwire`). */
  bin?: string;
  /** The pipeline file as the hook command names it (absolute is best). */
  pipeline: string;
  /** Forward to a running `hookwire serve` at this URL instead of deciding in the hook. */
  serve?: string;
}

const SERVE_URL_RE = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?(\/[^\s?#]*)?$/;

/**
 * Why a `hookwire serve` address cannot go into an agent's configuration (null: it can). `hookwire serve`
 * listens on http:// loopback only, so anything else would send every hook call to a server that is not ours.
 * `serveUrlProblem('http://127.0.0.1:7347')` → null.
 */
export function serveUrlProblem(url: string): string | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return 'is not a URL (http://127.0.0.1:<port>)';
  if (!SERVE_URL_RE.test(url)) return 'hookwire serve listens on http:// loopback only (127.0.0.1, localhost, [::1])';
  return null;
}

/** The native events to route and each one's matcher (null: every tool). */
export function plannedEvents(doc: PipelineShape, contract: AgentContract): { name: string; matcher: string | null }[] {
  const out = new Map<string, Set<string> | null>();
  for (const r of reaches(doc, contract).reaches) {
    const name = r.event.name;
    const names = toolNames(contract, r.tools.kinds, r.tools.names);
    // A path narrowed to tools this agent does not have needs no hook here (the loss report says so).
    if (names !== null && names.length === 0 && r.event.type.startsWith('tool.') && !r.event.tool) continue;
    const before = out.has(name) ? out.get(name)! : new Set<string>();
    out.set(name, before === null || names === null ? null : new Set([...before, ...names]));
  }
  return [...out].map(([name, names]) => ({ name, matcher: takesMatcher(contract.id, name) && names !== null && names.size > 0 ? [...names].sort().join('|') : null }));
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The agent's tool names a narrowing allows (regex alternatives); null: not narrowed (or not expressible by name). */
function toolNames(c: AgentContract, kinds: ReadonlySet<string> | null, names: ReadonlySet<string> | null): string[] | null {
  if (names !== null) return [...names].map(escapeRe);
  if (kinds === null || kinds.has('other')) return null;
  const out = [...c.tools].filter(([, e]) => kinds.has(e.tool)).map(([n]) => escapeRe(n));
  if (kinds.has('mcp')) {
    if (!c.mcpPrefix) return null;
    out.push(`${escapeRe(c.mcpPrefix)}.*`);
  }
  return out;
}

const quote = (s: string) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The hook command for one event: `hookwire hook --agent <id> …`, and what the shell does when hookwire itself
 * cannot run (not installed, killed): the agent's block form, since a crashed hook lets the tool run in most
 * agents [AG4] — Copilot reads only a JSON deny, Codex needs a non-empty stderr with exit 2.
 */
export function hookCommand(id: AgentId, event: string, t: InstallTarget): string {
  const parts = [t.bin ?? 'hookwire', 'hook', '--agent', id, ...(id === 'copilot' ? ['--event', event] : []), ...(t.serve ? ['--server', t.serve] : [t.pipeline])];
  const cmd = parts.map(quote).join(' ');
  if (id === 'copilot') return `${cmd} || printf '%s\\n' '${COPILOT_FALLBACK}'`;
  // VS Code's file may also run under a harness that ignores exit codes (vscode.ts): the deny on stdout as well.
  if (id === 'vscode') return `${cmd} || { rc=$?; [ "$rc" -eq 2 ] || { printf '%s\\n' '${COPILOT_FALLBACK}'; echo "hookwire could not run (exit $rc): failing closed" >&2; }; exit 2; }`;
  return `${cmd} || { rc=$?; [ "$rc" -eq 2 ] || echo "hookwire could not run (exit $rc): failing closed" >&2; exit 2; }`;
}

/**
 * What the Copilot command prints when hookwire cannot run: the deny in Copilot's form and, for VS Code, which runs
 * the same file and reads only `hookSpecificOutput.permissionDecision` (copilot.ts), in VS Code's.
 */
const COPILOT_FALLBACK = JSON.stringify({
  permissionDecision: 'deny',
  permissionDecisionReason: 'hookwire could not run: failing closed',
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'hookwire could not run: failing closed' },
});

/** The `hookwire install` line that writes the same configuration into a project (merged, with a backup). */
export function installCommandLine(id: AgentId, t: InstallTarget): string {
  return [t.bin ?? 'hookwire', 'install', '--agent', id, '--pipeline', t.pipeline, ...(t.serve && id !== 'opencode' ? ['--serve', t.serve] : [])].map(quote).join(' ');
}

const ALSO_RUN_BY: Readonly<Partial<Record<AgentId, readonly string[]>>> = {
  claude: [
    'VS Code\'s agent (Copilot agent mode) also runs the hooks in .claude/settings.json, on every tool call (it ignores matchers), with its own input: hookwire hook --agent claude answers that input in VS Code\'s form, so the pipeline guards VS Code too. To keep VS Code out, set "chat.hookFilesLocations": {".claude/settings.json": false}.',
    // https://cursor.com/docs/reference/third-party-hooks ("Claude Code Hooks"); its input to these hooks is not documented there.
    'Cursor also runs the hooks in .claude/settings.json when "Third-party skills" is on (Cursor Settings → Features), mapping Claude Code\'s event names to its own; hookwire hook --agent claude refuses Cursor\'s own input and answers exit 2, which Cursor reads as a deny (failing closed). For Cursor, install --agent cursor: .cursor/hooks.json ranks above .claude/settings.json when answers conflict.',
  ],
  copilot: [
    'VS Code\'s agent also runs .github/hooks/*.json (preToolUse as PreToolUse, bash as its command) with its own input: each deny is written in Copilot\'s form and in VS Code\'s (hookSpecificOutput.permissionDecision), so it blocks in both; an ask is a deny in both.',
  ],
  codex: [
    // https://developers.openai.com/codex/hooks ("Non-managed command hooks must be reviewed and trusted before they run").
    'Codex loads a project\'s .codex/hooks.json only when the project is trusted, and runs a new or changed command hook only after it is reviewed and trusted in /hooks (trust is kept against the hook\'s hash, and an untrusted hook is skipped without a word): until then these hooks do not run. Open /hooks in Codex after each install that changed the file.',
  ],
  qwen: [
    // QwenLM/qwen-code docs/users/features/hooks.md "Security Model" (commit 00d06c80, 2026-12).
    'Qwen Code runs project-level hooks (.qwen/settings.json) only in a trusted folder: in an untrusted one these hooks do not run. Trust the folder in Qwen Code (/trust or the prompt at start-up) after installing.',
  ],
  factory: [
    // Factory-AI/factory issue #3 (open, droid 0.186.0); aovestdipaperino/tokensave PR #198 found the same. docs.factory.ai/harness/hooks documents .factory/hooks.json.
    'Factory documents .factory/hooks.json as the project hook file (keyed by event name), but a report against droid 0.186.0 (Factory-AI/factory issue #3, open) found it never read, only the "hooks" key of .factory/settings.json: check that droid lists these hooks (/hooks) before relying on them; if it does not, move the same entries under "hooks" in .factory/settings.json (droid reads that key when no hooks.json is there).',
  ],
  goose: [
    // block/goose documentation/docs/guides/context-engineering/hooks.md and hooks/mod.rs at 0825b570; on_failure: PR #11449 (1.48.0).
    'goose loads this plugin (.agents/plugins/hookwire/) when it starts in this project, unless "disabledPlugins" in ~/.config/goose/settings.json or the project\'s .config/goose/settings.json names hookwire, or config.yaml\'s plugins map sets it to enabled: false. Its PreToolUse hooks carry on_failure: "block", so a hook that crashes, times out or answers nothing blocks the tool call; goose before 1.48.0 ignores on_failure and lets such a call run. Stop hooks fail open whatever on_failure says, and goose\'s prompt and after-tool hooks cannot block.',
  ],
  vscode: [
    'GitHub Copilot CLI and its cloud agent also load .github/hooks/*.json; they document bash/powershell commands only, and this file has none, so it is meant for VS Code (install --agent copilot for Copilot). If Copilot runs it anyway, its deny, and every answer when hookwire fails, is also written in Copilot\'s form.',
    // microsoft/vscode-docs docs/agent-customization/hooks.md (DateApproved 10/14/2026): "The selected agent harness determines which hook implementation runs."
    'In VS Code the session\'s harness decides which hooks run: this file is for the Local harness. The Copilot harness (the default Session Target, the Copilot SDK) runs Copilot\'s hooks: install --agent copilot too; the Claude and Codex harnesses run those agents\' hooks (install --agent claude, --agent codex).',
  ],
};

/**
 * Which other agents also run what this install writes, and what that means [AG6]. Cursor loads the Claude Code
 * files too when its "Third-party skills" setting is on (https://cursor.com/docs/reference/third-party-hooks,
 * "Claude Code Hooks": .claude/settings.local.json, .claude/settings.json, ~/.claude/settings.json, ranked below
 * Cursor's own hooks.json). VS Code's agent hooks load
 * `.claude/settings.json`, `.claude/settings.local.json`, `~/.claude/settings.json` and `.github/hooks/*.json` by
 * default (`chat.hookFilesLocations`), ignoring matchers, and convert Copilot CLI files (`preToolUse` →
 * `PreToolUse`, `bash` → the linux/osx command): microsoft/vscode-docs docs/agent-customization/hooks.md
 * (commit 91e74cb2, DateApproved 6/3/2026), "Hook file locations" and the FAQ.
 */
export function alsoRunBy(id: AgentId): string[] {
  // An own property only: an id is a name, never a key into Object.prototype.
  return Object.hasOwn(ALSO_RUN_BY, id) ? [...ALSO_RUN_BY[id]!] : [];
}

/** Whether a config entry is one Hookwire wrote for this agent (so a re-install replaces it, and nothing else). */
export function isOurs(id: AgentId, entry: JsonValue): boolean {
  if (!isJsonObject(entry)) return false;
  const text = [ownGet(entry, 'command'), ownGet(entry, 'bash'), ownGet(entry, 'url')].filter((v) => typeof v === 'string').join(' ');
  return text.includes(`hook --agent ${id} `) || (id === 'claude' && (/\bclaude-hook\b/.test(text) || /\/v1\/(claude|agents\/claude)\/hook/.test(text)));
}

function entryFor(c: AgentContract, f: FileFormat, event: string, t: InstallTarget): JsonObject {
  const timeout = f.timeout ? { [f.timeout.field]: f.timeout.unit === 'ms' ? c.timeoutSeconds * 1000 : c.timeoutSeconds } : {};
  if (c.id === 'claude' && t.serve) {
    // An http hook: Claude Code reads the decision from the 2xx body; onFailure makes an unreachable server block.
    return { type: 'http', url: `${t.serve.replace(/\/$/, '')}/v1/claude/hook`, headers: { Authorization: 'Bearer $HOOKWIRE_TOKEN' }, allowedEnvVars: ['HOOKWIRE_TOKEN'], ...timeout, onFailure: 'block' };
  }
  const command = hookCommand(c.id, event, t);
  if (c.id === 'copilot') return { type: 'command', bash: command, ...timeout };
  if (c.id === 'cursor') return { command, failClosed: true };
  if (c.id === 'windsurf') return { command, show_output: true };
  // goose honours on_failure on PreToolUse only (and errors on an unknown value); elsewhere it is left out.
  const gooseBlock: JsonObject = c.id === 'goose' && event === 'PreToolUse' ? { on_failure: 'block' } : {};
  return { type: 'command', command, ...(c.id === 'gemini' || c.id === 'qwen' ? { name: 'hookwire' } : {}), ...timeout, ...(c.id === 'claude' ? { onFailure: 'block' } : {}), ...gooseBlock };
}

/**
 * A config file made for an agent. `paste` is set when the file is the person's own and Hookwire does not write
 * it (Kimi Code's ~/.kimi-code/config.toml): `text` is then what to add to it, and `paste` says where and why.
 */
export type MergeResult = { ok: true; file: string; text: string; changed: boolean; paste?: string } | { ok: false; file: string; reason: string };

/**
 * The agent's config file after installing the pipeline's hooks into `existing` (null: no file yet). Every
 * hook Hookwire wrote before for this agent is replaced in place, everything else is kept as it was; an existing
 * file that is not a JSON object (or whose hooks are not) is refused, unchanged. `changed` is false when the
 * result means the same as the file (a second install).
 */
export function mergeConfig(id: AgentId, doc: PipelineShape, t: InstallTarget, existing: string | null): MergeResult {
  if (id === 'opencode') return openCodePlugin(t, existing);
  const f = FORMATS.get(id);
  const c = AGENT_CONTRACTS.get(id)!;
  if (!f) return { ok: true, file: KIMI_CONFIG, text: kimiEntries(doc, t), changed: true, paste: `Kimi Code reads hooks only from ${KIMI_CONFIG} ($KIMI_CODE_HOME/config.toml when that is set; the older Python kimi-cli reads ~/.kimi/config.toml), which hookwire does not edit: add these entries to it` };
  let root: JsonObject = {};
  if (existing !== null && existing.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch (err) {
      return { ok: false, file: f.file, reason: `${f.file} is not JSON (${err instanceof Error ? err.message.slice(0, 120) : String(err)}): refused, left as it was` };
    }
    if (!isJsonObject(parsed)) return { ok: false, file: f.file, reason: `${f.file} is not a JSON object: refused, left as it was` };
    root = parsed;
  }
  const before = JSON.parse(JSON.stringify(root)) as JsonObject;
  if (f.root === 'hooks' && ownGet(root, 'hooks') !== undefined && !isJsonObject(ownGet(root, 'hooks'))) return { ok: false, file: f.file, reason: `${f.file}: "hooks" is not an object: refused, left as it was` };
  if (f.version !== undefined && ownGet(root, 'version') === undefined) ownSet(root, 'version', f.version);
  const hooks: JsonObject = f.root === 'hooks' ? ((ownGet(root, 'hooks') as JsonObject | undefined) ?? {}) : root;
  // Take our old entries out, remembering where the first one was in each event.
  const at = new Map<string, number>();
  for (const event of Object.keys(hooks)) {
    const list = ownGet(hooks, event);
    if (!Array.isArray(list) || (f.root === 'top' && event === 'version')) continue;
    const kept: JsonValue[] = [];
    let touched = false;
    for (const item of list) {
      const inner = f.grouped && isJsonObject(item) ? ownGet(item, 'hooks') : undefined;
      if (f.grouped && Array.isArray(inner)) {
        const rest = inner.filter((h) => !isOurs(id, h));
        if (rest.length !== inner.length) {
          touched = true;
          if (!at.has(event)) at.set(event, kept.length);
          if (rest.length > 0) kept.push({ ...(item as JsonObject), hooks: rest });
          continue;
        }
      } else if (!f.grouped && isOurs(id, item)) {
        touched = true;
        if (!at.has(event)) at.set(event, kept.length);
        continue;
      }
      kept.push(item);
    }
    if (touched) {
      if (kept.length > 0) ownSet(hooks, event, kept);
      else delete hooks[event];
    }
  }
  for (const { name, matcher } of plannedEvents(doc, c)) {
    const entry = entryFor(c, f, name, t);
    const item: JsonObject = f.grouped ? { ...(matcher !== null ? { matcher } : {}), hooks: [entry] } : { ...entry, ...(matcher !== null ? { matcher } : {}) };
    const list = Array.isArray(ownGet(hooks, name)) ? [...(ownGet(hooks, name) as JsonValue[])] : [];
    list.splice(at.get(name) ?? list.length, 0, item);
    ownSet(hooks, name, list);
  }
  if (f.root === 'hooks') ownSet(root, 'hooks', hooks);
  const text = `${JSON.stringify(root, null, 2)}\n`;
  return { ok: true, file: f.file, text, changed: existing === null || !jsonEqual(before, root) };
}

/**
 * Kimi Code CLI reads `[[hooks]]` from ~/.kimi-code/config.toml (`KIMI_CODE_HOME` moves it): its hooks page,
 * https://moonshotai.github.io/kimi-code/en/customization/hooks.html (read 2026-12), which also says an unknown event
 * or an extra field in an entry makes the whole file fail to load. ~/.kimi/config.toml is the Python kimi-cli's, which
 * Kimi Code replaces: entries pasted there never ran in Kimi Code.
 */
const KIMI_CONFIG = '~/.kimi-code/config.toml';

/**
 * Kimi Code's hooks are `[[hooks]]` entries of its config.toml (MoonshotAI/kimi-cli 1.49.0 hooks/config.py
 * `HookDef`: event, command, matcher, timeout), a user file with the person's providers and keys that Hookwire does
 * not edit (no TOML merge here): the entries to add, each command a TOML literal string.
 */
function kimiEntries(doc: PipelineShape, t: InstallTarget): string {
  const c = AGENT_CONTRACTS.get('kimi')!;
  const lines = plannedEvents(doc, c).flatMap(({ name, matcher }) => [
    '[[hooks]]',
    `event = "${name}"`,
    ...(matcher !== null ? [`matcher = '''${matcher}'''`] : []),
    `command = '''${hookCommand('kimi', name, t)}'''`,
    `timeout = ${c.timeoutSeconds}`,
    '',
  ]);
  return lines.join('\n');
}

/**
 * OpenCode's plugin file [AG6]: written when there is none, unchanged when it is the same, replaced when Hookwire
 * wrote it (its first line), and any other file of that name is refused and kept (it is someone's plugin). The
 * plugin runs in OpenCode's process, so `--serve` does not apply.
 */
function openCodePlugin(t: InstallTarget, existing: string | null): MergeResult {
  const file = OPENCODE_PLUGIN_FILE;
  if (t.serve !== undefined) return { ok: false, file, reason: 'OpenCode runs Hookwire in its own process (a plugin); --serve does not apply to it' };
  const text = openCodePluginFile(t.pipeline);
  if (existing === null) return { ok: true, file, text, changed: true };
  if (existing === text) return { ok: true, file, text, changed: false };
  if (!existing.startsWith(OPENCODE_PLUGIN_MARK)) return { ok: false, file, reason: `${file} exists and was not written by hookwire install: refused, left as it was` };
  return { ok: true, file, text, changed: true };
}

/**
 * What "Export for agent" shows [AG6]: the generated file (fresh, or merged into `existing`), the loss report, and
 * which other agents also run that file.
 */
export function exportForAgent(doc: PipelineShape, id: AgentId, t: InstallTarget, existing: string | null = null): { config: MergeResult; losses: LossItem[]; alsoRunBy: string[] } {
  return { config: mergeConfig(id, doc, t, existing), losses: lossReport(doc, AGENT_CONTRACTS.get(id)!), alsoRunBy: alsoRunBy(id) };
}
