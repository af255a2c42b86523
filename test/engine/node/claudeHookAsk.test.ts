import { pipelineVersionOf } from '../../../engine/trace/pipelineVersion.ts';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { compilePipeline } from '../../../engine/compile/compilePipeline.ts';
import { replaySteps } from '../../../engine/replay/replaySteps.ts';
import { readTrace } from '../../../engine/trace/index.ts';
import { answerDeadlineMs, configuredTimeout } from '../../../engine/node/commands/claudeHookCommand.ts';
import { HOOK_INPUTS } from '../runtime/claudeHookInputs.ts';
import { GUARD, hookwire, hookwireInProcess, spawnHookwire, tempDir, type CliRun } from './runCli.ts';

// A pipeline that asks before `git push`, adds context to prompts and to every tool call.
const ASKING = JSON.stringify({
  format: 'hookwire.pipeline', version: 1, name: 'asking',
  nodes: [
    { id: 'tools', kind: 'event', pattern: 'tool.before_call' },
    { id: 'prompts', kind: 'event', pattern: 'input.received' },
    { id: 'push', kind: 'matcher', tools: ['Bash'], when: { 'payload.tool_input.command': { prefix: 'git push' } } },
    { id: 'ask-push', kind: 'handler', name: 'Ask before push', action: { type: 'ask', reason: 'push to the remote? ({{payload.tool_input.command}})' } },
    { id: 'branch', kind: 'handler', name: 'Branch note', order: 200, action: { type: 'add_context', text: 'The current branch is main.' } },
  ],
  wires: [{ from: 'tools', to: 'push' }, { from: 'push', to: 'ask-push' }, { from: 'prompts', to: 'branch' }, { from: 'tools', to: 'branch' }],
});

/** The real binary with stdin left open (a hook input that never finishes arriving). */
function hangingHook(args: string[]): Promise<CliRun> {
  return spawnHookwire(args, (stdin) => stdin.write('{"hook_event_name": "PreToolUse", '));
}

describe('claude-hook: ASK, context and the deadline (real binary)', { timeout: 120_000 }, () => {
  it('[P12][D9][P14] a PreToolUse ASK is permissionDecision "ask"; the recording holds the answer as deferred to Claude Code; replaying it asks nobody', async () => {
    const dir = tempDir({ 'asking.json': ASKING });
    const record = join(dir, 's.hwtrace.jsonl');
    const push = { ...HOOK_INPUTS.PreToolUse, tool_input: { command: 'git push origin main' }, tool_use_id: 'tp' };
    const r = await hookwire(['claude-hook', join(dir, 'asking.json'), '--record', record], { stdin: JSON.stringify(push) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'push to the remote? (git push origin main)', additionalContext: 'The current branch is main.' },
    });
    const p = await hookwire(['claude-hook', join(dir, 'asking.json'), '--record', record], { stdin: JSON.stringify(HOOK_INPUTS.UserPromptSubmit) });
    expect(JSON.parse(p.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'The current branch is main.' } });
    const read = readTrace(readFileSync(record, 'utf8'));
    const version = pipelineVersionOf(ASKING); // [R17] the file that decided
    expect(read.events.map((e) => e.recorded)).toEqual([
      { decision: 'ask', reason: 'push to the remote? (git push origin main)', decided_by: 'ask-push', approval: { answer: 'deferred', by: 'host', reason: 'Claude Code asks the person (PreToolUse)' }, context: ['The current branch is main.'], pipeline: version },
      { decision: 'continue', context: ['The current branch is main.'], pipeline: version },
    ]);
    const compiled = compilePipeline(JSON.parse(ASKING));
    if (!compiled.ok) throw new Error('pipeline');
    const steps = [...replaySteps(compiled.compiled, read.events)];
    expect(steps.map((s) => [s.decision, s.approval?.answer ?? null, s.blocked, s.divergent, s.context])).toEqual([
      ['ask', 'deferred', false, false, ['The current branch is main.']],
      ['continue', null, false, false, ['The current branch is main.']],
    ]);
  });

  it('[P12] answers before the hook timeout: --timeout 1 with a hook input that never ends → the fail-closed answer', async () => {
    const r = await hangingHook(['claude-hook', GUARD, '--timeout', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hookwire claude-hook: no decision within 900 ms, before the hook's 1 s timeout \(failing closed\)\n$/);
  });

  it('[P12] reads the timeout from the settings: a pipeline that arrives late (a FIFO written after 3 s) → fail closed before the timeout', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'late.pipeline.json');
    execFileSync('mkfifo', [fifo]);
    const settings = join(dir, 'settings.json');
    const call = async (hook: string, timeout: number, input: object) => {
      writeFileSync(settings, JSON.stringify({ hooks: { [hook]: [{ matcher: '*', hooks: [{ type: 'command', command: `hookwire claude-hook ${fifo}`, timeout }] }] } }));
      // The writer opens the FIFO at once and writes the pipeline only after the deadline has passed.
      const writer = open(fifo, 'w').then(async (fh) => {
        await new Promise((r) => setTimeout(r, 3000));
        await fh.writeFile(readFileSync(GUARD, 'utf8'));
        await fh.close();
      });
      const r = await hookwireInProcess(['claude-hook', fifo, '--settings', settings], JSON.stringify(input));
      await writer;
      return r;
    };
    const r = await call('PreToolUse', 1, HOOK_INPUTS.PreToolUse);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("hookwire claude-hook: no decision within 900 ms, before the hook's 1 s timeout (failing closed)\n");
    // PermissionRequest fails closed through its decision object, at the deadline too.
    const pr = await call('PermissionRequest', 1.5, HOOK_INPUTS.PermissionRequest);
    expect(pr.code).toBe(0);
    expect(JSON.parse(pr.stdout).hookSpecificOutput).toMatchObject({ hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: expect.stringContaining("before the hook's 1.5 s timeout") } });
  });

  it('[P12] a recording that is not a regular file (a FIFO, a device) fails closed without waiting on it', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'never.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const record of [fifo, '/dev/zero']) {
      const r = await hookwire(['claude-hook', GUARD, '--record', record], { stdin: JSON.stringify(HOOK_INPUTS.PreToolUse) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is not a regular file');
    }
  });

  it('[P12] malformed PermissionRequest input is answered through the decision object', async () => {
    const { tool_input: _drop, ...broken } = HOOK_INPUTS.PermissionRequest;
    const r = await hookwire(['claude-hook', GUARD], { stdin: JSON.stringify(broken) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.decision).toMatchObject({ behavior: 'deny', message: expect.stringContaining('tool_input is missing or not an object') });
  });

  it('[P11][D9] golden tests check ASK decisions, the recorded answer and the context', async () => {
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    const header = { format: 'hookwire.trace', version: 1, trace_id: 'g', agent_id: 'a', source: { kind: 'test' }, created: '2026-03-01T10:00:00Z' };
    const push = { type: 'tool.before_call', payload: { tool_name: 'Bash', tool_input: { command: 'git push origin main' } } };
    const trace = header && line(header)
      + line({ event_id: 'p1', ts: '2026-03-01T10:00:01Z', ...push, recorded: { decision: 'ask', approval: { answer: 'allow', by: 'approver' } }, meta: { expect: { decision: 'ask', reason_includes: 'push to the remote', approval: 'allow', context: ['The current branch is main.'] } } })
      + line({ event_id: 'p2', ts: '2026-03-01T10:00:02Z', ...push, meta: { expect: { decision: 'ask', approval: 'deny' } } })
      + line({ event_id: 'l1', ts: '2026-03-01T10:00:03Z', type: 'tool.before_call', payload: { tool_name: 'Bash', tool_input: { command: 'ls' } }, meta: { expect: { decision: 'ask' } } });
    const dir = tempDir({ 'asking.json': ASKING, 'ask.jsonl': trace });
    const r = await hookwireInProcess(['test', join(dir, 'asking.json'), join(dir, 'ask.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('p1 tool.before_call → ask');
    expect(r.stdout).toContain('decision: expected ask, got continue');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 file: 2 passed, 1 failed');
  });

  it('[P12] the deadline and the settings lookup', () => {
    expect([answerDeadlineMs(600), answerDeadlineMs(30), answerDeadlineMs(1.5), answerDeadlineMs(1)]).toEqual([598_000, 28_000, 1350, 900]);
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo hi', timeout: 5 }, { type: 'command', command: 'node bin.mjs', args: ['claude-hook', 'p.json'], timeout: 12 }] }] } };
    expect(configuredTimeout(settings, 'Stop')).toBe(12);
    expect(configuredTimeout(settings, 'PreToolUse')).toBeNull();
    expect(configuredTimeout(JSON.parse('{"hooks":{"__proto__":[]}}'), 'constructor')).toBeNull();
  });
});
