import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookwire, ROOT } from '../node/runCli.ts';

/*
 * The plugin `hookwire install --agent opencode` writes, run by the real OpenCode [AG6]. OpenCode is not a dependency
 * (a 185 MB binary): this runs only when HOOKWIRE_OPENCODE_BIN names its binary (opencode-ai 1.18.33's
 * `opencode-linux-x64/bin/opencode` was used) and the package is built (`npm run build:dist`, for `hookwire/node`
 * and `hookwire/opencode`); otherwise it says it skips. Offline: HOME and XDG dirs in a temp project, and a stand-in
 * OpenAI-compatible model on loopback (a custom `@ai-sdk/openai-compatible` provider) whose first answer is one
 * `bash` call that deletes a directory the pipeline protects. OpenCode's own session loop loads the plugin and calls
 * `tool.execute.before` (`opencode debug agent --tool` does not run plugin hooks, so it cannot stand in).
 */
const BIN = process.env.HOOKWIRE_OPENCODE_BIN;
const BUILT = existsSync(join(ROOT, 'dist', 'adapters', 'opencode', 'index.js'));
const why = !BIN ? 'HOOKWIRE_OPENCODE_BIN is not set' : !BUILT ? 'the package is not built (npm run build:dist)' : null;
if (why) console.log(`opencodeLive.test.ts skips: ${why}`);

const POLICY = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'victim guard',
  nodes: [
    { id: 'before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'victim', kind: 'matcher', when: { 'payload.tool': 'shell', 'payload.command': { contains: 'victim' } } },
    { id: 'block', kind: 'handler', name: 'keep the victim', action: { type: 'block', reason: 'the victim directory stays' } },
  ],
  wires: [{ from: 'before', to: 'victim' }, { from: 'victim', to: 'block' }],
};

/** A stand-in model: one tool call on the first request that offers the tool, text afterwards. */
async function fakeModel(call: { name: string; args: object }): Promise<{ port: number; close: () => void }> {
  let called = false;
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end('{}');
      const b = JSON.parse(body) as { tools?: { function?: { name?: string } }[] };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!called && b.tools?.some((t) => t.function?.name === call.name)) {
        called = true;
        res.write(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] }));
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: 'done' }));
        res.write(chunk({}, 'stop'));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

describe.skipIf(why !== null)('[AG6] the installed OpenCode plugin in the real OpenCode', () => {
  it('[AG6] OpenCode loads .opencode/plugins/hookwire.js and the pipeline blocks the call: the directory it protects survives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookwire-opencode-'));
    try {
      // A project as OpenCode expects one: a git repository.
      spawnSync('git', ['init', '-q', dir]);
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(ROOT, join(dir, 'node_modules', 'hookwire'));
      mkdirSync(join(dir, 'victim'));
      writeFileSync(join(dir, 'victim', 'keep'), '');
      writeFileSync(join(dir, 'policy.json'), JSON.stringify(POLICY));
      const installed = await hookwire(['install', '--agent', 'opencode', '--pipeline', join(dir, 'policy.json'), '--dir', dir]);
      expect(installed.code).toBe(0);
      const model = await fakeModel({ name: 'bash', args: { command: `rm -rf ${join(dir, 'victim')}`, description: 'clean up' } });
      writeFileSync(join(dir, 'opencode.json'), JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `http://127.0.0.1:${model.port}/v1`, apiKey: 'x' }, models: { m: { name: 'm', tool_call: true } } } },
        model: 'fake/m',
        permission: { bash: 'allow' },
      }));
      const home = join(dir, 'home');
      mkdirSync(home);
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local', 'state'), OPENCODE_DISABLE_DEFAULT_PLUGINS: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' };
      // The session goes on after the tool call; the test stops it once the block is printed (or OpenCode ends).
      const out = await new Promise<string>((resolve) => {
        const p = spawn(BIN!, ['run', '--print-logs', '-m', 'fake/m', 'clean up the victim directory'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        const take = (d: Buffer) => {
          text += d.toString();
          if (text.includes('Blocked by Hookwire')) p.kill('SIGTERM');
        };
        p.stdout.on('data', take);
        p.stderr.on('data', take);
        p.on('close', () => {
          model.close();
          resolve(text);
        });
      });
      expect(out.includes('Blocked by Hookwire: the victim directory stays'), out.split('\n').filter((l) => /ERROR|Blocked/.test(l)).join('\n').slice(0, 3000)).toBe(true);
      expect(readFileSync(join(dir, 'victim', 'keep'), 'utf8')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
