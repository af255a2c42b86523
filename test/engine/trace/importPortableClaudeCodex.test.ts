import { describe, expect, it } from 'vitest';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { commandOfArgv } from '../../../engine/model/portableTool.ts';
import { FIXTURE, HAVE_FIXTURES, NO_FIXTURES_MESSAGE, fileName, readFixture } from '../../shared/fixtures.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { ofType } from './sessionImport.ts';

/*
 * [I13] Claude Code transcripts and Codex rollouts carry the portable fields too (#29: "one pipeline replays every
 * agent's sessions"): a rule on `payload.command` or `payload.tool` read nothing of either. Codex's rollout names the
 * tools the model called (openai/codex codex-rs/core/src/tools/spec.rs, read through okwinds/codex
 * docs/workdocjcl/spec/05_Integrations/TOOLS_SCHEMA_REFERENCE.md at 7210e806): `shell` {command: argv},
 * `shell_command` {command}, `exec_command` {cmd}, a freeform `apply_patch` (custom_tool_call), `read_file`
 * {file_path}, `web_search_call`; an argv command is read as Codex shows it (codex-rs/tui/src/exec_command.rs
 * strip_bash_lc_and_escape). The rollout lines below are our own, written from openai/codex
 * codex-rs/protocol/src/models.rs ResponseItem.
 */

const at = (s: number) => `2026-08-02T10:00:${String(s).padStart(2, '0')}.000Z`;
const item = (s: number, payload: object) => JSON.stringify({ timestamp: at(s), type: 'response_item', payload });
const ROLLOUT = [
  JSON.stringify({ timestamp: at(0), type: 'session_meta', payload: { id: 'r-1', cwd: '/w', cli_version: '0.60.0', originator: 'codex_cli_rs' } }),
  item(1, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Clean the build and fix the import' }] }),
  item(2, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'rm -rf build', workdir: '/w' }), call_id: 'c1' }),
  item(2, { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test', yield_time_ms: 1000 }), call_id: 'c2' }),
  item(2, { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['git', 'commit', '-m', 'wip: it\'s done'] }), call_id: 'c3' }),
  item(3, { type: 'function_call_output', call_id: 'c1', output: 'Exit code: 0\nOutput:\n' }),
  item(3, { type: 'function_call_output', call_id: 'c2', output: 'Process exited with code 1\n1 failing' }),
  item(3, { type: 'function_call_output', call_id: 'c3', output: JSON.stringify({ output: '', metadata: { exit_code: 0 } }) }),
  item(4, { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-import a from "./a"\n+import a from "./a.js"\n*** End Patch', call_id: 'c4' }),
  item(4, { type: 'function_call', name: 'read_file', arguments: JSON.stringify({ file_path: '/w/src/a.ts' }), call_id: 'c5' }),
  item(4, { type: 'function_call', name: 'mcp__github__create_issue', arguments: JSON.stringify({ title: 'flaky' }), call_id: 'c6' }),
  item(5, { type: 'custom_tool_call_output', call_id: 'c4', output: 'Success. Updated the following files:\nM src/app.ts' }),
  item(5, { type: 'function_call_output', call_id: 'c5', output: 'export default 1' }),
  item(5, { type: 'function_call_output', call_id: 'c6', output: '{"number": 7}' }),
  // The freeform text of a shell result (codex-rs/core/src/tools/mod.rs format_exec_output_for_model_freeform), and its
  // later header and structured form (`Shell exit code`, `metadata.shell_exit_code`); a program that prints
  // "Exit code: 1" in its output with the header saying 0 has not failed.
  item(6, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'false' }), call_id: 'c7' }),
  item(6, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'make' }), call_id: 'c8' }),
  item(6, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'make test' }), call_id: 'c9' }),
  item(6, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'cat log' }), call_id: 'c10' }),
  item(7, { type: 'function_call_output', call_id: 'c7', output: 'Exit code: 1\nWall time: 0 seconds\nOutput:\n' }),
  item(7, { type: 'function_call_output', call_id: 'c8', output: 'Execution outcome: completed\nShell exit code: 2\nWall time: 1.2 seconds\nOutput:\nmake: *** [all] Error 2' }),
  item(7, { type: 'function_call_output', call_id: 'c9', output: JSON.stringify({ output: 'FAIL', metadata: { shell_exit_code: 1, duration_seconds: 0.4 } }) }),
  item(7, { type: 'function_call_output', call_id: 'c10', output: 'Exit code: 0\nWall time: 0 seconds\nOutput:\nExit code: 1' }),
  // An MCP tool as earlier versions named it, `<server>__<tool>` without the `mcp__` prefix.
  item(8, { type: 'function_call', name: 'github__list_issues', arguments: '{}', call_id: 'c11' }),
  item(9, { type: 'function_call_output', call_id: 'c11', output: '[]' }),
].join('\n');

describe('portable fields of Claude Code and Codex sessions [I13]', () => {
  it('[I9][I13] Codex: each tool of the rollout by kind, the command as Codex shows it, the patch\'s file; a failed shell call by its exit-code header', () => {
    const r = importTrace(ROLLOUT, { fileName: 'rollout-2026-08-02T10-00-00-r-1.jsonl' });
    expect(r.format).toBe('codex-rollout');
    const before = ofType(r.trace!, 'tool.before_call').map((e) => [e.payload.tool_name, e.payload.tool, e.payload.command ?? e.payload.file_path ?? null]);
    expect(before).toEqual([
      ['shell_command', 'shell', 'rm -rf build'], ['exec_command', 'shell', 'npm test'], ['shell', 'shell', "git commit -m 'wip: it'\"'\"'s done'"],
      ['apply_patch', 'edit', 'src/app.ts'], ['read_file', 'read', '/w/src/a.ts'], ['mcp__github__create_issue', 'mcp', null],
      ['shell_command', 'shell', 'false'], ['shell_command', 'shell', 'make'], ['shell_command', 'shell', 'make test'], ['shell_command', 'shell', 'cat log'],
      ['github__list_issues', 'mcp', null],
    ]);
    // The result carries them too, so a rule on tool.after_call reads the same call.
    expect(ofType(r.trace!, 'tool.after_call').map((e) => [e.payload.tool, e.payload.is_error])).toEqual([
      ['shell', false], ['shell', true], ['shell', false], ['edit', false], ['read', false], ['mcp', false],
      ['shell', true], ['shell', true], ['shell', true], ['shell', false], ['mcp', false],
    ]);
  });

  it('[I9][I13] the fixture rollout: `shell` {command: ["bash", "-lc", …]} is the script', () => {
    const r = importTrace(readFormat('codex-rollout.jsonl'), { fileName: 'codex-rollout.jsonl' });
    expect(ofType(r.trace!, 'tool.before_call').map((e) => [e.payload.tool, e.payload.command])).toEqual([['shell', 'ls'], ['shell', 'rm -rf build']]);
  });

  it('[AG2] an argument vector as text: a shell wrapper\'s script, else the words quoted as a POSIX shell reads them', () => {
    expect(commandOfArgv(['bash', '-lc', 'rm -rf build && ls'])).toBe('rm -rf build && ls');
    expect(commandOfArgv(['/bin/zsh', '-c', 'echo hi'])).toBe('echo hi');
    expect(commandOfArgv(['ls', '-la', 'my dir'])).toBe("ls -la 'my dir'");
    expect(commandOfArgv(['bash', '-lc', 'a', 'b'])).toBe('bash -lc a b');
    expect(commandOfArgv(['echo', ''])).toBe("echo ''");
  });

  it.skipIf(!HAVE_FIXTURES)(`[I4][I13] Claude Code, the real tool-heavy transcript: every tool call has its kind, a Bash call its command ${HAVE_FIXTURES ? '' : `(skipped: ${NO_FIXTURES_MESSAGE})`}`, () => {
    const r = importTrace(readFixture(FIXTURE.ccHeavy), { fileName: fileName(FIXTURE.ccHeavy) });
    const calls = ofType(r.trace!, 'tool.before_call');
    expect(calls.length).toBeGreaterThan(0);
    for (const e of calls) expect(e.payload.tool, String(e.payload.tool_name)).not.toBe('other');
    const bash = calls.filter((e) => e.payload.tool_name === 'Bash');
    expect(bash.length).toBeGreaterThan(0);
    for (const e of bash) expect(e.payload).toMatchObject({ tool: 'shell', command: (e.payload.tool_input as { command: string }).command });
    for (const e of ofType(r.trace!, 'tool.after_call')) if (e.payload.tool_name !== 'unknown') expect(e.payload.tool).toBeDefined();
  });

  it('[I4][I13] Claude Code: a Bash call, a Read and an MCP call, before and after', () => {
    const rec = (o: object) => JSON.stringify({ sessionId: 's-cc', cwd: '/w', version: '2.1.300', timestamp: '2026-08-02T10:00:01.000Z', ...o });
    const lines = [
      rec({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Tidy up' } }),
      rec({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content: [
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf dist' } },
        { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '/w/.env' } },
        { type: 'tool_use', id: 't3', name: 'mcp__fetch__fetch', input: { url: 'https://example.com' } },
      ] } }),
      rec({ type: 'user', uuid: 'u2', parentUuid: 'a1', message: { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 't1', content: '' }, { type: 'tool_result', tool_use_id: 't2', content: 'X=1' }, { type: 'tool_result', tool_use_id: 't3', content: 'ok' },
      ] } }),
    ];
    const r = importTrace(lines.join('\n'), { fileName: 's-cc.jsonl' });
    expect(r.format).toBe('claude-code');
    const fields = (type: string) => ofType(r.trace!, type).map((e) => [e.payload.tool, e.payload.command ?? e.payload.file_path ?? null]);
    const want = [['shell', 'rm -rf dist'], ['read', '/w/.env'], ['mcp', null]];
    expect(fields('tool.before_call')).toEqual(want);
    expect(fields('tool.after_call')).toEqual(want);
  });
});
