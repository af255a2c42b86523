import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookwireClaudeAgent, type ClaudeAgentHookMatcher, type HookwireClaudeAgentOptions } from '../../../engine/adapters/claudeAgentSdk/index.ts';
import type { PipelineInput } from '../../../engine/index.ts';
import { liveDecisions, replayedDecisions, replayWithCli, startLive } from './adapterFixture.ts';

// The Claude Agent SDK (TypeScript), for real: `query()` starts the Claude Code binary the SDK ships, whose tools
// (Bash, Read, Write) really run in a scratch folder, and whose model is a scripted Anthropic Messages endpoint on
// 127.0.0.1 (ANTHROPIC_BASE_URL): nothing leaves the machine. The hooks are the SDK's in-process callbacks.
// The SDK is an optional peer dependency: without it installed this file says so and skips.

type Query = (args: { prompt: string; options: Record<string, unknown> }) => AsyncIterable<{ type: string; subtype?: string }>;
const SDK = '@anthropic-ai/claude-agent-sdk';
const sdk = await import(/* @vite-ignore */ SDK).then((m: { query: Query }) => m, () => null);
if (!sdk) console.warn(`claudeAgentSdk.test.ts: SKIPPED — ${SDK} is not installed (npm i -D ${SDK}); the adapter was not run against the real SDK`);

/** One scripted model turn: a tool call, or the final text. */
type Turn = { tool: string; input: Record<string, unknown> } | { text: string };

/**
 * The scripted model: Anthropic's streaming Messages API, answering turn k with script[k], where k is the number of
 * assistant messages already in the conversation (so a side request, which carries no tools, gets plain text).
 */
class ScriptedAnthropic {
  readonly requests: { messages: unknown[] }[] = [];
  private server: Server | null = null;
  constructor(private readonly script: Turn[]) {}
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (!req.url?.startsWith('/v1/messages')) return void res.writeHead(404).end('{}');
        const j = JSON.parse(body || '{}') as { model?: string; messages?: { role: string }[]; tools?: unknown[] };
        const messages = j.messages ?? [];
        const k = messages.filter((m) => m.role === 'assistant').length;
        const turn: Turn = j.tools?.length ? (this.script[k] ?? { text: 'done' }) : { text: 'ok' };
        if (j.tools?.length) this.requests.push({ messages });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
        send('message_start', { message: { id: `msg_${this.requests.length}`, type: 'message', role: 'assistant', model: j.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
        if ('tool' in turn) {
          send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_${k}`, name: turn.tool, input: {} } });
          send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) } });
        } else {
          send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
          send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: turn.text } });
        }
        send('content_block_stop', { index: 0 });
        send('message_delta', { delta: { stop_reason: 'tool' in turn ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } });
        send('message_stop', {});
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const a = this.server.address();
    return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  }
  stop(): void {
    this.server?.close();
  }
  /** The tool results the model was sent, by tool_use id. */
  toolResults(): Map<string, string> {
    const out = new Map<string, string>();
    for (const r of this.requests)
      for (const m of r.messages as { content?: unknown }[])
        for (const b of Array.isArray(m.content) ? (m.content as { type?: string; tool_use_id?: string; content?: unknown }[]) : [])
          if (b.type === 'tool_result' && b.tool_use_id) out.set(b.tool_use_id, JSON.stringify(b.content));
    return out;
  }
}

let root = '';
beforeAll(() => void (root = mkdtempSync(join(tmpdir(), 'hookwire-casdk-'))));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs one query with the adapter's hooks: a scratch project folder, its own config folder, the scripted model. */
async function run(name: string, script: (dir: string) => Turn[], pipeline: (dir: string) => PipelineInput, approve?: 'allow' | 'deny', adapter: HookwireClaudeAgentOptions = {}) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(join(dir, 'data', 'keep.txt'), 'keep');
  writeFileSync(join(dir, 'secret.env'), 'API_KEY=sk-live-secret');
  writeFileSync(join(dir, 'public.txt'), 'public words');
  const model = new ScriptedAnthropic(script(dir));
  const base = await model.start();
  const live = startLive(approve ? { approver: (q) => (approve === 'allow' ? 'allow' : { answer: 'deny', reason: `no to ${String((q.payload.tool_input as { file_path?: string }).file_path)}` }) } : {}, `casdk-${name}`, pipeline(dir));
  const hooks: Record<string, ClaudeAgentHookMatcher[]> = hookwireClaudeAgent(live.trace, adapter).hooks;
  const messages: { type: string; subtype?: string }[] = [];
  const stderr: string[] = [];
  try {
    for await (const m of sdk!.query({
      prompt: 'tidy up this folder',
      options: {
        cwd: dir,
        model: 'claude-sonnet-4-5',
        settingSources: [],
        permissionMode: 'default',
        allowedTools: ['Bash', 'Read', 'Write'],
        maxTurns: 10,
        hooks,
        stderr: (d: string) => void stderr.push(d),
        env: { PATH: process.env.PATH ?? '', HOME: dir, ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: 'sk-test-offline', CLAUDE_CONFIG_DIR: join(dir, '.config'), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' },
      },
    })) messages.push(m);
  } finally {
    model.stop();
  }
  return { dir, live, model, messages, stderr };
}

/** A pipeline on the portable fields [AG2]: no rm -rf in a shell, a read of a .env file is a read of public.txt, a write asks. */
const guardPipeline = (dir: string): PipelineInput => ({
  format: 'hookwire.pipeline',
  version: 1,
  name: 'agent sdk guard',
  nodes: [
    { id: 'ev-before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'm-rm', kind: 'matcher', when: { 'payload.tool': { eq: 'shell' }, 'payload.command': { contains: 'rm -rf' } } },
    { id: 'h-rm', kind: 'handler', name: 'no rm -rf', order: 10, action: { type: 'block', reason: 'destructive command {{payload.command}}' } },
    { id: 'm-env', kind: 'matcher', when: { 'payload.tool': { eq: 'read' }, 'payload.file_path': { suffix: '.env' } } },
    { id: 'h-env', kind: 'handler', name: 'read the public file instead', order: 20, action: { type: 'rewrite', ops: [{ op: 'set', path: 'payload.tool_input.file_path', value: join(dir, 'public.txt') }] } },
    { id: 'm-write', kind: 'matcher', when: { 'payload.tool': { eq: 'write' } } },
    { id: 'h-write', kind: 'handler', name: 'ask before writing', order: 30, action: { type: 'ask', reason: 'write {{payload.file_path}}?' } },
  ],
  wires: [{ from: 'ev-before', to: 'm-rm' }, { from: 'm-rm', to: 'h-rm' }, { from: 'ev-before', to: 'm-env' }, { from: 'm-env', to: 'h-env' }, { from: 'ev-before', to: 'm-write' }, { from: 'm-write', to: 'h-write' }],
});

const script = (dir: string): Turn[] => [
  { tool: 'Bash', input: { command: `rm -rf ${join(dir, 'data')}`, description: 'wipe' } },
  { tool: 'Read', input: { file_path: join(dir, 'secret.env') } },
  { tool: 'Write', input: { file_path: join(dir, 'new.txt'), content: 'new' } },
  { tool: 'Bash', input: { command: `echo ran > ${join(dir, 'ran.txt')}`, description: 'mark' } },
  { text: 'done' },
];

describe.skipIf(!sdk)('Claude Agent SDK adapter (the real SDK and its Claude Code, a scripted model on loopback)', () => {
  it('[O2][AG2] blocks rm -rf in Bash, reads public.txt for a .env read, a denied ASK refuses the Write, an allowed Bash runs; the CLI replay agrees', async () => {
    const r = await run('guard', script, guardPipeline, 'deny', { allowRewrites: true });
    expect(r.messages.at(-1), r.stderr.join('')).toMatchObject({ type: 'result', subtype: 'success' });
    expect(readFileSync(join(r.dir, 'data', 'keep.txt'), 'utf8')).toBe('keep'); // the rm never ran
    expect(existsSync(join(r.dir, 'new.txt'))).toBe(false); // the Write was refused
    expect(readFileSync(join(r.dir, 'ran.txt'), 'utf8')).toBe('ran\n'); // the allowed Bash ran, for real
    const results = r.model.toolResults();
    expect(results.get('toolu_0')).toContain(`destructive command rm -rf ${join(r.dir, 'data')}`);
    expect(results.get('toolu_1')).toContain('public words');
    expect(results.get('toolu_1')).not.toContain('sk-live-secret');
    expect(results.get('toolu_2')).toContain(`no to ${join(r.dir, 'new.txt')}`);

    const live = liveDecisions(r.live);
    expect(live.filter((d) => d.type.startsWith('tool.') || d.type === 'final_answer.before').map((d) => `${d.type}:${d.decision}`)).toEqual([
      'tool.before_call:block_action',
      'tool.before_call:continue', 'tool.after_call:continue',
      'tool.before_call:ask',
      'tool.before_call:continue', 'tool.after_call:continue',
      'final_answer.before:continue',
    ]);
    // The events carry the portable fields and the agent, as `hookwire claude-hook` makes them.
    const first = r.live.results.find((x) => x.type === 'tool.before_call')!;
    expect(first.payload).toMatchObject({ tool_name: 'Bash', tool: 'shell', command: `rm -rf ${join(r.dir, 'data')}` });
    expect(replayedDecisions(await replayWithCli(r.live))).toEqual(live);
  }, 120_000);

  it('[O2] without allowRewrites a rewritten call goes to Claude Code\'s permission flow (`ask`); with no canUseTool to approve it, it is refused: nothing is read', async () => {
    const r = await run('rewrite-asks', (dir) => [{ tool: 'Read', input: { file_path: join(dir, 'secret.env') } }, { text: 'done' }], guardPipeline);
    const result = r.model.toolResults().get('toolu_0')!;
    expect(result).toContain('tool input rewritten by the Hookwire pipeline');
    expect(result).not.toContain('public words');
    expect(result).not.toContain('sk-live-secret');
    expect(replayedDecisions(await replayWithCli(r.live))).toEqual(liveDecisions(r.live));
  }, 120_000);

  it('[O2][P14] an ASK the runtime\'s approver allows runs the Write', async () => {
    const r = await run('approved', (dir) => [{ tool: 'Write', input: { file_path: join(dir, 'new.txt'), content: 'new' } }, { text: 'done' }], guardPipeline, 'allow');
    expect(readFileSync(join(r.dir, 'new.txt'), 'utf8')).toBe('new');
    expect(liveDecisions(r.live).find((d) => d.type === 'tool.before_call')!.decision).toBe('ask');
    expect(replayedDecisions(await replayWithCli(r.live))).toEqual(liveDecisions(r.live));
  }, 120_000);

  it('[O2] a TERMINATE at a tool call ends the query: the call never runs and the model is not asked again', async () => {
    const terminate = (): PipelineInput => ({
      format: 'hookwire.pipeline',
      version: 1,
      name: 'stop on curl',
      nodes: [
        { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
        { id: 'm', kind: 'matcher', when: { 'payload.command': { contains: 'curl' } } },
        { id: 'h', kind: 'handler', name: 'no network', order: 1, action: { type: 'terminate', reason: 'network use ends the session' } },
      ],
      wires: [{ from: 'ev', to: 'm' }, { from: 'm', to: 'h' }],
    });
    const r = await run('terminate', (dir) => [{ tool: 'Bash', input: { command: `curl -o ${join(dir, 'x')} http://127.0.0.1:9/`, description: 'fetch' } }, { tool: 'Bash', input: { command: `echo late > ${join(dir, 'late.txt')}`, description: 'late' } }, { text: 'done' }], terminate);
    expect(existsSync(join(r.dir, 'x'))).toBe(false);
    expect(existsSync(join(r.dir, 'late.txt'))).toBe(false);
    expect(r.model.requests).toHaveLength(1);
    expect(liveDecisions(r.live).filter((d) => d.type === 'tool.before_call').map((d) => d.decision)).toEqual(['terminate']);
    expect(replayedDecisions(await replayWithCli(r.live))).toEqual(liveDecisions(r.live));
  }, 120_000);
});

describe('Claude Agent SDK adapter: the hooks it hands the SDK', () => {
  it('[AG4] every matcher fails closed in Claude Code too (onFailure: "block"); an input the mapping refuses is answered with the block form', async () => {
    const live = startLive({}, 'casdk-shape', guardPipeline('/w'));
    const { hooks } = hookwireClaudeAgent(live.trace);
    expect(Object.keys(hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'SessionEnd']);
    for (const ms of Object.values(hooks)) expect(ms.map((m) => m.onFailure)).toEqual(['block']);
    const cb = hooks.PreToolUse![0]!.hooks[0]!;
    const signal = new AbortController().signal;
    // No tool_input: refused, denied with the reason (the tool does not run), never an empty (allowing) answer.
    expect(await cb({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash' }, 'toolu_x', { signal })).toMatchObject({
      continue: false,
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('tool_input is missing') },
    });
    expect(await cb({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't1' }, 't1', { signal })).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'destructive command rm -rf /' },
    });
    expect(await cb({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't2' }, 't2', { signal })).toEqual({});
  });
});
