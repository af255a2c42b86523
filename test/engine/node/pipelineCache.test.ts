// The CLI's cache of validated pipelines (engine/node/pipelineCache.ts): a hit is exactly the structural parse
// it stands for, a change of text or build validates again, a broken cache is no cache, and a hook call's
// static module graph holds neither the schema library nor the recording lock (they load on demand).
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePipeline } from '../../../engine/model/parsePipeline.ts';
import { cachedParse, pipelineCache, rememberParse } from '../../../engine/node/pipelineCache.ts';
import { HOOK_BUNDLE, freshBundle } from '../../../engine/node/cliBundle.cjs';
import { lazyRe2Plugin } from '../../../engine/node/buildCli.mjs';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { BIN, FIXTURES, GUARD, ROOT, hookwire, spawnNode } from './runCli.ts';

const cacheOf = (build = 'test-build') => pipelineCache({ HOOKWIRE_CACHE_DIR: mkdtempSync(join(tmpdir(), 'hookwire-cache-')) }, build)!;

describe('pipeline cache', () => {
  it('[V5] a hit is the structural parse itself, unchanged by the round trip through the file', () => {
    const pipelines = [demoPipeline(), ...readdirSync(FIXTURES).filter((f) => f.endsWith('.pipeline.json')).map((f) => JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')))];
    const cache = cacheOf();
    for (const doc of pipelines) {
      const text = JSON.stringify(doc);
      const parsed = parsePipeline(JSON.parse(text));
      if (!parsed.doc) continue;
      expect(cachedParse(text, cache)).toBeNull();
      rememberParse(text, parsed, cache);
      expect(cachedParse(text, cache)).toStrictEqual(JSON.parse(JSON.stringify(parsed.doc)));
      expect(JSON.parse(JSON.stringify(parsed.doc))).toEqual(parsed.doc);
    }
  });

  it('a refused document is never remembered; another text or another build is no hit', () => {
    const cache = cacheOf('build-a');
    const text = readFileSync(GUARD, 'utf8');
    rememberParse(text, parsePipeline(JSON.parse(text)), cache);
    expect(cachedParse(text, cache)).not.toBeNull();
    expect(cachedParse(`${text} `, cache)).toBeNull();
    expect(cachedParse(text, { ...cache, build: 'build-b' })).toBeNull();
    const bad = JSON.stringify({ ...JSON.parse(text), wires: [{ from: 'nowhere', to: 'nobody' }] });
    const refused = parsePipeline(JSON.parse(bad));
    expect(refused.doc).toBeNull();
    rememberParse(bad, refused, cache);
    expect(cachedParse(bad, cache)).toBeNull();
  });

  it('a torn or foreign entry, or a cache that cannot be written, is no cache', () => {
    const cache = cacheOf();
    const text = readFileSync(GUARD, 'utf8');
    rememberParse(text, parsePipeline(JSON.parse(text)), cache);
    const [entry] = readdirSync(cache.dir);
    writeFileSync(join(cache.dir, entry!), '{"doc": {"format": "hookw');
    expect(cachedParse(text, cache)).toBeNull();
    writeFileSync(join(cache.dir, entry!), '{"doc": 7}');
    expect(cachedParse(text, cache)).toBeNull();
    const readOnly = cacheOf();
    rememberParse('{}', { doc: null, problems: [] }, readOnly); // nothing to keep: no directory made
    writeFileSync(join(readOnly.dir, '..', 'x'), '');
    chmodSync(join(readOnly.dir, '..'), 0o500);
    expect(() => rememberParse(text, parsePipeline(JSON.parse(text)), readOnly)).not.toThrow();
  });

  it('an entry found under a text\'s name but made for another text or build is no hit (names are a 64-bit hash, not SHA-256)', () => {
    const cache = cacheOf('build-a');
    const a = readFileSync(GUARD, 'utf8');
    const b = `${a}\n`;
    rememberParse(a, parsePipeline(JSON.parse(a)), cache);
    const [fileA] = readdirSync(cache.dir);
    rememberParse(b, parsePipeline(JSON.parse(b)), cache);
    const fileB = readdirSync(cache.dir).find((f) => f !== fileA)!;
    expect(fileA).toMatch(/^[0-9a-f]{16}\.json$/);
    expect(cachedParse(b, cache)).not.toBeNull();
    // As if the two names collided: b's name now holds a's entry.
    writeFileSync(join(cache.dir, fileB), readFileSync(join(cache.dir, fileA!)));
    expect(cachedParse(b, cache)).toBeNull();
    expect(cachedParse(a, cache)).not.toBeNull();
    // The same text remembered by another build under this build's name.
    const other = { ...cache, build: 'build-b' };
    rememberParse(a, parsePipeline(JSON.parse(a)), other);
    const fileOther = readdirSync(cache.dir).find((f) => f !== fileA && f !== fileB)!;
    writeFileSync(join(cache.dir, fileA!), readFileSync(join(cache.dir, fileOther)));
    expect(cachedParse(a, cache)).toBeNull();
    expect(cachedParse(a, other)).not.toBeNull();
  });

  it('is off when HOOKWIRE_PIPELINE_CACHE=0 and when running from sources', () => {
    expect(pipelineCache({ HOOKWIRE_PIPELINE_CACHE: '0' }, 'b')).toBeNull();
    expect(pipelineCache({}, null)).toBeNull();
  });

  /** The modules an entry loads at start (static imports, transitively), bundled as the CLI's bundles are. */
  async function staticGraph(entry: string, externals?: Set<string>): Promise<string[]> {
    const r = await build({ entryPoints: [entry], absWorkingDir: join(ROOT, 'engine'), bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', splitting: true, outdir: join(tmpdir(), 'hookwire-graph'), external: ['quickjs-emscripten-core', '@jitl/*'], plugins: [lazyRe2Plugin] });
    const inputs = r.metafile.inputs;
    expect(inputs[entry]).toBeDefined(); // metafile paths are relative to absWorkingDir
    const seen = new Set([entry]);
    const queue = [entry];
    while (queue.length) {
      for (const i of inputs[queue.shift()!]!.imports) {
        if (i.kind === 'import-statement' && i.external) externals?.add(i.path);
        if (i.kind === 'import-statement' && !i.external && !seen.has(i.path)) seen.add(i.path), queue.push(i.path);
      }
    }
    return [...seen];
  }

  it('a hook call loads neither zod nor the recording lock before it needs them (static module graph)', async () => {
    for (const entry of ['node/cli.ts', 'node/commands/claudeHookCommand.ts', 'node/hookMain.ts']) {
      const heavy = (await staticGraph(entry)).filter((p) => /node_modules\/(zod|proper-lockfile|re2js)\//.test(p));
      expect(heavy, entry).toEqual([]);
    }
  });

  it("the hook call's own entry loads neither commander nor re2js nor the CLI's table of commands, nor node:crypto", async () => {
    const builtins = new Set<string>();
    const graph = await staticGraph('node/hookMain.ts', builtins);
    expect(builtins.has('node:fs')).toBe(true);
    expect([...builtins].filter((b) => /^(node:)?crypto$/.test(b))).toEqual([]);
    expect(graph.filter((p) => /node_modules\/(commander|re2js)\/|node\/cli\.ts$/.test(p))).toEqual([]);
    expect(graph).toContain('node/lazyRe2.ts'); // re2js is there, as the module that requires it on first use
  });

  it('a real hook call remembers the pipeline and answers the same from the cache, and validates an edited file again', async (ctx) => {
    if (!freshBundle()) ctx.skip(); // the cache belongs to the built CLI; a stale bundle runs sources (no cache)
    const dir = mkdtempSync(join(tmpdir(), 'hookwire-cache-'));
    const env = { HOOKWIRE_CACHE_DIR: dir };
    const pipeline = join(dir, 'guard.json');
    writeFileSync(pipeline, readFileSync(GUARD, 'utf8'));
    const input = JSON.stringify({ session_id: 's', transcript_path: '/tmp/t', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't1' });
    const first = await hookwire(['claude-hook', pipeline], { stdin: input, env });
    expect(readdirSync(join(dir, 'pipelines'))).toHaveLength(1);
    const second = await hookwire(['claude-hook', pipeline], { stdin: input, env });
    expect(second).toEqual(first);
    expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    writeFileSync(pipeline, readFileSync(GUARD, 'utf8').replace('"format"', '"formt"'));
    const edited = await hookwire(['claude-hook', pipeline], { stdin: input, env });
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain('not a Hookwire pipeline');
  });
});

describe('re2js in a hook call', () => {
  it('a hook call whose pipeline this build compiled before does not load re2js, and answers as the first call did', async (ctx) => {
    if (!freshBundle(HOOK_BUNDLE)) ctx.skip(); // the bundles require re2js lazily; sources import it
    const dir = mkdtempSync(join(tmpdir(), 'hookwire-re2-'));
    const env = { HOOKWIRE_CACHE_DIR: dir };
    // Notes at exit whether Node's require loaded re2js (the bundles require it: engine/node/lazyRe2.ts).
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, `import { createRequire } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nprocess.on('exit', () => appendFileSync(${JSON.stringify(join(dir, 're2.log'))}, String(Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/re2js/'))) + '\\n'));\n`);
    const call = (command: string) => spawnNode(['--import', probe, BIN, 'claude-hook', GUARD], (s) => s.end(JSON.stringify({ session_id: 's', transcript_path: '/tmp/t', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' })), { env });
    const first = await call('rm -rf /');
    const second = await call('rm -rf /');
    expect(second).toEqual(first);
    expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    // The guard's patterns run as string operations and on the bit-parallel NFA; the first call checked them with RE2.
    expect(readFileSync(join(dir, 're2.log'), 'utf8')).toBe('true\nfalse\n');
    // Its redaction (replace-all) needs RE2 itself: re2js loads when that handler runs, and gives RE2's answer.
    const third = await call('deploy --token=abc123 now');
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('deploy --token=[REDACTED] now');
    expect(readFileSync(join(dir, 're2.log'), 'utf8')).toBe('true\nfalse\ntrue\n');
  });
});
