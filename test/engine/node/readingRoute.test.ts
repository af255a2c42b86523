// The reading commands' route (engine/node/cliBundle.cjs READING_COMMANDS): bin.cjs runs `replay`, `import`,
// `backtest`, `verify` and `diff` from the CLI as one CommonJS file (engine/node/readingMain.ts), compiled through
// V8's code cache, one cache per command. It is cli.ts loaded another way, so every answer is the CLI's byte for
// byte (exit code, stdout, stderr; real processes against `main` in this process); a stale or missing bundle
// hands the call to the ES module CLI; and the code cache changes nothing but speed. The built bundles are what is
// tested: without them (no `npm run prepare`, or stale ones) these tests are skipped, and say so.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI_BUNDLE, READING_BUNDLE, READING_COMMANDS, freshBundle } from '../../../engine/node/cliBundle.cjs';
import { FIXTURES, GUARD, ROOT, hookwire, hookwireInProcess } from './runCli.ts';

const built = freshBundle(READING_BUNDLE) !== null && freshBundle(CLI_BUNDLE) !== null;
if (!built) console.warn('readingRoute.test.ts: SKIPPED — the CLI bundles are not built or are stale (run `npm run prepare`)');

const GOLDEN = join(FIXTURES, 'golden', 'session.jsonl');
const FORMATS = join(ROOT, 'test', 'fixtures', 'formats');
const dir = mkdtempSync(join(tmpdir(), 'hookwire-reading-'));
const other = join(dir, 'other.pipeline.json');
writeFileSync(other, JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'o', nodes: [{ id: 'e', kind: 'event', pattern: 'tool.*' }, { id: 'h', kind: 'handler', name: 'Block', action: { type: 'block', reason: 'no tools' } }], wires: [{ from: 'e', to: 'h' }] }));
// Lines a reader refuses or repairs: not JSON, a cut last line, a repeated id [E5], a BOM and CRLF.
const rough = join(dir, 'rough.jsonl');
writeFileSync(
  rough,
  '\uFEFF{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"test"},"created":"2026-01-01T00:00:00Z"}\r\n' +
    '{"event_id":"e1","type":"tool.before_call","ts":"2026-01-01T00:00:01Z","payload":{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}},"recorded":{"decision":"continue"}}\r\n' +
    'not json\n' +
    '{"event_id":"e1","type":"tool.before_call","ts":"2026-01-01T00:00:02Z","payload":{"tool_name":"Bash","tool_input":{"command":"ls"}}}\n' +
    '{"event_id":"e2","type":"tool.before_call","ts":"2026-01-01T00:00:03Z","payload":{"é":"漢字"',
);

// A code handler: the QuickJS sandbox, whose package the bundle requires from outside (its CommonJS entry).
const code = join(dir, 'code.pipeline.json');
writeFileSync(code, JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'c', nodes: [{ id: 'e', kind: 'event', pattern: 'tool.before_call' }, { id: 'h', kind: 'handler', name: 'Code', action: { type: 'code', language: 'ts', source: "export default (ctx: HandlerContext) => ctx.payload.tool_name === 'Bash' ? block('no shell: ' + String(ctx.payload.tool_input?.command)) : null" } }], wires: [{ from: 'e', to: 'h' }] }));

const calls: string[][] = [
  ['replay', '--json', GUARD, GOLDEN],
  ['replay', '--json', code, GOLDEN],
  ['backtest', GUARD, code, GOLDEN, '--workers', '0', '--json'],
  ['replay', GUARD, GOLDEN],
  ['replay', '--json', '--check', other, GOLDEN],
  ['replay', '--json', GUARD, rough],
  ['replay', GUARD, join(FORMATS, 'codex-rollout.jsonl')],
  ['replay', '--json', GUARD, join(dir, 'missing.jsonl')],
  ['replay', '--json', join(dir, 'missing.json'), GOLDEN],
  ['replay', '--no-such-option', GUARD, GOLDEN],
  ['replay', '--help'],
  ['import', join(FORMATS, 'codex-rollout.jsonl')],
  ['import', join(FORMATS, 'aider.chat.history.md')],
  ['verify', GOLDEN],
  ['diff', GUARD, other, GOLDEN],
  ['backtest', GUARD, other, FORMATS, '--workers', '0', '--progress', 'never', '--json'],
];

describe.skipIf(!built)('the reading commands run from the CLI as one CommonJS file (V8 code cache)', () => {
  it('takes exactly the reading commands', () => {
    expect([...READING_COMMANDS].sort()).toEqual(['backtest', 'diff', 'import', 'replay', 'verify']);
  });

  for (const args of calls) {
    it(`answers \`hookwire ${args.join(' ').replaceAll(dir, '<dir>').replaceAll(ROOT, '.')}\` as the CLI does`, async () => {
      expect(await hookwire(args)).toEqual(await hookwireInProcess(args));
    });
  }

  it('keeps a code cache per command beside the bundle', async () => {
    await hookwire(['verify', GOLDEN]);
    expect(readdirSync(dirname(READING_BUNDLE)).some((f) => /^v8-code-cache-verify-\d+-\d+\.bin$/.test(f))).toBe(true);
  });

  it("backtest's worker threads load the bundle that started them: the same report as in one thread", async () => {
    const args = ['backtest', GUARD, other, FORMATS, '--progress', 'never', '--json', '--fail-on', 'none'];
    const threaded = await hookwire([...args, '--workers', '2']);
    expect(threaded.code).toBe(0);
    expect(threaded).toEqual(await hookwire([...args, '--workers', '0']));
  });

  it('a stale bundle hands the call to the ES module CLI, which answers the same', async () => {
    const args = ['replay', '--json', GUARD, rough];
    const expected = await hookwireInProcess(args);
    const { atime, mtime } = statSync(READING_BUNDLE);
    utimesSync(READING_BUNDLE, 1, 1); // older than every source it was made of
    try {
      expect(freshBundle(READING_BUNDLE)).toBeNull();
      expect(await hookwire(args)).toEqual(expected);
    } finally {
      utimesSync(READING_BUNDLE, atime, mtime);
    }
    expect(freshBundle(READING_BUNDLE)).not.toBeNull();
  });

  it('a code cache written, read back, or refused (garbage) gives the same answers', async () => {
    // Each load in a process of its own: V8 keeps what one process compiled in memory. The copy sits beside the
    // bundle's directory, where its require() finds the packages it leaves outside (re2js).
    const copy = mkdtempSync(join(dirname(READING_BUNDLE), '..', 'test-reading-cache-'));
    onTestFinished(() => rmSync(copy, { recursive: true, force: true }));
    const file = join(copy, 'readingMain.cjs');
    copyFileSync(READING_BUNDLE, file);
    const args = ['replay', '--json', GUARD, rough];
    const expected = await hookwireInProcess(args);
    const script = `const { codeCacheBeside, loadWithCodeCache } = require(${JSON.stringify(join(ROOT, 'engine', 'node', 'cliBundle.cjs'))});
const { exports, keep, cached, rejected } = loadWithCodeCache(${JSON.stringify(file)}, codeCacheBeside(${JSON.stringify(file)}, 'replay'));
let stdout = '', stderr = '';
exports.main(['node', 'hookwire', ...${JSON.stringify(args)}], { out: (t) => (stdout += t), err: (t) => (stderr += t) }, async () => '').then((code) => {
  keep();
  console.log(JSON.stringify({ code, stdout, stderr, cached, rejected }));
});`;
    const load = () => JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, HOOKWIRE_CACHE_DIR: join(copy, 'cache') } }).trim().split('\n').pop()!) as { code: number; stdout: string; stderr: string; cached: boolean; rejected: boolean };
    const cacheFiles = () => readdirSync(copy).filter((f) => f.startsWith('v8-code-cache-'));
    const answer = (r: ReturnType<typeof load>) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });
    const first = load();
    expect([first.cached, cacheFiles()]).toEqual([false, [expect.stringMatching(/^v8-code-cache-replay-\d+-\d+\.bin$/)]]);
    const second = load();
    expect([second.cached, second.rejected]).toEqual([true, false]);
    writeFileSync(join(copy, cacheFiles()[0]!), 'not V8 code cache data'.repeat(100));
    const third = load();
    expect([third.cached, third.rejected]).toEqual([true, true]);
    for (const r of [first, second, third]) expect(answer(r)).toEqual(expected);
  });
});
