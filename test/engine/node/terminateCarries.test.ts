// [P8][P13] A TERMINATE in a `claude-hook --record` session carries to every later call, also when a call in
// between brings a tool result too large to record (9 MB): the case, where the next call went through.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_INPUTS } from '../runtime/claudeHookInputs.ts';
import { hookwire, tempDir } from './runCli.ts';

const PIPELINE = {
  format: 'hookwire.pipeline', version: 1, name: 'halt',
  nodes: [
    { id: 'before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'is-halt', kind: 'matcher', when: { 'payload.tool_input.command': { eq: 'halt' } } },
    { id: 'halt', kind: 'handler', name: 'Halt', order: 10, action: { type: 'terminate', reason: 'halted by policy' } },
  ],
  wires: [{ from: 'before', to: 'is-halt' }, { from: 'is-halt', to: 'halt' }],
};
const pre = (command: string, id: string) => JSON.stringify({ ...HOOK_INPUTS.PreToolUse, tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

describe('TERMINATE carries across claude-hook calls (real binary)', { timeout: 180_000 }, () => {
  it('[P8][P13] after a TERMINATE, a 9 MB tool result and the next call are both answered as terminated; the recording keeps the TERMINATE', async () => {
    const dir = tempDir({ 'p.json': JSON.stringify(PIPELINE) });
    const rec = join(dir, 'rec.jsonl');
    const p = join(dir, 'p.json');
    const halt = await hookwire(['claude-hook', p, '--record', rec], { stdin: pre('halt', 'toolu_1') });
    expect(halt.code).toBe(0);
    expect(halt.stdout).toContain('halted by policy');

    const big = JSON.stringify({ ...HOOK_INPUTS.PostToolUse, tool_name: 'Bash', tool_input: { command: 'cat big' }, tool_response: { stdout: 'x'.repeat(9 * 1024 * 1024) }, tool_use_id: 'toolu_2' });
    writeFileSync(join(dir, 'big.json'), big);
    const post = await hookwire(['claude-hook', p, '--record', rec], { stdin: big });
    // Too large to record or not, the session has ended: the answer stops Claude (continue: false) or fails closed.
    const postOut = `${post.stdout}${post.stderr}`;
    expect(post.code === 2 || /"continue":\s*false/.test(post.stdout), postOut.slice(0, 500)).toBe(true);

    const next = await hookwire(['claude-hook', p, '--record', rec], { stdin: pre('ls', 'toolu_3') });
    expect(next.code === 2 || /"permissionDecision":\s*"deny"/.test(next.stdout), `${next.stdout}${next.stderr}`.slice(0, 500)).toBe(true);
    expect(`${next.stdout}${next.stderr}`).toContain('halted by policy');
    const lines = readFileSync(rec, 'utf8').split('\n').filter(Boolean);
    expect(lines[1]).toContain('"decision":"terminate"');
  });
});
