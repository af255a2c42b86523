// The size limits [V12] where input enters beside emit (test/engine/runtime/inputLimits.test.ts): trace
// lines, imports, the sandbox boundary, serve's JSON API and claude-hook. Each refuses with a problem that
// names the limit and the path; everything below the limits works.
import { describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { caseInput } from '../../shared/sandboxCases.ts';
import { hookwireInProcess, GUARD } from '../node/runCli.ts';
import { eventLine, OVERSIZED_PAYLOADS, TRACE_HEADER } from './corpus.ts';

const MESSAGES = { string: /payload\.out is a string of 4194305 characters/, keys: /payload\.env has 100001 entries/, items: /payload\.lines has 100001 entries/ } as const;

describe('[V12] trace lines past a size limit are dropped with a problem naming it', () => {
  for (const kind of ['string', 'keys', 'items'] as const) {
    it(`[T6][V12] ${kind}`, () => {
      const r = readTrace([TRACE_HEADER, eventLine('big', OVERSIZED_PAYLOADS[kind]()), eventLine('ok', '{"tool_name":"Bash"}')].join('\n'));
      expect(r.status).toBe('partial');
      expect(r.events.map((e) => e.event_id)).toEqual(['ok']);
      expect(r.problems[0]).toMatchObject({ code: 'too_large', line: 2, message: expect.stringMatching(MESSAGES[kind]) });
    });
  }
});

describe('[I1][V12] imports drop an event past a size limit and keep the rest', () => {
  it('[V12] a Codex rollout whose tool output is a 5 Mi-character string', () => {
    const rec = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-03-01T10:00:00.000Z', type, payload });
    const text = [
      rec('session_meta', { id: 's1', cwd: '/w', cli_version: '1' }),
      rec('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }),
      rec('response_item', { type: 'function_call_output', call_id: 'c1', output: 'x'.repeat(5 * 1024 * 1024) }),
    ].join('\n');
    const r = importTrace(text, { format: 'codex-rollout' });
    if (!r.trace) throw new Error(JSON.stringify(r.problems));
    expect(r.problems.some((p) => p.code === 'too_large' && /is a string of \d+ characters, past the limit/.test(p.message))).toBe(true);
    expect(r.trace.events.some((e) => e.type === 'tool.before_call')).toBe(true);
  });
});

describe('[S4][V12] the sandbox boundary', () => {
  it('[V12] an input with a string past the limit is refused before QuickJS as too_large; the next call runs', async () => {
    const box = await createNodeSandbox();
    try {
      const c = box.compile('export default (ctx) => block("saw " + Object.keys(ctx.payload).length)', { language: 'js', role: 'handler', name: 'h' });
      if (!c.ok) throw new Error(c.error.message);
      const limits = { timeoutMs: 1000, memoryBytes: 64 * 1024 * 1024 };
      const big = box.call(c.program, caseInput({ payload: { out: 'x'.repeat(4 * 1024 * 1024 + 1) } }), limits);
      expect(big).toMatchObject({ ok: false, error: { kind: 'too_large', message: expect.stringMatching(/ctx\.payload\.out is a string of 4194305 characters/) } });
      expect(box.call(c.program, caseInput({ payload: { a: 1 } }), limits)).toMatchObject({ ok: true, value: { decision: 'block_action', reason: 'saw 1' } });
    } finally {
      box.dispose();
    }
  });
});

describe('[P12][V9][V12] claude-hook fails closed on input past a limit', () => {
  it('[V9] a PreToolUse input 10k deep is denied (exit 2 or a deny), with the limit named, never a crash', async () => {
    const input = `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const r = await hookwireInProcess(['claude-hook', GUARD], input);
    expect(r.stderr).not.toMatch(/RangeError|internal error/);
    expect(r.code === 2 || /"permissionDecision":"deny"/.test(r.stdout)).toBe(true);
    expect(`${r.stdout}${r.stderr}`).toMatch(/levels deep/);
  });

  it('[V12] a PostToolUse whose tool_response is a 5 Mi-character string is answered as a block, naming the limit', async () => {
    const input = JSON.stringify({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'a' }, tool_response: 'x'.repeat(5 * 1024 * 1024) });
    const r = await hookwireInProcess(['claude-hook', GUARD], input);
    expect(r.stderr).not.toMatch(/RangeError|internal error/);
    expect(`${r.stdout}${r.stderr}`).toMatch(/past the limit of 4194304/);
  });
});
