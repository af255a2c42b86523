import { describe, expect, it } from 'vitest';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, loadFixture, ofType } from './sessionImport.ts';

/*
 * Tool names and fields the agents write today that the importers read as `other`, or misread (#29 fidelity). The
 * fixtures are our own, written from each agent's current source:
 * - roo-code-native-edits.json: RooCodeInc/Roo-Code packages/types/src/tool.ts `toolNames` and
 *   src/core/prompts/tools/native-tools/edit_file_roo.ts {path, diff}, edit_file_grok.ts {file_path, old_string,
 *   new_string}, edit_file_codex.ts {patch} (commits 0126cb0b, 57a72ce0), search_replace.ts {file_path}; no mode line,
 *   so the edit tools alone name the agent.
 * - cline-native-tools.json: cline/cline src/shared/tools.ts ClineDefaultTool (commit 0a3eba34),
 *   src/core/prompts/system-prompt/tools/web_search.ts (its GENERIC variant is an XML tag with `query`, commit
 *   225aac81) and apply_patch.ts (`input`: the patch inside `apply_patch <<"EOF"`, commit 24ba2b25).
 * - opencode-export-patch.json: anomalyco/opencode packages/opencode/src/tool/apply_patch.ts {patchText} (commit
 *   024479bd), codesearch {query}, and session/message-v2.ts (commit 007a9409): an interrupted call is `status: error`
 *   with `metadata.interrupted` and the output it had, which toModelMessages sends the model.
 * - Gemini CLI (inline): packages/core/src/tools/tool-names.ts AGENT_TOOL_NAME `invoke_agent` (commit 5411f113).
 */

const ROO = 'roo-code-native-edits.json';
const CLINE = 'cline-native-tools.json';
const OPENCODE = 'opencode-export-patch.json';

const calls = (name: string, format: Parameters<typeof loadFixture>[1]) =>
  ofType(loadFixture(name, format).trace, 'tool.before_call').map((e) => [e.payload.tool_name, e.payload.tool, e.payload.file_path ?? null]);

describe('session tool names of the agents\' current versions [I13]', () => {
  it('[I14][I13] Roo Code\'s native edit variants are edits of their file, and they name the agent', () => {
    const { trace, problems } = loadFixture(ROO, 'cline');
    expect(problems).toEqual([]);
    expect(trace.header.agent_id).toBe('roo-code');
    expect(calls(ROO, 'cline')).toEqual([
      ['edit_file_roo', 'edit', 'src/a.ts'], ['edit_file_grok', 'edit', 'src/b.ts'], ['edit_file_codex', 'edit', 'src/c.ts'], ['search_replace', 'edit', 'src/b.ts'],
    ]);
    // Roo Code's `{"status":"error"}` result is a failure, whatever the tool.
    expect(ofType(trace, 'tool.after_call').map((e) => e.payload.is_error)).toEqual([false, true, false, false]);
  });

  it('[I14][I13] Cline\'s web_search (an XML tag) is a search and its apply_patch an edit of the file its patch names', () => {
    const { trace } = loadFixture(CLINE, 'cline');
    expect(trace.header.agent_id).toBe('cline');
    expect(calls(CLINE, 'cline')).toEqual([['web_search', 'search', null], ['apply_patch', 'edit', 'src/retry.ts']]);
    expect(ofType(trace, 'tool.before_call')[0]?.payload.tool_input).toEqual({ query: 'p-retry default retries' });
    expect(ofType(trace, 'tool.after_call')[0]?.payload.tool_response).toMatch(/^1\. p-retry README/);
  });

  it('[I18][I13] OpenCode\'s apply_patch is an edit of its file, codesearch a search; an interrupted call keeps its output', () => {
    const { trace, problems } = loadFixture(OPENCODE, 'opencode');
    expect(problems).toEqual([]);
    expect(calls(OPENCODE, 'opencode')).toEqual([['codesearch', 'search', null], ['apply_patch', 'edit', 'src/retry.ts'], ['bash', 'shell', null]]);
    const bash = ofType(trace, 'tool.after_call')[2]?.payload;
    expect(bash).toMatchObject({ tool_response: '12 pass\n0 fail (so far)', error: 'Tool execution aborted', interrupted: true, is_error: true, command: 'bun test' });
  });

  it('[I12][I13] Gemini CLI\'s invoke_agent is a task call', () => {
    const lines = [
      { sessionId: 's-inv', projectHash: 'my-project', startTime: '2026-08-01T10:00:00.000Z', kind: 'main' },
      { id: 'u1', timestamp: '2026-08-01T10:00:01.000Z', type: 'user', content: [{ text: 'Investigate the flaky test' }] },
      {
        id: 'g1', timestamp: '2026-08-01T10:00:02.000Z', type: 'gemini', content: '', model: 'gemini-3-pro',
        toolCalls: [{ id: 'call-a', name: 'invoke_agent', args: { agent_name: 'codebase_investigator', prompt: 'Why is retry.test.ts flaky?' }, status: 'success', timestamp: '2026-08-01T10:00:30.000Z', result: [{ functionResponse: { id: 'call-a', name: 'invoke_agent', response: { output: 'A shared timer.' } } }] }],
      },
    ];
    const r = importTrace(lines.map((l) => JSON.stringify(l)).join('\n'), { fileName: 'session-2026-08-01T10-00-s-inv.jsonl' });
    expect(r.format).toBe('gemini-cli');
    expect(ofType(r.trace!, 'tool.before_call')[0]?.payload).toMatchObject({ tool_name: 'invoke_agent', tool: 'task' });
  });

  it('[I3] order and ids', () => {
    for (const f of [ROO, CLINE, OPENCODE]) expectWellFormed(readFormat(f), f);
  });
});
