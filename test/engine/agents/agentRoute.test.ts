import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../../engine/node/serve/server.ts';
import { hookwire } from '../node/runCli.ts';
import { call, workDir } from '../node/serve/serveHelpers.ts';
import { NATIVE } from './nativeInputs.ts';

// POST /v1/agents/<id>/hook on a real server (loopback, port 0) [AG5], and `hook --agent <id> --server` as a real
// forwarding process in front of it.
const PIPELINE = join(__dirname, 'fixtures', 'portable.pipeline.json');
const rm = { kind: 'shell', command: 'rm -rf /' } as const;

describe('[AG5] hookwire serve: /v1/agents/<id>/hook', { timeout: 120_000 }, () => {
  it('[AG5] each agent\'s native input in, its command answer out; refusals are the agent\'s block form in a 200', async () => {
    const state = workDir();
    const server = await startServer({ pipelinePath: PIPELINE, stateDir: state, port: 0, watch: false, log: () => {} });
    try {
      const copilot = await call(server, 'POST', '/v1/agents/copilot/hook?answer=command', NATIVE.copilot(rm));
      expect(copilot.status).toBe(200);
      const r = 'destructive command: rm -rf /';
      expect(copilot.json()).toEqual({ exitCode: 0, stdout: `${JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: r, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: r } })}\n`, stderr: '' });
      const windsurf = await call(server, 'POST', '/v1/agents/windsurf/hook?answer=command', NATIVE.windsurf(rm));
      expect(windsurf.json()).toEqual({ exitCode: 2, stdout: '', stderr: 'destructive command: rm -rf /\n' });
      // A bad body: the block form, in a 200 (a non-2xx would be the forwarding command's own fail-closed).
      const bad = await call(server, 'POST', '/v1/agents/copilot/hook?answer=command', '[1,2');
      expect(bad.status).toBe(200);
      expect(JSON.parse(bad.json().stdout).permissionDecision).toBe('deny');
      const foreign = await call(server, 'POST', '/v1/agents/codex/hook?answer=command', NATIVE.windsurf(rm));
      expect(foreign.json()).toMatchObject({ exitCode: 2 });
      expect(foreign.json().stderr).toContain("this is windsurf's hook input");
      expect((await call(server, 'POST', '/v1/agents/nobody/hook?answer=command', {})).status).toBe(404);
      // OpenCode runs Hookwire in process (a plugin): it has no command hook route.
      const opencode = await call(server, 'POST', '/v1/agents/opencode/hook?answer=command', {});
      expect([opencode.status, opencode.json().error]).toEqual([404, expect.stringContaining('no command hooks')]);
      expect((await call(server, 'POST', '/v1/agents/codex/hook', NATIVE.codex(rm))).status).toBe(400);
      // Claude Code keeps its own route; /v1/agents/claude/hook is the same.
      expect((await call(server, 'POST', '/v1/agents/claude/hook?answer=command', NATIVE.claude(rm))).json()).toMatchObject({ exitCode: 0 });
      const list = (await call(server, 'GET', '/v1/agents')).json();
      expect(list.agents.map((a: { id: string }) => a.id)).toEqual(['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor', 'windsurf', 'qwen', 'factory', 'goose', 'kimi', 'opencode']);
      // One session state per session id: both Codex calls of sess-1 are in one recording.
      await call(server, 'POST', '/v1/agents/codex/hook?answer=command', NATIVE.codex({ kind: 'shell', command: 'ls' }));
      await call(server, 'POST', '/v1/agents/codex/hook?answer=command', NATIVE.codex(rm));
      const traces = (await call(server, 'GET', '/v1/traces')).json().traces as { trace_id: string; events?: number; agent_id?: string }[];
      const codex = traces.filter((t) => t.trace_id === 'sess-1');
      expect(codex).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('[AG5] hook --agent gemini --server: the forwarding process prints the server\'s answer; with the server gone, the block form', async () => {
    const state = workDir();
    const server = await startServer({ pipelinePath: PIPELINE, stateDir: state, port: 0, watch: false, log: () => {} });
    // --deadline well past start-up: at load 15-20 the forwarding process took over the default 5 s to start and read
    // stdin, and failed closed for that (the right answer, another reason) before it tried the server this test is about.
    const args = ['hook', '--agent', 'gemini', '--server', server.url, '--state-dir', state, '--deadline', '30000'];
    try {
      const r = await hookwire(args, { stdin: JSON.stringify(NATIVE.gemini(rm)) });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, `${JSON.stringify({ decision: 'deny', reason: 'destructive command: rm -rf /' })}\n`, '']);
    } finally {
      await server.close();
    }
    const down = await hookwire(args, { stdin: JSON.stringify(NATIVE.gemini(rm)) });
    expect([down.code, down.stdout]).toEqual([2, '']);
    expect(down.stderr).toMatch(/cannot reach the server.*failing closed/);
    // The session's recording says which agent sent it (the debugger shows it).
    const file = readdirSync(join(state, 'sessions')).find((f) => f.startsWith('sess-1-'))!;
    const rec = readFileSync(join(state, 'sessions', file), 'utf8').split('\n')[0]!;
    expect(JSON.parse(rec).source).toMatchObject({ hook: 'gemini-hook', agent: 'gemini' });
  });
});
