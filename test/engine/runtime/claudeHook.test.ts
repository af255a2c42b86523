import { describe, expect, it } from 'vitest';
import { claudeHookAnswer, claudeHookEvent, claudeHookFailClosed } from '../../../engine/runtime/index.ts';
import type { HookEvent, JsonObject } from '../../../engine/index.ts';
import { HOOK_INPUTS, HOOK_NAMES, common } from './claudeHookInputs.ts';

const at = { ts: '2026-03-01T10:00:00.000Z', seq: 7 };
const map = (input: unknown) => {
  const r = claudeHookEvent(input, at);
  if (!r.ok) throw new Error(r.reason);
  return r.event;
};
const decide = (event: HookEvent, over: Partial<{ decision: 'continue' | 'stop_propagation' | 'block_action' | 'terminate'; reason: string; payload: JsonObject; blocked: boolean }> = {}) => ({
  decision: 'continue' as const, reason: '', payload: event.payload, blocked: false, ...over,
});

describe('claude-hook: input → event', () => {
  it('[P12] maps every hook event to its lifecycle event with the canonical payload; common fields go to meta', () => {
    const got = Object.fromEntries(Object.entries(HOOK_INPUTS).map(([k, v]) => [k, map(v)] as const));
    expect(got.PreToolUse).toEqual({
      event_id: 'cc:toolu_01ABC123:before', trace_id: 'abc123', agent_id: 'claude-code', type: 'tool.before_call', ts: at.ts,
      payload: { tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run the tests' }, tool_use_id: 'toolu_01ABC123' },
      meta: { ...common, hook_event_name: 'PreToolUse' },
    });
    expect(got.PostToolUse).toMatchObject({ event_id: 'cc:toolu_01ABC123:after', type: 'tool.after_call', payload: { tool_name: 'Write', tool_response: { filePath: '/path/to/file.txt', success: true }, is_error: false } });
    expect(got.PostToolUseFailure).toMatchObject({ type: 'tool.after_call', payload: { tool_response: 'Command exited with non-zero status code 1', is_error: true } });
    expect(got.UserPromptSubmit).toMatchObject({ event_id: 'cc:abc123:7:UserPromptSubmit', type: 'input.received', payload: { prompt: 'Write a function to calculate the factorial of a number' } });
    expect(got.Stop).toMatchObject({ type: 'final_answer.before', payload: { text: 'All done.', stop_hook_active: false } });
    expect(got.SessionStart).toMatchObject({ type: 'agent.start', payload: { source: 'startup', model: 'claude-sonnet-4-6', session_id: 'abc123', cwd: '/home/u/p' } });
    expect(got.SessionEnd).toMatchObject({ type: 'agent.end', payload: { status: 'prompt_input_exit', reason: 'prompt_input_exit' } });
    expect(got.Notification).toMatchObject({ type: 'claude.notification', payload: { message: 'Claude needs your permission to use Bash' } });
  });

  it('[P12] refuses input it cannot map, saying why (the adapter then fails closed)', () => {
    const reasons = [
      'not json at all',
      null,
      [HOOK_INPUTS.PreToolUse],
      { session_id: 's' },
      { hook_event_name: 'Pre Tool Use' },
      { hook_event_name: 'PreToolUse', tool_input: {} },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: 'rm -rf /' },
      { hook_event_name: 'UserPromptSubmit', prompt: 42 },
    ].map((input) => {
      const r = claudeHookEvent(input, at);
      return r.ok ? 'accepted' : r.reason;
    });
    expect(reasons).toEqual([
      'expected a JSON object on stdin, got string',
      'expected a JSON object on stdin, got null',
      'expected a JSON object on stdin, got a list',
      'hook_event_name is missing or not an event name',
      'hook_event_name is missing or not an event name',
      'PreToolUse: tool_name is missing or not a string',
      'PreToolUse: tool_input is missing or not an object',
      'UserPromptSubmit: prompt is missing or not a string',
    ]);
  });

  it('[P12][V8] keys such as __proto__ in a tool input are names', () => {
    const input = JSON.parse('{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"__proto__":{"polluted":true}}}');
    const e = map(input);
    expect(Object.keys(e.payload.tool_input as object)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('claude-hook: decision → answer', () => {
  const parse = (a: { stdout: string }) => JSON.parse(a.stdout);

  it('[P12] PreToolUse: a block is a deny permission decision with the reason', () => {
    const e = map(HOOK_INPUTS.PreToolUse);
    const a = claudeHookAnswer('PreToolUse', e, decide(e, { decision: 'block_action', reason: 'no tests today', blocked: true }));
    expect(a.exitCode).toBe(0);
    expect(parse(a)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no tests today' } });
  });

  it('[P12] PreToolUse: a rewrite of tool_input is updatedInput (with allow, which Claude Code needs to apply it)', () => {
    const e = map(HOOK_INPUTS.PreToolUse);
    const payload = { ...e.payload, tool_input: { command: 'npm test -- --bail' } };
    expect(parse(claudeHookAnswer('PreToolUse', e, decide(e, { payload })))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'tool input rewritten by the Hookwire pipeline', updatedInput: { command: 'npm test -- --bail' } },
    });
  });

  it('[P12] PostToolUse, Stop and UserPromptSubmit blocks are decision: "block"; a PostToolUse rewrite is updatedToolOutput', () => {
    for (const hook of ['PostToolUse', 'Stop', 'UserPromptSubmit'] as const) {
      const e = map(HOOK_INPUTS[hook]);
      const a = claudeHookAnswer(hook, e, decide(e, { decision: 'block_action', reason: `no ${hook}`, blocked: true }));
      expect([a.exitCode, parse(a)]).toEqual([0, { decision: 'block', reason: `no ${hook}` }]);
    }
    const e = map(HOOK_INPUTS.PostToolUse);
    const payload = { ...e.payload, tool_response: '[REDACTED]' };
    expect(parse(claudeHookAnswer('PostToolUse', e, decide(e, { payload })))).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: '[REDACTED]' } });
  });

  it('[P12] terminate is continue: false with a stop reason (PreToolUse also denies the call)', () => {
    const stop = map(HOOK_INPUTS.Stop);
    expect(parse(claudeHookAnswer('Stop', stop, decide(stop, { decision: 'terminate', reason: 'budget spent', blocked: true })))).toEqual({ continue: false, stopReason: 'budget spent' });
    const pre = map(HOOK_INPUTS.PreToolUse);
    expect(parse(claudeHookAnswer('PreToolUse', pre, decide(pre, { decision: 'terminate', reason: 'budget spent', blocked: true })))).toEqual({
      continue: false, stopReason: 'budget spent', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'budget spent' },
    });
  });

  it('[P12] continue (and stop_propagation) is exit 0 with no output: no objection', () => {
    for (const hook of HOOK_NAMES) {
      const e = map(HOOK_INPUTS[hook]);
      expect(claudeHookAnswer(hook, e, decide(e))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      expect(claudeHookAnswer(hook, e, decide(e, { decision: 'stop_propagation', reason: 'enough' }))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    }
  });

  it('[P12] SessionStart blocks with continue: false; events without a JSON block exit 2 with the reason on stderr', () => {
    const s = map(HOOK_INPUTS.SessionStart);
    expect(parse(claudeHookAnswer('SessionStart', s, decide(s, { decision: 'block_action', reason: 'not here', blocked: true })))).toEqual({ continue: false, stopReason: 'not here' });
    const n = map(HOOK_INPUTS.Notification);
    expect(claudeHookAnswer('Notification', n, decide(n, { decision: 'block_action', reason: 'quiet', blocked: true }))).toEqual({ exitCode: 2, stdout: '', stderr: 'quiet\n' });
  });

  it('[P12] the fail-closed answer is exit 2 with the reason on stderr', () => {
    expect(claudeHookFailClosed('stdin is not JSON')).toEqual({ exitCode: 2, stdout: '', stderr: 'hookwire claude-hook: stdin is not JSON (failing closed: exit 2 blocks the action)\n' });
  });
});
