import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookwireOpenCode, type OpenCodeHooks } from '../../../engine/adapters/opencode/index.ts';
import { createRuntime, type PipelineInput, type RuntimeOptions } from '../../../engine/index.ts';
import { replayWithCli, type Live } from './adapterFixture.ts';

// OpenCode runs plugins in its own process (Bun); it is not run here. The plugin is driven the way OpenCode's
// plugin API declares (`@opencode-ai/plugin` 1.18.33 index.d.ts `Hooks`: tool.execute.before(input, {args}),
// tool.execute.after(input, {title, output, metadata})) and its docs show (a block is a thrown Error; OpenCode
// runs the tool with the args object it passed), with the real runtime deciding and recording, and the recording
// replayed by the real CLI.

const PORTABLE = JSON.parse(readFileSync(join(__dirname, '..', 'agents', 'fixtures', 'portable.pipeline.json'), 'utf8')) as PipelineInput;
const SECRET = 'sk-live-0123456789abcdefghijklmnop';

/** The portable pipeline plus, after a call: keys redacted, `cat ~/.ssh/*` withheld, the deploy context. */
const PIPELINE: PipelineInput = {
  ...PORTABLE,
  nodes: [
    ...(PORTABLE.nodes as object[]),
    { id: 'after', kind: 'event', pattern: 'tool.after_call' },
    { id: 'redact', kind: 'handler', name: 'Redact keys', order: 10, action: { type: 'rewrite', ops: [{ op: 'redact', path: 'payload.tool_response', pattern: 'sk-[A-Za-z0-9-]{20,}', replacement: '[REDACTED]' }] } },
    { id: 'ssh', kind: 'matcher', when: { 'payload.tool': 'shell', 'payload.command': { contains: '.ssh/' } } },
    { id: 'withhold', kind: 'handler', name: 'No ssh keys to the model', order: 20, action: { type: 'block', reason: 'ssh key material' } },
  ] as PipelineInput['nodes'],
  wires: [...(PORTABLE.wires as object[]), { from: 'after', to: 'redact' }, { from: 'after', to: 'ssh' }, { from: 'after', to: 'deploy' }, { from: 'ssh', to: 'withhold' }] as PipelineInput['wires'],
};

async function plugin(options: RuntimeOptions = {}) {
  /** Each trace's recording, in the order the traces started. */
  const recordings: string[][] = [];
  let t = Date.parse('2026-12-06T10:00:00.000Z');
  const record = () => {
    const lines: string[] = [];
    recordings.push(lines);
    return (line: string) => void lines.push(line);
  };
  const r = createRuntime(PIPELINE, { clock: { now: () => (t += 1000) }, record, ...options });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const hooks: OpenCodeHooks = await hookwireOpenCode(r.runtime)({ directory: '/w' });
  return { hooks, recordings, runtime: r.runtime };
}

const call = (tool: string, callID: string) => ({ tool, sessionID: 'ses_1', callID });
const rejection = async (p: Promise<void>) => p.then(() => null, (e: Error) => e.message);

describe('[AG2][P14] OpenCode plugin: tool.execute.before / after through the runtime', () => {
  it('[AG2] blocks rm -rf / in bash and a read of .env by their portable fields (a thrown Error); other calls run', async () => {
    const { hooks } = await plugin();
    expect(await rejection(hooks['tool.execute.before'](call('bash', 'c1'), { args: { command: 'rm -rf /', description: 'clean' } }))).toMatch(/^Blocked by Hookwire: destructive command: rm -rf \/ \(trace .+, event c1:before\)$/);
    expect(await rejection(hooks['tool.execute.before'](call('read', 'c2'), { args: { filePath: '/w/.env' } }))).toContain('secrets file: /w/.env');
    expect(await rejection(hooks['tool.execute.before'](call('webfetch', 'c3'), { args: { url: 'https://evil.example/x', format: 'text' } }))).toContain('unlisted URL');
    const ok = { args: { command: 'ls -la' } };
    expect(await rejection(hooks['tool.execute.before'](call('bash', 'c4'), ok))).toBeNull();
    expect(ok.args).toEqual({ command: 'ls -la' });
  });

  it('[AG2] a rewrite is written into the args object OpenCode runs with (in place), never a copy', async () => {
    const { hooks } = await plugin();
    const args = { command: 'deploy-cli --token=abc123 now', description: 'd' };
    const output = { args };
    await hooks['tool.execute.before'](call('bash', 'c1'), output);
    expect(output.args).toBe(args);
    expect(args.command).not.toContain('abc123');
    expect(args.description).toBe('d');
  });

  it('[P14] an ASK goes to the approver: allowed, the call runs; denied or no approver, it is blocked', async () => {
    const allow = await plugin({ approver: () => 'allow' });
    expect(await rejection(allow.hooks['tool.execute.before'](call('bash', 'c1'), { args: { command: 'git push origin main' } }))).toBeNull();
    const deny = await plugin({ approver: () => ({ answer: 'deny', reason: 'not today' }) });
    expect(await rejection(deny.hooks['tool.execute.before'](call('bash', 'c1'), { args: { command: 'git push origin main' } }))).toContain('push to a remote (not approved: not today)');
    const none = await plugin();
    expect(await rejection(none.hooks['tool.execute.before'](call('bash', 'c1'), { args: { command: 'git push origin main' } }))).toMatch(/^Blocked by Hookwire: push to a remote/);
  });

  it('[AG2] after a call: keys in the result are redacted, a blocked result is withheld, context is appended', async () => {
    const { hooks } = await plugin();
    const out = { title: 'cat', output: `KEY=${SECRET}`, metadata: {} };
    await hooks['tool.execute.after']({ ...call('bash', 'c1'), args: { command: 'cat config' } }, out);
    expect(out.output).toBe('KEY=[REDACTED]');
    const ssh = { title: 'cat', output: '-----BEGIN OPENSSH PRIVATE KEY-----', metadata: {} };
    await hooks['tool.execute.after']({ ...call('bash', 'c2'), args: { command: 'cat ~/.ssh/id_ed25519' } }, ssh);
    expect(ssh.output).toMatch(/^Blocked by Hookwire: ssh key material/);
    const deploy = { title: 'make', output: `done ${SECRET}`, metadata: {} };
    await hooks['tool.execute.after']({ ...call('bash', 'c3'), args: { command: 'make deploy' } }, deploy);
    expect(deploy.output).toBe('done [REDACTED]\n\nDeploys go to staging first.');
  });

  it('fails closed: input that is not the plugin API\'s, or a runtime that throws, blocks the call and withholds the result', async () => {
    const { hooks } = await plugin();
    expect(await rejection(hooks['tool.execute.before'](call('bash', 'c1'), { args: 'rm -rf /' }))).toMatch(/^Blocked by Hookwire: it could not decide this call .*failing closed$/);
    expect(await rejection(hooks['tool.execute.before']({ tool: 'bash' } as never, { args: { command: 'ls' } }))).toContain('failing closed');
    const broken = await hookwireOpenCode({ startTrace: () => { throw new Error('disk full'); } })({});
    expect(await rejection(broken['tool.execute.before'](call('bash', 'c1'), { args: { command: 'ls' } }))).toContain('disk full');
    const out = { title: 't', output: 'secret', metadata: {} };
    await broken['tool.execute.after']({ ...call('bash', 'c1'), args: {} }, out);
    expect(out.output).toMatch(/^Withheld by Hookwire: it could not check this result \(disk full\)/);
  });

  it('[AG2] one trace per OpenCode session, agent opencode, meta.agent on each event; hookwire replay of it gives the live decisions', async () => {
    const decisions: { event_id: string; decision: string; reason: string }[] = [];
    const { hooks, recordings, runtime } = await plugin({ sinks: { audit: (a) => void decisions.push({ event_id: a.event_id, decision: a.decision, reason: a.reason }) } });
    await rejection(hooks['tool.execute.before'](call('bash', 'c1'), { args: { command: 'rm -rf /' } }));
    await hooks['tool.execute.before'](call('bash', 'c2'), { args: { command: 'make deploy --token=zzz' } });
    await hooks['tool.execute.after']({ ...call('bash', 'c2'), args: { command: 'make deploy' } }, { title: '', output: `ok ${SECRET}`, metadata: {} });
    await hooks['tool.execute.before']({ tool: 'read', sessionID: 'ses_2', callID: 'd1' }, { args: { filePath: 'README.md' } });
    await runtime.flush();
    const headers = recordings.map((r) => JSON.parse(r[0]!));
    expect(headers.map((h) => [h.format, h.agent_id, h.source?.session_id])).toEqual([['hookwire.trace', 'opencode', 'ses_1'], ['hookwire.trace', 'opencode', 'ses_2']]);
    const events = recordings.flat().map((l) => JSON.parse(l)).filter((j) => j.event_id);
    expect(events.every((e) => e.meta?.agent === 'opencode')).toBe(true);
    expect(events.find((e) => e.event_id === 'd1:before').payload).toMatchObject({ tool: 'read', file_path: 'README.md', tool_name: 'read', session_id: 'ses_2' });
    // Replay of the first session's recording, by the CLI.
    const live = { trace: runtime.startTrace({ record: null }), pipeline: PIPELINE, lines: recordings[0] } as unknown as Live;
    const replayed = await replayWithCli(live);
    const byId = new Map(decisions.map((d) => [d.event_id, d]));
    expect(replayed.map((r) => [r.event_id, r.decision, r.reason])).toEqual(replayed.map((r) => [r.event_id, byId.get(r.event_id)?.decision, byId.get(r.event_id)?.reason]));
    expect(replayed.map((r) => r.decision)).toEqual(['block_action', 'continue', 'continue']);
  });
});
