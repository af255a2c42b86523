// The fast route of a deciding hook call (engine/node/hookMain.ts `hookFastMain`, run by bin.cjs from the
// CommonJS bundle that buildCli.mjs makes without the lazily loaded parts, compiled through V8's code cache by
// cliBundle.cjs `loadWithCodeCache`). What it decides, it decides exactly as the full CLI does (exit code, stdout
// and stderr compared byte for byte); what needs a lazy part it hands back (null) before reading stdin; and the
// code cache changes nothing but speed. The built bundles are what is tested: without them (a checkout where
// `npm run prepare` has not run, or stale ones) these tests are skipped, and say so.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_BUNDLE, HOOK_FAST_BUNDLE, freshBundle, loadWithCodeCache } from '../../../engine/node/cliBundle.cjs';
import type { Io } from '../../../engine/node/cliIo.ts';
import { main } from '../../../engine/node/cli.ts';
import { BIN, GUARD, ROOT } from './runCli.ts';

const CLI_BUNDLE_MODULE = join(ROOT, 'engine', 'node', 'cliBundle.cjs');

type Entry = (argv: string[], agentCall: boolean, io: Io, readStdin: () => Promise<string>) => Promise<number | null>;

const built = freshBundle(HOOK_FAST_BUNDLE) !== null && freshBundle(HOOK_BUNDLE) !== null;
if (!built) console.warn('hookFastRoute.test.ts: SKIPPED — the hook bundles are not built or are stale (run `npm run prepare`)');

function capture(): { io: Io; out: () => { stdout: string; stderr: string } } {
  let stdout = '';
  let stderr = '';
  return { io: { out: (t) => void (stdout += t), err: (t) => void (stderr += t) }, out: () => ({ stdout, stderr }) };
}

const claude = (command: string) => JSON.stringify({ session_id: 's', transcript_path: '/tmp/t', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' });
const dir = mkdtempSync(join(tmpdir(), 'hookwire-hookfast-'));
const settings = join(dir, 'settings.json');
writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'hookwire claude-hook p.json', timeout: 30 }] }] } }));
const withCode = join(dir, 'code.pipeline.json');
writeFileSync(withCode, JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'c', nodes: [{ id: 'e', kind: 'event', pattern: '*' }, { id: 'h', kind: 'handler', name: 'Code', action: { type: 'code', language: 'ts', source: "export default (ctx: HandlerContext) => ctx.payload.tool_name === 'Bash' ? block('no shell') : null" } }], wires: [{ from: 'e', to: 'h' }] }));
const neverCompiled = join(dir, 'new.pipeline.json');
writeFileSync(neverCompiled, JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'n', nodes: [{ id: 'e', kind: 'event', pattern: '*' }, { id: 'h', kind: 'handler', name: 'Block', action: { type: 'block', reason: 'no' } }], wires: [{ from: 'e', to: 'h' }] }));

let fast: Entry;
let esm: Entry;
const savedCacheDir = process.env.HOOKWIRE_CACHE_DIR;

beforeAll(async () => {
  if (!built) return;
  // The pipeline cache of this test alone; both bundles are one build, so they share its entries.
  process.env.HOOKWIRE_CACHE_DIR = join(dir, 'cache');
  fast = loadWithCodeCache(HOOK_FAST_BUNDLE).exports.hookFastMain as Entry;
  esm = (await import(pathToFileURL(HOOK_BUNDLE).href)).hookMain as Entry;
});
afterAll(() => {
  if (savedCacheDir === undefined) delete process.env.HOOKWIRE_CACHE_DIR;
  else process.env.HOOKWIRE_CACHE_DIR = savedCacheDir;
});

async function run(entry: Entry, command: string, args: string[], stdin: string) {
  const c = capture();
  let read = false;
  const code = await entry(args, command === 'hook', c.io, async () => ((read = true), stdin));
  return { code, read, ...c.out() };
}

async function cli(command: string, args: string[], stdin: string) {
  const c = capture();
  const code = await main(['node', 'hookwire', command, ...args], c.io, async () => stdin);
  return { code, ...c.out() };
}

describe.skipIf(!built)('fast hook route (CommonJS bundle, V8 code cache)', () => {
  const decided: [string, string[], string][] = [
    ['claude-hook', [GUARD], claude('rm -rf /')],
    ['claude-hook', [GUARD], claude('ls -la')],
    ['claude-hook', [GUARD], claude('curl --token=abc x')],
    ['claude-hook', ['--timeout=20', GUARD, '--allow-rewrites'], claude('curl --token=abc x')],
    ['claude-hook', [GUARD, '--settings', settings], claude('rm -rf /')],
    ['claude-hook', [GUARD, '--timeout', '0'], claude('ls')],
    ['claude-hook', [GUARD], 'not json'],
    ['claude-hook', [GUARD], ''],
    ['hook', ['--agent', 'claude', GUARD], claude('rm -rf /')],
    ['hook', [GUARD, '--agent=codex'], claude('rm -rf /')],
    ['hook', ['--agent', 'copilot', GUARD, '--event', 'preToolUse'], JSON.stringify({ timestamp: 1, cwd: '/w', toolName: 'bash', toolArgs: '{"command":"rm -rf /"}' })],
    ['hook', ['--agent', 'cursor', GUARD], 'not json'],
  ];
  for (const [command, args, stdin] of decided) {
    it(`decides \`${command} ${args.join(' ').replace(dir, '<dir>')}\` as the CLI does, once the pipeline is in the cache`, async () => {
      // The first call of a pipeline the cache does not hold goes to the ES module route, which fills it.
      await run(esm, command, args, stdin);
      const got = await run(fast, command, args, stdin);
      expect(got.code).not.toBeNull();
      const { read: _read, ...answer } = got;
      expect(answer).toEqual(await cli(command, args, stdin));
    });
  }

  it('hands back, before reading stdin, every call that needs a lazily loaded part', async () => {
    const stdin = claude('rm -rf /');
    await run(esm, 'claude-hook', [GUARD], stdin); // GUARD is in the cache
    await run(esm, 'claude-hook', [withCode], stdin); // so is the code pipeline's document
    for (const args of [
      [GUARD, '--record', join(dir, 'r.jsonl')], // the recording's reader and lock
      [GUARD, `--audit=${join(dir, 'a.jsonl')}`], // the audit file's lock and chain
      [withCode], // QuickJS
      [neverCompiled], // the schema library: not in the cache
      [join(dir, 'missing.json')], // the ES module route says what is wrong
      [GUARD, '--help'], // not a deciding call at all: the CLI's
    ]) {
      const got = await run(fast, 'claude-hook', args, stdin);
      expect({ args, code: got.code, read: got.read, stdout: got.stdout, stderr: got.stderr }).toEqual({ args, code: null, read: false, stdout: '', stderr: '' });
    }
    expect(readdirSync(dir)).not.toContain('r.jsonl');
    expect(readdirSync(dir)).not.toContain('a.jsonl');
  });

  it('a code cache written, read back, or refused (garbage) gives the same answers', async () => {
    // Each load in a process of its own, as a hook call is: V8 keeps what one process compiled in memory, and a
    // second load of the same source there would not read the cache at all.
    const copy = mkdtempSync(join(tmpdir(), 'hookwire-codecache-'));
    const file = join(copy, 'hookMain.cjs');
    copyFileSync(HOOK_FAST_BUNDLE, file);
    const cacheFiles = () => readdirSync(copy).filter((f) => f.startsWith('v8-code-cache-'));
    const stdin = claude('rm -rf /');
    const expected = await cli('claude-hook', [GUARD], stdin);
    await run(esm, 'claude-hook', [GUARD], stdin);
    const script = `import { loadWithCodeCache } from ${JSON.stringify(pathToFileURL(CLI_BUNDLE_MODULE).href)};
const { exports, keep, cached, rejected } = loadWithCodeCache(${JSON.stringify(file)});
let stdout = '', stderr = '';
const code = await exports.hookFastMain([${JSON.stringify(GUARD)}], false, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, async () => ${JSON.stringify(stdin)});
keep();
console.log(JSON.stringify({ code, stdout, stderr, cached, rejected }));`;
    const load = () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env } }).trim().split('\n').pop()!) as { code: number; stdout: string; stderr: string; cached: boolean; rejected: boolean };
    const answer = (r: ReturnType<typeof load>) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });

    const first = load();
    expect([first.cached, cacheFiles().length]).toEqual([false, 1]);
    const second = load();
    expect([second.cached, second.rejected]).toEqual([true, false]);
    const garbage = 'not V8 code cache data'.repeat(100);
    writeFileSync(join(copy, cacheFiles()[0]!), garbage);
    const third = load();
    expect([third.cached, third.rejected]).toEqual([true, true]);
    expect(readFileSync(join(copy, cacheFiles()[0]!), 'utf8')).not.toBe(garbage); // written again
    const fourth = load();
    expect([fourth.cached, fourth.rejected]).toEqual([true, false]);
    for (const r of [first, second, third, fourth]) expect(answer(r)).toEqual(expected);
  });

  it('[P12] the real binary on the fast route reads stdin outside the event loop, and a stdin held open gets the deadline\'s answer, as the ES module route gives it', async () => {
    // The binary in its own processes: stdin a socket pair (Node's spawn) held open after part of an input, and a
    // FIFO whose writer never closes it. A preload says at exit whether the ES module bundle was loaded.
    const cache = join(dir, 'binary-cache');
    const preload = join(dir, 'route.cjs');
    // and whether process.stdin (the stream) was made.
    writeFileSync(
      preload,
      `const d = Object.getOwnPropertyDescriptor(process, 'stdin'); let made = false;
Object.defineProperty(process, 'stdin', { ...d, get() { made = true; return d.get.call(process); } });
process.on('exit', () => process.stderr.write((process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job') ? 'ROUTE esm' : 'ROUTE fast') + (made ? ' stream' : '') + '\\n'));\n`,
    );
    const binary = (cacheDir: string, send: (s: NodeJS.WritableStream) => void, stdin?: number) =>
      new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve, reject) => {
        const t0 = Date.now();
        const child = spawn(process.execPath, ['--require', preload, BIN, 'claude-hook', GUARD, '--timeout', '1'], { cwd: ROOT, stdio: [stdin ?? 'pipe', 'pipe', 'pipe'], env: { ...process.env, HOOKWIRE_CACHE_DIR: cacheDir } });
        let stdout = '';
        let stderr = '';
        child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('error', reject);
        child.on('exit', (code) => (child.stdin?.destroy(), resolve({ code, stdout, stderr, ms: Date.now() - t0 })));
        if (child.stdin) send(child.stdin);
      });
    const whole = claude('rm -rf /');
    const esmRoute = await binary(join(dir, 'cold-cache'), (s) => s.end(whole)); // a cold cache: the ES module route fills it
    const fastRoute = await binary(join(dir, 'cold-cache'), (s) => s.end(whole));
    expect(esmRoute.stderr).toContain('ROUTE esm stream\n');
    expect(fastRoute.stderr).toContain('ROUTE fast\n');
    expect({ ...fastRoute, ms: 0 }).toEqual({ ...esmRoute, ms: 0, stderr: esmRoute.stderr.replace('ROUTE esm stream', 'ROUTE fast') });

    await binary(cache, (s) => s.end(whole));
    const said = "hookwire claude-hook: no decision within 900 ms, before the hook's 1 s timeout (failing closed)\n";
    const held = await binary(cache, (s) => s.write('{"hook_event_name": "PreToolUse", '));
    expect(held.code).toBe(2);
    expect(held.stderr).toBe(`${said}ROUTE fast\n`);
    expect(held.ms).toBeLessThan(10_000);
    const fifo = join(dir, 'held.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `exec 3>${fifo}; printf '{"hook_event_name": ' >&3; sleep 20`], { stdio: 'ignore' });
    try {
      const fd = openSync(fifo, 'r');
      const viaFifo = await binary(cache, () => undefined, fd);
      closeSync(fd);
      expect(viaFifo.code).toBe(2);
      expect(viaFifo.stderr).toBe(`${said}ROUTE fast\n`);
    } finally {
      writer.kill();
    }
  });
});

