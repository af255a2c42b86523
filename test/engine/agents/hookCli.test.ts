import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { hookwire, spawnHookwire, spawnNode, tempDir, ROOT } from '../node/runCli.ts';
import type { HookAgentId as AgentId } from '../../../engine/agents/types.ts';
import { NATIVE, foreignInput, type Call } from './nativeInputs.ts';

// `hookwire hook --agent <id>` as real processes [AG4]: one pipeline, one logical call, every agent, each answer
// in its own form; and every kind of failure in the agent's block form.
const PIPELINE = join(__dirname, 'fixtures', 'portable.pipeline.json');
const MAIN: AgentId[] = ['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor', 'windsurf'];

/** How the agent reads the process's answer (as in agentAnswers.test.ts, from each agent's documentation). */
function readAs(agent: AgentId, r: { code: number | null; stdout: string }): 'allow' | 'block' | 'ask' {
  const out = r.stdout.trim() === '' ? {} : (JSON.parse(r.stdout) as Record<string, any>);
  if (agent === 'copilot') return r.code === 0 && out.permissionDecision === 'deny' ? 'block' : 'allow';
  if (r.code === 2) return 'block';
  if (agent === 'vscode') return r.code !== 0 ? 'allow' : out.hookSpecificOutput?.permissionDecision === 'deny' ? 'block' : out.hookSpecificOutput?.permissionDecision === 'ask' ? 'ask' : 'allow';
  if (r.code !== 0 || agent === 'windsurf') return 'allow';
  if (agent === 'cursor') return out.permission === 'deny' ? 'block' : out.permission === 'ask' ? 'ask' : 'allow';
  const d = out.hookSpecificOutput?.permissionDecision;
  return d === 'deny' || out.decision === 'block' || out.decision === 'deny' ? 'block' : d === 'ask' ? 'ask' : 'allow';
}

const run = (agent: AgentId, stdin: string, more: string[] = [PIPELINE]) => hookwire(['hook', '--agent', agent, ...more], { stdin });

describe('[AG4] hookwire hook --agent, real processes', () => {
  it('[AG4] rm -rf /, a read of .env and a fetch of an unlisted URL: the same decision in every agent, each in its own form', async () => {
    const calls: Call[] = [{ kind: 'shell', command: 'rm -rf /' }, { kind: 'read', path: '/w/.env' }, { kind: 'fetch', url: 'https://evil.example.net/x' }];
    const jobs = MAIN.flatMap((agent) =>
      calls.flatMap((call) => {
        const input = NATIVE[agent](call);
        return input === null ? [] : [run(agent, JSON.stringify(input)).then((r) => ({ agent, call: call.kind, r }))];
      }),
    );
    const results = await Promise.all(jobs);
    expect(results.length).toBeGreaterThanOrEqual(17);
    for (const { agent, call, r } of results) {
      expect([agent, call, readAs(agent, r)]).toEqual([agent, call, 'block']);
      if (agent === 'copilot' || agent === 'claude' || agent === 'codex' || agent === 'gemini') expect([agent, r.code]).toEqual([agent, 0]);
      if (agent === 'windsurf') expect([agent, r.code, r.stdout]).toEqual([agent, 2, '']);
      if (agent === 'gemini') expect(() => JSON.parse(r.stdout)).not.toThrow(); // nothing but the JSON object
    }
  }, 240_000);

  it('[AG4] not JSON, another agent\'s input, a pipeline that does not load, a server that is down: the block form', async () => {
    const dir = tempDir({ 'broken.json': '{"format": "hookwire.pipeline", "version": 1, "nodes": [' });
    // A port nothing listens on: bind one, note it, close it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const cases: [string, (agent: AgentId) => Promise<{ code: number | null; stdout: string; stderr: string }>][] = [
      ['not JSON', (agent) => run(agent, 'this is not json')],
      ['another agent', (agent) => run(agent, JSON.stringify(foreignInput(agent)))],
      ['pipeline does not load', (agent) => run(agent, JSON.stringify(NATIVE[agent]({ kind: 'shell', command: 'ls' })), [join(dir, 'broken.json')])],
      ['server down', (agent) => run(agent, JSON.stringify(NATIVE[agent]({ kind: 'shell', command: 'ls' })), ['--server', `http://127.0.0.1:${port}`, '--deadline', '2000'], )],
    ];
    const jobs = cases.flatMap(([what, f]) => MAIN.map((agent) => f(agent).then((r) => ({ what, agent, r }))));
    for (const { what, agent, r } of await Promise.all(jobs)) {
      expect([what, agent, readAs(agent, r)]).toEqual([what, agent, 'block']);
      expect(r.stdout + r.stderr).toContain('failing closed');
      if (agent === 'codex' || agent === 'windsurf' || agent === 'claude' || agent === 'gemini') expect([what, agent, r.code, r.stderr.trim() !== '']).toEqual([what, agent, 2, true]);
      if (agent === 'gemini' || agent === 'windsurf') expect([what, agent, r.stdout]).toEqual([what, agent, '']);
      if (agent === 'copilot') expect([what, r.code, JSON.parse(r.stdout).permissionDecision, readAs('vscode', r)]).toEqual([what, 0, 'deny', 'block']);
    }
  }, 300_000);

  it('[AG4] a hook input that never ends: the agent\'s block form before its timeout', async () => {
    for (const agent of ['copilot', 'codex'] as AgentId[]) {
      const r = await spawnHookwire(['hook', '--agent', agent, '--timeout', '1', PIPELINE], (stdin) => stdin.write('{"toolName": "bash", '));
      expect([agent, readAs(agent, r)]).toEqual([agent, 'block']);
      expect(r.stdout + r.stderr).toMatch(/no decision within \d+ ms/);
    }
  }, 60_000);

  it('[AG4] a usage error (an unknown option) still answers in the agent\'s block form', async () => {
    const r = await hookwire(['hook', '--agent', 'copilot', '--no-such-option', PIPELINE], { stdin: '{}' });
    expect([r.code, JSON.parse(r.stdout).permissionDecision]).toEqual([0, 'deny']);
  }, 60_000);

  it('[AG4] a crash outside the command (an uncaught exception) ends in the agent\'s block form, not Node\'s exit 1', async () => {
    // The preload strikes once the hook input has been read (Buffer.concat of stdin), while the command works: as a
    // microtask queued before the read's result reaches the command, so it runs first on every route. (On
    // setImmediate or the next tick it raced the answer: the hook's fast route decides with no I/O after the read,
    // all in microtasks, and could answer and exit first — a correct allow for this input.)
    const dir = tempDir({
      'throw.cjs': "const concat = Buffer.concat;\nBuffer.concat = function (...a) {\n  const out = concat.apply(this, a);\n  if (out.includes('rm -rf')) { Buffer.concat = concat; queueMicrotask(() => { throw new Error('simulated crash'); }); }\n  return out;\n};\n",
    });
    for (const agent of ['copilot', 'cursor', 'codex'] as AgentId[]) {
      const input = JSON.stringify(NATIVE[agent]({ kind: 'shell', command: 'rm -rf /tmp/x' }));
      const r = await spawnNode([join(ROOT, 'engine', 'node', 'bin.mjs'), 'hook', '--agent', agent, PIPELINE], (s) => s.end(input), { env: { NODE_OPTIONS: `--require ${join(dir, 'throw.cjs')}` } });
      expect([agent, readAs(agent, r)]).toEqual([agent, 'block']);
      expect(r.stdout + r.stderr).toContain('simulated crash');
      if (agent === 'copilot') expect([r.code, readAs('vscode', r)]).toEqual([0, 'block']); // VS Code runs Copilot's files too
      if (agent === 'codex') expect([r.code, r.stderr.trim() !== '']).toEqual([2, true]);
    }
  }, 60_000);

  it('[AG4] VS Code runs the hook `install --agent claude` wrote: `hook --agent claude` answers VS Code\'s input in VS Code\'s form; `--agent opencode` is no command hook', async () => {
    // microsoft/vscode-docs hooks.md (commit 91e74cb2): VS Code loads .claude/settings.json and sends its own input.
    const [blocked, allowed] = await Promise.all([
      run('claude', JSON.stringify(NATIVE.vscode({ kind: 'shell', command: 'rm -rf /' }))),
      run('claude', JSON.stringify(NATIVE.vscode({ kind: 'shell', command: 'ls -la' }))),
    ]);
    expect([blocked.code, readAs('vscode', blocked)]).toEqual([0, 'block']);
    expect([allowed.code, allowed.stdout, readAs('vscode', allowed)]).toEqual([0, '', 'allow']);
    const opencode = await hookwire(['hook', '--agent', 'opencode', PIPELINE], { stdin: '{}' });
    expect(opencode.code).not.toBe(0);
    expect(opencode.stderr).toContain('OpenCode has no command hooks');
  }, 120_000);
});
