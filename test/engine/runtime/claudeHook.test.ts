import { describe, expect, it } from 'vitest';
import {
  CLAUDE_EVENTS, claudeFailClosedReply, claudeHookAnswer, claudeHookEvent, claudeHookFailClosed, claudeReply, toHttpAnswer, type ClaudeOutcome,
} from '../../../engine/runtime/index.ts';
import type { Decision, HookEvent, JsonObject } from '../../../engine/index.ts';
import { toCommandAnswer } from '../../../engine/runtime/claudeHook.ts';
import { claudeUnknownEventFailClosed } from '../../../engine/runtime/claudeUnknownEventFailClosed.ts';
import { HOOK_INPUTS, HOOK_NAMES, common, type HookName } from './claudeHookInputs.ts';

const at = { ts: '2026-03-01T10:00:00.000Z', seq: 7 };
const map = (input: unknown) => {
  const r = claudeHookEvent(input, at);
  if (!r.ok) throw new Error(r.reason);
  return r.event;
};
const outcome = (event: HookEvent, over: Partial<ClaudeOutcome> = {}): ClaudeOutcome => ({ decision: 'continue', reason: '', payload: event.payload, ...over });
const json = (a: { stdout: string }) => JSON.parse(a.stdout) as JsonObject & { hookSpecificOutput?: JsonObject };

// The output contract, written from the reference ("Decision control" table, "Exit code 2 behavior per event",
// "Add context for Claude" and each event's section), independently of engine/runtime/claudeEvents.ts.
const DECISION_BLOCK = ['UserPromptSubmit', 'UserPromptExpansion', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SubagentStop', 'ConfigChange', 'PreCompact'];
const EXIT2_ONLY = ['TeammateIdle', 'TaskCreated', 'TaskCompleted', 'WorktreeCreate'];
const CONTEXT_ONLY = ['SessionStart', 'Setup', 'SubagentStart'];
const ELICITATION = ['Elicitation', 'ElicitationResult'];
const NO_CONTROL = ['WorktreeRemove', 'Notification', 'SessionEnd', 'PostCompact', 'InstructionsLoaded', 'StopFailure', 'CwdChanged', 'DirectoryAdded', 'FileChanged', 'MessageDisplay', 'PermissionDenied'];
const PERMISSION = ['PreToolUse', 'PermissionRequest'];
const ADDITIONAL_CONTEXT = ['SessionStart', 'Setup', 'SubagentStart', 'UserPromptSubmit', 'UserPromptExpansion', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SubagentStop'];
const LIFECYCLE: Record<string, string> = {
  SessionStart: 'agent.start', UserPromptSubmit: 'input.received', PreToolUse: 'tool.before_call', PostToolUse: 'tool.after_call',
  PostToolUseFailure: 'tool.after_call', Stop: 'final_answer.before', SessionEnd: 'agent.end',
};

/** What a block (with `reason`) must look like on `hook`, per the reference. */
function expectBlocked(hook: string, a: ReturnType<typeof claudeHookAnswer>, reason: string | RegExp): void {
  const has = (text: unknown) => (typeof reason === 'string' ? expect(text).toBe(reason) : expect(text).toMatch(reason));
  if (EXIT2_ONLY.includes(hook)) {
    expect([a.exitCode, a.stdout]).toEqual([2, '']);
    has(a.stderr.trim());
    return;
  }
  expect(a.exitCode).toBe(0);
  const o = json(a);
  if (hook === 'PreToolUse') {
    expect(o.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    has(o.hookSpecificOutput!.permissionDecisionReason);
  } else if (hook === 'PermissionRequest') {
    expect(o.hookSpecificOutput).toMatchObject({ hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } });
    has((o.hookSpecificOutput!.decision as JsonObject).message);
  } else if (DECISION_BLOCK.includes(hook)) {
    expect(o.decision).toBe('block');
    has(o.reason);
  } else if (ELICITATION.includes(hook)) {
    expect(o.hookSpecificOutput).toEqual({ hookEventName: hook, action: 'decline' });
    // The decline carries the handler's reason, in the channel shown to the user [P12].
    expect(o.systemMessage).toMatch(/^Hookwire declined this (MCP server request|response to an MCP server): /);
    if (typeof reason === 'string') expect(o.systemMessage).toContain(reason);
  } else if (CONTEXT_ONLY.includes(hook)) {
    expect(o.continue).toBe(false);
    has(o.stopReason);
  } else {
    // No decision control: nothing can be blocked; the user is told (systemMessage), nothing is pretended.
    expect(NO_CONTROL).toContain(hook);
    expect(Object.keys(o)).toEqual(['systemMessage']);
    expect(o.systemMessage).toContain(typeof reason === 'string' ? reason : '');
  }
}

describe('claude-hook: input → event', () => {
  it('[P12] the contract groups cover every event of the reference exactly once, and the mapping knows each one', () => {
    const groups = [...DECISION_BLOCK, ...EXIT2_ONLY, ...CONTEXT_ONLY, ...ELICITATION, ...NO_CONTROL, ...PERMISSION];
    expect([...groups].sort()).toEqual([...HOOK_NAMES].sort());
    expect([...CLAUDE_EVENTS.keys()].sort()).toEqual([...HOOK_NAMES].sort());
  });

  it('[P12] every event maps to its Hookwire type; every input field reaches the payload or meta, common fields go to meta', () => {
    for (const hook of HOOK_NAMES) {
      const input = HOOK_INPUTS[hook] as JsonObject;
      const e = map(input);
      expect(e.type, hook).toBe(LIFECYCLE[hook] ?? `claude.${hook.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`);
      expect(e.trace_id).toBe('abc123');
      for (const [k, v] of Object.entries(input)) {
        const where = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name', 'agent_id', 'agent_type', 'effort', 'prompt_id'].includes(k) ? e.meta! : e.payload;
        expect(where[k], `${hook}.${k}`).toEqual(v);
      }
    }
    const stop = map(HOOK_INPUTS.Stop);
    expect(stop.payload).toMatchObject({ text: 'All done.', stop_hook_active: false, session_crons: [{ id: 'cron-001' }], background_tasks: [{ type: 'shell' }] });
    expect(stop.meta).toMatchObject({ effort: { level: 'high' } });
    expect(map(HOOK_INPUTS.PostToolUseFailure).payload).toMatchObject({ tool_response: 'Command exited with non-zero status code 1', is_error: true, is_interrupt: false, duration_ms: 4187 });
    expect(map(HOOK_INPUTS.PostToolUse).payload).toMatchObject({ is_error: false, duration_ms: 12 });
    expect(map(HOOK_INPUTS.PreToolUse).event_id).toBe('cc:toolu_01ABC123:before');
    expect(map(HOOK_INPUTS.UserPromptSubmit).event_id).toBe('cc:abc123:7:UserPromptSubmit');
  });

  it('[P12] a subagent call carries agent_id and agent_type in meta; prompt_id too; a newer, unknown field is kept', () => {
    const e = map({ ...HOOK_INPUTS.PreToolUse, agent_id: 'agent-9', agent_type: 'security-reviewer', prompt_id: '550e8400', brand_new_field: { x: 1 } });
    expect(e.meta).toMatchObject({ agent_id: 'agent-9', agent_type: 'security-reviewer', prompt_id: '550e8400' });
    expect(e.payload.brand_new_field).toEqual({ x: 1 });
    const unknown = map({ ...common, hook_event_name: 'FutureEvent', whatever: [1, 2] });
    expect(unknown).toMatchObject({ type: 'claude.future_event', payload: { whatever: [1, 2] } });
  });

  it('[P12][V8] hook_event_name constructor, toString, __proto__ are unknown names like any other', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const e = map(JSON.parse(`{"hook_event_name":${JSON.stringify(name)},"session_id":"s"}`));
      expect(typeof e.type).toBe('string');
      expect(e.type).toBe(`claude.${name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`);
      const a = claudeHookAnswer(name, e, outcome(e, { decision: 'block_action', reason: 'no' }));
      expect(a).toEqual({ exitCode: 2, stdout: '', stderr: 'no\n' });
    }
  });

  it('[P12] malformed input for each event is refused, naming the field (the adapter then fails closed)', () => {
    const cases: [unknown, string][] = [
      ['not json at all', 'expected a JSON object on stdin, got string'],
      [null, 'expected a JSON object on stdin, got null'],
      [[HOOK_INPUTS.PreToolUse], 'expected a JSON object on stdin, got a list'],
      [{ session_id: 's' }, 'hook_event_name is missing or not an event name'],
      [{ hook_event_name: 'Pre Tool Use' }, 'hook_event_name is missing or not an event name'],
      [{ hook_event_name: 42 }, 'hook_event_name is missing or not an event name'],
    ];
    for (const [input, reason] of cases) expect(claudeHookEvent(input, at)).toMatchObject({ ok: false, reason });
    const required: Record<string, Record<string, string>> = {
      PreToolUse: { tool_name: 'string', tool_input: 'object' }, PermissionRequest: { tool_name: 'string', tool_input: 'object' },
      PermissionDenied: { tool_name: 'string', tool_input: 'object' }, PostToolUse: { tool_name: 'string', tool_input: 'object' },
      PostToolUseFailure: { tool_name: 'string', tool_input: 'object' }, UserPromptSubmit: { prompt: 'string' },
      UserPromptExpansion: { prompt: 'string', command_name: 'string' }, PostToolBatch: { tool_calls: 'array' }, Notification: { message: 'string' },
      MessageDisplay: { delta: 'string' }, TaskCreated: { task_id: 'string' }, TaskCompleted: { task_id: 'string' }, InstructionsLoaded: { file_path: 'string' },
      ConfigChange: { source: 'string' }, DirectoryAdded: { directory: 'string' }, FileChanged: { file_path: 'string' }, WorktreeCreate: { name: 'string' },
      WorktreeRemove: { worktree_path: 'string' }, Elicitation: { mcp_server_name: 'string' }, ElicitationResult: { mcp_server_name: 'string' },
    };
    for (const hook of HOOK_NAMES) {
      for (const [field, type] of Object.entries(required[hook] ?? {})) {
        const without = { ...(HOOK_INPUTS[hook] as JsonObject) };
        delete without[field];
        const wrong = { ...(HOOK_INPUTS[hook] as JsonObject), [field]: type === 'string' ? 7 : 'text' };
        for (const bad of [without, wrong]) {
          const r = claudeHookEvent(bad, at);
          expect(r.ok, `${hook} without ${field}`).toBe(false);
          if (!r.ok) expect(r.reason).toMatch(new RegExp(`^${hook}: ${field} is missing or not a`));
          // …and the adapter's answer to it blocks the way the event blocks.
          const fail = claudeHookFailClosed(r.ok ? '' : r.reason, hook);
          if (hook === 'PermissionRequest') {
            expect(fail.exitCode).toBe(0);
            expect(json(fail).hookSpecificOutput).toMatchObject({ hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: expect.stringMatching(/tool_/) } });
          } else expect([fail.exitCode, fail.stderr]).toEqual([2, expect.stringMatching(/failing closed/)]);
        }
      }
    }
  });

  it('[P12][V8] keys such as __proto__ in a tool input are names', () => {
    const input = JSON.parse('{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"__proto__":{"polluted":true}}}');
    const e = map(input);
    expect(Object.keys(e.payload.tool_input as object)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('claude-hook: every event × every decision → the documented output', () => {
  const decisions: Decision[] = ['continue', 'stop_propagation', 'ask', 'block_action', 'terminate'];

  it.each(HOOK_NAMES)('[P12][D9][H11] %s', (hook: HookName) => {
    const e = map(HOOK_INPUTS[hook]);
    for (const decision of decisions) {
      const a = claudeHookAnswer(hook, e, outcome(e, { decision, reason: 'why' }));
      if (decision === 'continue' || decision === 'stop_propagation') {
        expect(a, `${hook} ${decision}`).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      } else if (decision === 'block_action') {
        expectBlocked(hook, a, 'why');
      } else if (decision === 'terminate') {
        if (EXIT2_ONLY.includes(hook) || NO_CONTROL.includes(hook) || CONTEXT_ONLY.includes(hook)) expect(json(a)).toEqual({ continue: false, stopReason: 'why' });
        else {
          expectBlocked(hook, a, 'why');
          expect(json(a)).toMatchObject({ continue: false, stopReason: 'why' });
          if (hook === 'PermissionRequest') expect(json(a).hookSpecificOutput!.decision).toMatchObject({ behavior: 'deny', interrupt: true });
        }
      } else if (hook === 'PreToolUse') {
        expect(json(a)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'why' } });
      } else if (hook === 'PermissionRequest' || hook === 'Elicitation') {
        // No output: Claude Code's own dialog asks the person.
        expect(a).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      } else {
        // Nobody can be asked on this event: the ASK is denied (fail closed), the way the event blocks.
        expectBlocked(hook, a, /approval required \(why\); Claude Code cannot ask for approval/);
      }
    }
    // add_context: additionalContext where the reference offers it, else systemMessage; several texts in order.
    const c = claudeHookAnswer(hook, e, outcome(e, { context: ['first', 'second'] }));
    if (ADDITIONAL_CONTEXT.includes(hook)) expect(json(c)).toEqual({ hookSpecificOutput: { hookEventName: hook, additionalContext: 'first\n\nsecond' } });
    else expect(json(c)).toEqual({ systemMessage: 'first\n\nsecond' });
  });

  it('[P12] rewrites: PreToolUse sends updatedInput with ask (never a silent allow; --allow-rewrites sends allow)', () => {
    const e = map(HOOK_INPUTS.PreToolUse);
    const payload = { ...e.payload, tool_input: { command: 'npm test -- --bail' } };
    const hso = { hookEventName: 'PreToolUse', permissionDecisionReason: 'tool input rewritten by the Hookwire pipeline', updatedInput: { command: 'npm test -- --bail' } };
    expect(json(claudeHookAnswer('PreToolUse', e, outcome(e, { payload })))).toEqual({ hookSpecificOutput: { ...hso, permissionDecision: 'ask' } });
    expect(json(claudeHookAnswer('PreToolUse', e, outcome(e, { payload, decision: 'stop_propagation' })))).toEqual({ hookSpecificOutput: { ...hso, permissionDecision: 'ask' } });
    expect(json(claudeHookAnswer('PreToolUse', e, outcome(e, { payload }), { allowRewrites: true }))).toEqual({ hookSpecificOutput: { ...hso, permissionDecision: 'allow' } });
    // ASK carries the rewritten input too, so the person confirms what will really run; a block drops it.
    expect(json(claudeHookAnswer('PreToolUse', e, outcome(e, { payload, decision: 'ask', reason: 'deploy?' })))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'deploy?', updatedInput: { command: 'npm test -- --bail' } },
    });
    expect(json(claudeHookAnswer('PreToolUse', e, outcome(e, { payload, decision: 'block_action', reason: 'no' }))).hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' });
  });

  it('[P12] rewrites: PermissionRequest can carry updatedInput only by allowing, so it denies unless --allow-rewrites', () => {
    const e = map(HOOK_INPUTS.PermissionRequest);
    const payload = { ...e.payload, tool_input: { command: 'npm run lint' } };
    expectBlocked('PermissionRequest', claudeHookAnswer('PermissionRequest', e, outcome(e, { payload })), /rewrote the tool input/);
    expect(json(claudeHookAnswer('PermissionRequest', e, outcome(e, { payload }), { allowRewrites: true }))).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'npm run lint' } } },
    });
    // An ASK with a rewrite cannot show the rewritten input in Claude Code's dialog: denied, even with --allow-rewrites.
    expectBlocked('PermissionRequest', claudeHookAnswer('PermissionRequest', e, outcome(e, { payload, decision: 'ask', reason: 'ok?' }), { allowRewrites: true }), /cannot show a rewritten input/);
  });

  it('[P12] rewrites: PostToolUse updatedToolOutput, MessageDisplay displayContent; a rewritten prompt blocks; other fields are not applied', () => {
    const post = map(HOOK_INPUTS.PostToolUse);
    expect(json(claudeHookAnswer('PostToolUse', post, outcome(post, { payload: { ...post.payload, tool_response: '[REDACTED]' } })))).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: '[REDACTED]' } });
    const md = map(HOOK_INPUTS.MessageDisplay);
    expect(json(claudeHookAnswer('MessageDisplay', md, outcome(md, { payload: { ...md.payload, delta: 'token=[REDACTED]\n' } })))).toEqual({ hookSpecificOutput: { hookEventName: 'MessageDisplay', displayContent: 'token=[REDACTED]\n' } });
    for (const hook of ['UserPromptSubmit', 'UserPromptExpansion'] as const) {
      const e = map(HOOK_INPUTS[hook]);
      expectBlocked(hook, claudeHookAnswer(hook, e, outcome(e, { payload: { ...e.payload, prompt: '[REDACTED]' } })), /cannot replace it/);
    }
    const n = map(HOOK_INPUTS.Notification);
    expect(claudeHookAnswer('Notification', n, outcome(n, { payload: { ...n.payload, message: 'x' } }))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('[P12] PreCompact: BLOCK and TERMINATE stop compaction with decision "block" (continue: false alone is discarded there)', () => {
    const e = map(HOOK_INPUTS.PreCompact);
    expect(json(claudeHookAnswer('PreCompact', e, outcome(e, { decision: 'block_action', reason: 'keep context' })))).toEqual({ decision: 'block', reason: 'keep context' });
    expect(json(claudeHookAnswer('PreCompact', e, outcome(e, { decision: 'terminate', reason: 'over' })))).toEqual({ decision: 'block', reason: 'over', continue: false, stopReason: 'over' });
  });

  it('[P12] a block with context: context travels beside the block (and in stderr where exit 2 is the only block)', () => {
    const e = map(HOOK_INPUTS.PreToolUse);
    expect(json(claudeHookAnswer('PreToolUse', e, outcome(e, { decision: 'block_action', reason: 'no', context: ['prod is frozen'] })))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no', additionalContext: 'prod is frozen' },
    });
    const t = map(HOOK_INPUTS.TaskCreated);
    expect(claudeHookAnswer('TaskCreated', t, outcome(t, { decision: 'block_action', reason: 'no ticket', context: ['use [TICKET-n]'] }))).toEqual({ exitCode: 2, stdout: '', stderr: 'no ticket\n\nuse [TICKET-n]\n' });
  });

  it('[P14] the reply says who answers an ASK: Claude Code’s prompt (deferred) or nobody (denied)', () => {
    const pre = map(HOOK_INPUTS.PreToolUse);
    expect(claudeReply('PreToolUse', pre, outcome(pre, { decision: 'ask', reason: 'r' })).approval).toMatchObject({ answer: 'deferred', by: 'host' });
    const stop = map(HOOK_INPUTS.Stop);
    expect(claudeReply('Stop', stop, outcome(stop, { decision: 'ask', reason: 'r' })).approval).toMatchObject({ answer: 'deny', by: 'no_approver' });
    expect(claudeReply('Stop', stop, outcome(stop, { decision: 'block_action', reason: 'r' })).approval).toBeNull();
  });
});

describe('claude-hook: transports and fail-closed answers', () => {
  it('[P12] the HTTP form is a 200 with the same JSON; an exit-2 block becomes continue: false (HTTP cannot block by status)', () => {
    const e = map(HOOK_INPUTS.PreToolUse);
    const deny = toHttpAnswer(claudeReply('PreToolUse', e, outcome(e, { decision: 'block_action', reason: 'no' })));
    expect(deny.status).toBe(200);
    expect(JSON.parse(deny.body)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    expect(toHttpAnswer(claudeReply('PreToolUse', e, outcome(e)))).toEqual({ status: 200, body: '' });
    const t = map(HOOK_INPUTS.TeammateIdle);
    expect(JSON.parse(toHttpAnswer(claudeReply('TeammateIdle', t, outcome(t, { decision: 'block_action', reason: 'lint first' }))).body)).toEqual({ continue: false, stopReason: 'lint first' });
  });

  it('[P12] fail closed: exit 2 for a command, except PermissionRequest (its decision object); over HTTP, the event’s block plus continue: false', () => {
    expect(claudeHookFailClosed('stdin is not JSON')).toEqual({ exitCode: 2, stdout: '', stderr: 'hookwire claude-hook: stdin is not JSON (failing closed)\n' });
    const pr = claudeHookFailClosed('tool_name is missing', 'PermissionRequest');
    expect(pr.exitCode).toBe(0);
    expect(json(pr)).toEqual({
      continue: false, stopReason: 'hookwire claude-hook: tool_name is missing (failing closed)',
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'hookwire claude-hook: tool_name is missing (failing closed)', interrupt: true } },
    });
    expect(JSON.parse(toHttpAnswer(claudeFailClosedReply('PreToolUse', 'down')).body)).toMatchObject({ continue: false, hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.parse(toHttpAnswer(claudeFailClosedReply('PreCompact', 'down')).body)).toMatchObject({ decision: 'block', continue: false });
    expect(JSON.parse(toHttpAnswer(claudeFailClosedReply(null, 'down')).body)).toEqual({ continue: false, stopReason: 'hookwire claude-hook: down (failing closed)' });
  });

  it('[P12] the forwarding command\'s fail-closed answer (no event known, without the Claude Code tables) is the command answer of claudeFailClosedReply(null)', () => {
    for (const reason of ['no answer from http://127.0.0.1:1 within 5 ms', '', 'line\nbreak']) {
      expect(claudeUnknownEventFailClosed(reason)).toEqual(toCommandAnswer(claudeFailClosedReply(null, reason)));
    }
  });
});

describe('[P12] one mapping per event (serve maps a hook input once)', () => {
  it('an event that claudeEventNumbered says is not numbered is the same event at every number; a numbered one differs only in its id', async () => {
    const { claudeEventNumbered } = await import('../../../engine/runtime/claudeHook.ts');
    const inputs: unknown[] = [...HOOK_NAMES.map((h) => HOOK_INPUTS[h]), { ...HOOK_INPUTS.PreToolUse, tool_use_id: '' }, { ...HOOK_INPUTS.PostToolUse, tool_use_id: 7 }, { ...HOOK_INPUTS.SessionStart, tool_use_id: 'toolu_x' }];
    let numbered = 0;
    for (const input of inputs) {
      const one = claudeHookEvent(input, { ts: at.ts, seq: 1 });
      const later = claudeHookEvent(input, { ts: at.ts, seq: 42 });
      if (!one.ok || !later.ok) throw new Error('a fixture input was refused');
      if (claudeEventNumbered(one.event)) {
        numbered++;
        expect(later.event.event_id).not.toBe(one.event.event_id);
        expect({ ...later.event, event_id: '' }).toEqual({ ...one.event, event_id: '' });
      } else expect(later.event).toEqual(one.event);
    }
    // Both kinds were seen: tool events with a tool_use_id are not numbered, the others are.
    expect(numbered).toBeGreaterThan(0);
    expect(numbered).toBeLessThan(inputs.length);
  });
});
