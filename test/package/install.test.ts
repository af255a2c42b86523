// The package as a user gets it: `npm pack` (prepack builds dist/), a fresh project, `npm install` of the
// tarball with no network (a lock made from the checkout's own, so npm takes every package from its cache),
// then the README example in plain Node, a strict NodeNext TypeScript project, the installed `hookwire`
// binary, `hookwire ui` in Chromium, publint and Are the Types Wrong, and the install's size.
// Built and installed once (beforeAll); the checks share it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import initSqlJs from 'sql.js';
import { compilePipeline, PIPELINE_SCHEMA_ID } from '../../engine/index.ts';
import { decideTrace } from '../../engine/runtime/index.ts';
import { readTrace } from '../../engine/trace/index.ts';
import { chromiumExecutable } from '../../e2e/chromium.ts';
import { HOOK_INPUTS } from '../engine/runtime/claudeHookInputs.ts';
import { packAndInstall, REPO_ROOT as ROOT, runtimeSizes, sh, type Installed } from './installTarball.ts';
import { readmeBlock } from './readme.ts';
import { kernelLockName } from '../../engine/node/serve/recordingLock.ts';
import { deadLinks, linksOf } from '../docs/markdownLinks.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };

/**
 * Budget for what `npm install hookwire` puts on disk for the runtime: the production dependencies plus the
 * package without its app (dist/web), in bytes of file content: the goal of 10 MB. Measured 11.5 MB on
 * 2026-12-01 with zod installed (5.9 MB: it ships zod 3, 4 and mini, each as ESM, CommonJS and .d.ts) and
 * 12.9 MB before that with Sucrase installed too; both are bundled into dist/ now (see buildPackage.mjs).
 */
const RUNTIME_BUDGET_BYTES = 10 * 1024 * 1024;
/** Packages bundled into dist/ instead of installed. */
const BUNDLED = ['sucrase', 'zod', 'sql.js'];
/** A desktop viewport at least as wide as the app needs to open its side panels on first view. */
const WIDE = { width: 1440, height: 900 };
/** Packages a runtime consumer must never get: the app's, the build's and the tests'. */
const NOT_AT_RUNTIME = ['react', 'react-dom', 'monaco-editor', '@xyflow/react', 'dexie', 'vite', 'esbuild', 'tsx', 'typescript', 'vitest', '@playwright/test', 'zustand'];

let installed: Installed;
let work = '';
let project = '';
let tarball = '';
let production: string[] = [];
/** The checkout's package.json before the pack, and its modification time (the pack strips and restores it). */
let manifestBefore = '';
let manifestMtime = 0;

/** Binds a kernel-held lock name, as a hook call holding the recording does. */
const holdName = (name: string) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ path: name, exclusive: true }, () => resolve(server));
  });
const hookwire = (args: string[], input?: string) => sh('npx', ['--no', '--', 'hookwire', ...args], project, input);
/**
 * A long-running `npx hookwire …` (serve, ui), started in a process group of its own: npx runs the binary as a
 * child of its own and does not pass SIGTERM on, so killing npx alone left the server running after the test.
 */
const npxServer = (args: string[]) => spawn('npx', ['--no', '--', 'hookwire', ...args], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
const stopServer = (child: ReturnType<typeof spawn>) => {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
};

beforeAll(() => {
  // TypeScript and Node's types for the type-check, as a TypeScript user has them (devDependencies).
  manifestBefore = readFileSync(join(ROOT, 'package.json'), 'utf8');
  manifestMtime = statSync(join(ROOT, 'package.json')).mtimeMs;
  installed = packAndInstall(['typescript', '@types/node']);
  ({ work, project, tarball, production } = installed);
  writeFileSync(join(project, 'guard.pipeline.json'), readmeBlock('guard.pipeline.json'));
  copyFileSync(join(ROOT, 'test', 'engine', 'node', 'fixtures', 'golden', 'session.jsonl'), join(project, 'run.jsonl'));
}, 600_000); // npm pack builds dist/ (tsc, the CLI bundles, vite): over 300 s at load 15-18 on the shared machine

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package, installed into a fresh project', () => {
  it('installs no web, build or test package for the runtime, and stays within the size budget', () => {
    const names = production.map((p) => p.replace(/^.*node_modules\//, ''));
    expect(names.filter((n) => NOT_AT_RUNTIME.includes(n))).toEqual([]);
    expect(Object.keys(pkg.dependencies).filter((n) => NOT_AT_RUNTIME.includes(n))).toEqual([]);
    const nm = join(project, 'node_modules');
    const sizes = runtimeSizes(installed);
    const own = sizes.own;
    const deps = Object.values(sizes.deps).reduce((x, y) => x + y, 0);
    console.log(`runtime install: ${(own / 2 ** 20).toFixed(2)} MB hookwire without dist/web + ${(deps / 2 ** 20).toFixed(2)} MB production dependencies`);
    expect(own + deps).toBeLessThanOrEqual(RUNTIME_BUDGET_BYTES);
    expect(existsSync(join(nm, 'tsx'))).toBe(false);
    expect(BUNDLED.filter((n) => existsSync(join(nm, n))), 'bundled into dist/, not installed').toEqual([]);
  });

  it('ships a package.json without scripts (no `prepare` for a file it does not ship), and leaves the checkout\'s as it was', () => {
    const shipped = JSON.parse(readFileSync(join(project, 'node_modules', 'hookwire', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(shipped.scripts).toBeUndefined();
    expect(shipped.name).toBe(pkg.name);
    expect(shipped.bin).toEqual({ hookwire: 'dist/cli/bin.cjs' });
    // The checkout keeps its scripts, byte for byte, and its time (the CLI bundle is stale when package.json is newer).
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toBe(manifestBefore);
    expect(JSON.parse(manifestBefore).scripts.prepare).toBeDefined();
    // Restored to within a millisecond (the file system keeps less than a double's precision).
    expect(Math.abs(statSync(join(ROOT, 'package.json')).mtimeMs - manifestMtime)).toBeLessThan(1);
    expect(existsSync(join(ROOT, 'node_modules', '.cache', 'hookwire', 'package.json.packing'))).toBe(false);
  });

  it('every relative link of the installed README and docs reaches a file (and heading) that shipped', () => {
    const dir = join(project, 'node_modules', 'hookwire');
    const pages = [join(dir, 'README.md'), ...readdirSync(join(dir, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(dir, 'docs', f))];
    const texts = pages.map((p) => readFileSync(p, 'utf8'));
    // The check sees something: the README links into docs/ and docs/ into SPEC and the schemas.
    expect(texts.flatMap((t) => linksOf(t)).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l)).length).toBeGreaterThan(20);
    expect(texts.some((t) => linksOf(t).some((l) => l.includes('SPEC.md')))).toBe(true);
    expect(pages.flatMap((p, i) => deadLinks(p, texts[i]!).map((d) => `${p.slice(dir.length + 1)}: ${d}`))).toEqual([]);
  });

  it('a strict NodeNext consumer with default settings gets zero errors, its libraries\' declarations checked too', { timeout: 400_000 }, () => {
    // No skipLibCheck: every declaration the package's types reach is compiled. QuickJS's declarations need
    // lib esnext.disposable and lib dom; the package's types must not reach them (buildPackage.mjs,
    // opaqueQuickJSTypes): a default ES2022 lib gave 5 errors, a Node project on `lib: ["esnext"]` 12.
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const configs: Record<string, { files: Record<string, string>; options: Record<string, unknown> }> = {
      defaults: {
        options: { module: 'nodenext', strict: true, noEmit: true },
        files: { 'main.ts': "import { createRuntime, createQuickJSSandbox } from 'hookwire';\nimport { loadRuntime, createNodeSandbox } from 'hookwire/node';\nvoid createRuntime; void createQuickJSSandbox; void loadRuntime; void createNodeSandbox;\n" },
      },
      'ES2022 lib, no Node types (the pure engine, as in a browser)': {
        options: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [] },
        files: { 'main.ts': "import { createRuntime, createQuickJSSandbox, type QuickJSSandbox } from 'hookwire';\nconst r = createRuntime('{}');\nlet s: QuickJSSandbox | undefined;\nvoid r; void s; void createQuickJSSandbox;\n" },
      },
      'a Node project without the DOM lib': {
        options: { module: 'nodenext', target: 'es2022', lib: ['es2023'], strict: true, noEmit: true, types: ['node'] },
        files: { 'main.ts': "import { createQuickJSSandbox } from 'hookwire';\nimport { loadRuntime, createNodeSandbox } from 'hookwire/node';\nconst sb = await createNodeSandbox();\nvoid sb.stats().calls; void createQuickJSSandbox; void loadRuntime;\n" },
      },
    };
    for (const [name, { options, files }] of Object.entries(configs)) {
      const dir = join(project, `strict-${Object.keys(configs).indexOf(name)}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: ['*.ts'] }));
      const r = sh(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
      expect(`${name}: ${r.stdout}${r.stderr}`).toBe(`${name}: `);
      expect(r.status).toBe(0);
    }
  });

  it('[V10] ships the pipeline schema at the path its $id names', () => {
    const shipped = join(project, 'node_modules', 'hookwire', PIPELINE_SCHEMA_ID.slice(PIPELINE_SCHEMA_ID.indexOf('/hookwire/') + '/hookwire/'.length));
    expect(JSON.parse(readFileSync(shipped, 'utf8')).$id).toBe(PIPELINE_SCHEMA_ID);
  });

  it('[P6][P7] (a) plain node runs the README example against `hookwire/node`, prints what the README says, and its recording replays', () => {
    writeFileSync(join(project, 'guard.pipeline.json'), readmeBlock('guard.pipeline.json'));
    writeFileSync(join(project, 'agent.mjs'), readmeBlock('agent.mjs'));
    const run = sh(process.execPath, ['agent.mjs'], project);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(readmeBlock('output'));

    const recording = readTrace(readFileSync(join(project, 'traces', 'demo-run.hwtrace.jsonl'), 'utf8'));
    expect(recording.status).toBe('ok');
    const compiled = compilePipeline(JSON.parse(readmeBlock('guard.pipeline.json')));
    if (!compiled.ok) throw new Error('the README pipeline does not compile');
    const replayed = [...decideTrace(compiled.compiled, recording.events)].map((r) => r.decision);
    expect(replayed).toEqual(recording.events.map((e) => e.recorded?.decision));
    expect(replayed).toContain('block_action');
    expect(replayed).toContain('terminate');
    const audit = readFileSync(join(project, 'audit.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(audit.map((a) => a.decision)).toEqual(recording.events.filter((e) => e.type !== 'agent.end').map((e) => e.recorded?.decision));
  });

  it('(a) the pure engine `hookwire` imports without Node built-ins or QuickJS, and dispatches', () => {
    const script = [
      "import { createRuntime } from 'hookwire';",
      "import { readFileSync } from 'node:fs';",
      "import schema from 'hookwire/schema/pipeline.v1.schema.json' with { type: 'json' };",
      "if (!schema.$id.endsWith('/pipeline.v1.schema.json')) throw new Error('not the schema');",
      "const loaded = createRuntime(readFileSync('guard.pipeline.json', 'utf8'));",
      'if (!loaded.ok) throw new Error("does not load");',
      "const answer = loaded.runtime.startTrace({ trace_id: 't' }).emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });",
      'console.log(answer.decision);',
    ].join('\n');
    writeFileSync(join(project, 'guard.pipeline.json'), readmeBlock('guard.pipeline.json'));
    writeFileSync(join(project, 'pure.mjs'), script);
    // Loading `hookwire` must not load QuickJS or any Node module: watch what the loader resolves.
    const run = sh(process.execPath, ['--experimental-loader', 'data:text/javascript,export async function resolve(s,c,n){const r=await n(s,c);if(c.parentURL&&c.parentURL.includes("/node_modules/hookwire/"))process.stderr.write("RESOLVED "+r.url+"\\n");return r}', 'pure.mjs'], project);
    expect(run.stdout.trim()).toBe('block_action');
    const resolved = run.stderr.split('\n').filter((l) => l.startsWith('RESOLVED ')).map((l) => l.slice(9));
    expect(resolved.length).toBeGreaterThan(10);
    expect(resolved.filter((u) => u.startsWith('node:') || /\/node_modules\/(quickjs-emscripten-core|@jitl)\//.test(u))).toEqual([]);
  });

  it('(b) a strict `module: nodenext` TypeScript project type-checks against the installed types with zero errors', { timeout: 120_000 }, () => {
    const dir = join(project, 'ts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(dir, 'agent.ts'), readmeBlock('agent.mjs'));
    writeFileSync(join(dir, 'types.ts'), [
      "import { compilePipeline, createRuntime, dispatch, initialState, PIPELINE_FORMAT, type PipelineInput, type Decision } from 'hookwire';",
      "import { loadRuntime, createNodeSandbox } from 'hookwire/node';",
      "import { createQuickJSSandbox } from 'hookwire';",
      "import type { QuickJSWASMModule } from 'quickjs-emscripten-core';",
      '// The package declares the QuickJS module without QuickJS\'s types; the library\'s own module is one.',
      'declare const real: QuickJSWASMModule;',
      'void createQuickJSSandbox(real).stats().calls;',
      "const doc: PipelineInput = { format: PIPELINE_FORMAT, version: 1, name: 'p', nodes: [], wires: [] };",
      'const c = compilePipeline(doc);',
      "const d: Decision | undefined = c.ok ? dispatch(c.compiled, { event_id: 'e', trace_id: 't', agent_id: 'a', type: 'agent.start', ts: '2026-03-01T10:00:00Z', payload: {} }, initialState(), { clock: { now: () => 0 } }).decision : undefined;",
      'const rt = createRuntime(doc);',
      "const e: Decision | undefined = rt.ok ? rt.runtime.startTrace().emit('agent.start', {}).decision : undefined;",
      '// The types are real, not `any`: these must be errors.',
      '// @ts-expect-error a pipeline format is a literal',
      "const bad: PipelineInput = { ...doc, format: 'other' };",
      '// @ts-expect-error loadRuntime takes a path or a document, not a number',
      'void loadRuntime(42);',
      'void createNodeSandbox; void d; void e; void bad;',
    ].join('\n'));
    const strict = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noEmit: true, types: ['node'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...strict, skipLibCheck: true }, include: ['*.ts'] }));
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = sh(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    // With the declaration files checked too, none of Hookwire's own has an error.
    const libCheck = sh(process.execPath, [tsc, '-p', 'tsconfig.json', '--skipLibCheck', 'false'], dir);
    expect(libCheck.stdout.split('\n').filter((l) => l.includes('node_modules/hookwire/'))).toEqual([]);
  });

  it('(c) the installed `hookwire` binary runs --help, validate, replay and claude-hook without tsx', { timeout: 60_000 }, async () => {
    writeFileSync(join(project, 'guard.pipeline.json'), readmeBlock('guard.pipeline.json'));
    const help = hookwire(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/claude-hook/);
    expect(help.stdout).toMatch(/\bui\b/);
    expect(hookwire(['--version']).stdout.trim()).toBe(pkg.version);

    const valid = hookwire(['validate', 'guard.pipeline.json']);
    expect(valid.stdout).toMatch(/guard\.pipeline\.json: valid/);
    expect(valid.status).toBe(0);
    writeFileSync(join(project, 'broken.pipeline.json'), '{"format": "hookwire.pipeline", "version": 1, "name": "x", "nodes": [{"id": "h", "kind": "handler", "action": {"type": "nope"}}], "wires": []}');
    expect(hookwire(['validate', 'broken.pipeline.json']).status).toBe(1);

    const replay = hookwire(['replay', '--json', 'guard.pipeline.json', 'run.jsonl']);
    expect(replay.status).toBe(0);
    const decisions = replay.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).decision);
    expect(decisions).toContain('block_action');

    const deny = hookwire(['claude-hook', 'guard.pipeline.json'], JSON.stringify({ ...HOOK_INPUTS.PreToolUse, tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }));
    expect(deny.status).toBe(0);
    expect(JSON.parse(deny.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    const failClosed = hookwire(['claude-hook', 'guard.pipeline.json'], 'not json');
    expect(failClosed.status).toBe(2);
    // [P12] The deadline's answer ends the process (Claude Code reads the exit code at exit): with the recording
    // locked by another call for good, a 1 s hook exits at its deadline, not after the 30 s lock wait.
    writeFileSync(join(project, 'held.jsonl'), '');
    // Another live holder of the recording's lock, held for good: on Linux the lock is an abstract socket name the
    // kernel gives one process at a time [P13], so this process binds it; elsewhere it is the file lock, dated an
    // hour ahead so that it stays fresh however late the call starts on a loaded machine.
    const lockName = kernelLockName(join(project, 'held.jsonl'));
    const holder = lockName === null ? null : await holdName(lockName);
    if (lockName === null) {
      mkdirSync(join(project, 'held.jsonl.lock'));
      const ahead = new Date(Date.now() + 3_600_000);
      utimesSync(join(project, 'held.jsonl.lock'), ahead, ahead);
    }
    const t0 = Date.now();
    const late = hookwire(['claude-hook', 'guard.pipeline.json', '--record', 'held.jsonl', '--timeout', '1', '--lock-timeout', '30000'], JSON.stringify(HOOK_INPUTS.PreToolUse));
    const took = Date.now() - t0;
    holder?.close();
    expect(late.status, late.stderr).toBe(2);
    expect(late.stderr).toMatch(/no decision within 900 ms/);
    expect(took, 'exited at the deadline, not at the end of the lock wait').toBeLessThan(15_000);
    // The binary is the built JavaScript: nothing in the install can compile TypeScript on the fly.
    const bin = readFileSync(join(project, 'node_modules', 'hookwire', 'package.json'), 'utf8');
    expect(JSON.parse(bin).bin.hookwire).toMatch(/^dist\/.*\.c?js$/);
  });

  it('[P12] the installed binary\'s hook routes (CommonJS front, fast route, forwarder, ES module CLI) answer alike, and a crash on each fails closed', { timeout: 120_000 }, async () => {
    writeFileSync(join(project, 'guard.pipeline.json'), readmeBlock('guard.pipeline.json'));
    const dist = join(project, 'node_modules', 'hookwire', 'dist', 'cli');
    // The front is CommonJS whatever the package's type, and imports the ES module CLI, which stays a file of its own.
    expect(readFileSync(join(dist, 'bin.cjs'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n"use strict";/);
    expect(readFileSync(join(dist, 'bin.cjs'), 'utf8')).toContain('import("./bin.js")');
    const cache = join(work, 'user-cache');
    const env = { XDG_CACHE_HOME: cache };
    const rm = JSON.stringify({ ...HOOK_INPUTS.PreToolUse, tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const call = (args: string[], input: string, more: Record<string, string> = {}) => sh('npx', ['--no', '--', 'hookwire', ...args], project, input, { ...env, ...more });
    const denies = (r: ReturnType<typeof call>) => {
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('rm -rf /') });
    };
    // The first call validates the pipeline on the ES module route and fills the pipeline cache; the second is the
    // fast route's, which on a Node without a compile cache (20) keeps V8's code cache in the user's cache directory.
    const first = call(['claude-hook', 'guard.pipeline.json'], rm);
    denies(first);
    const fast = call(['claude-hook', 'guard.pipeline.json'], rm);
    denies(fast);
    expect(fast.stdout).toBe(first.stdout);
    const noCompileCache = typeof ((await import('node:module')).default as { enableCompileCache?: unknown }).enableCompileCache !== 'function';
    if (noCompileCache) expect(readdirSync(join(cache, 'hookwire', 'v8-code-cache')).filter((f) => /^hook-fast-[0-9a-f]+\.bin$/.test(f))).toHaveLength(1);
    // --record takes the ES module route: the same answer.
    denies(call(['claude-hook', 'guard.pipeline.json', '--record', 'routes.jsonl'], rm));
    // A crash outside the command on every route (fast, ES module, forwarder) is exit 2 with the reason: the preload
    // strikes once the hook input has been read, as in claudeHookCli.test.ts.
    const strike = (crash: string) =>
      `const concat = Buffer.concat;\nBuffer.concat = function (...a) {\n  const out = concat.apply(this, a);\n  if (out.includes('hook_event_name')) { Buffer.concat = concat; ${crash} }\n  return out;\n};\n`;
    writeFileSync(join(work, 'throw.cjs'), strike("setImmediate(() => { throw new Error('simulated crash'); });"));
    writeFileSync(join(work, 'reject.cjs'), strike("setImmediate(() => { Promise.reject(new Error('simulated rejection')); });"));
    const crashes = (route: string[]) => {
      for (const [preload, message] of [['throw.cjs', 'simulated crash'], ['reject.cjs', 'simulated rejection']] as const) {
        // node on the installed link itself: through npx the preload would strike npx's own process too.
        const r = sh(process.execPath, ['--require', join(work, preload), join(project, 'node_modules', '.bin', 'hookwire'), ...route], project, rm, env);
        expect(r.status, `${route.join(' ')} ${preload}: ${r.stderr}`).toBe(2);
        expect(r.stderr, route.join(' ')).toMatch(/^hookwire claude-hook: internal error: .*\(failing closed\)\n$/s);
        expect(r.stderr).toContain(message);
      }
    };
    crashes(['claude-hook', 'guard.pipeline.json']);
    crashes(['claude-hook', 'guard.pipeline.json', '--audit', 'audit-routes.jsonl']);
    // Forwarded to a real `hookwire serve` of the installed package: the forwarder's own CommonJS bundle.
    const state = join(work, 'serve-state');
    const server = npxServer(['serve', 'guard.pipeline.json', '--port', '0', '--state-dir', state, '--no-watch']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout!.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const port = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
          if (port) resolve(port);
        });
        server.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
        server.on('exit', (code) => reject(new Error(`hookwire serve exited (${code}): ${out}`)));
      });
      denies(call(['claude-hook', '--server', url, '--state-dir', state], rm));
      // An agent's call (the forwarder's agentHook.cjs beside it) answers as the same call decided here.
      const shell = JSON.stringify({ conversation_id: 'conv-1', generation_id: 'gen-1', workspace_roots: [project], cursor_version: '2.0.77', hook_event_name: 'beforeShellExecution', command: 'rm -rf /', cwd: project });
      const here = call(['hook', '--agent', 'cursor', 'guard.pipeline.json'], shell);
      const forwarded = call(['hook', '--agent', 'cursor', '--server', url, '--state-dir', state], shell);
      expect(forwarded.status, forwarded.stderr).toBe(here.status);
      expect(JSON.parse(forwarded.stdout)).toEqual(JSON.parse(here.stdout));
      expect(JSON.parse(here.stdout)).toHaveProperty('permission');
      crashes(['claude-hook', '--server', url, '--state-dir', state]);
    } finally {
      stopServer(server);
    }
    // A server that is not there: the forwarder's fail-closed answer.
    const away = call(['claude-hook', '--server', 'http://127.0.0.1:9', '--state-dir', state], rm);
    expect(away.status).toBe(2);
    expect(away.stderr).toMatch(/cannot reach the server.*\(failing closed\)/);
  });

  it("the installed binary's reading route (replay, import, backtest, verify, diff from one CommonJS file) answers as the ES module CLI, with a code cache per command", { timeout: 120_000 }, async () => {
    writeFileSync(join(project, 'guard.pipeline.json'), readmeBlock('guard.pipeline.json'));
    writeFileSync(join(project, 'open.pipeline.json'), JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'open', nodes: [], wires: [] }));
    const dist = join(project, 'node_modules', 'hookwire', 'dist', 'cli');
    expect(readFileSync(join(dist, 'reading', 'readingMain.cjs'), 'utf8')).toMatch(/^const __hookwireMeta = /); // CommonJS
    const cache = join(work, 'reading-cache');
    const env = { XDG_CACHE_HOME: cache };
    const front = (args: string[]) => sh('npx', ['--no', '--', 'hookwire', ...args], project, '', env);
    const esm = (args: string[]) => sh(process.execPath, [join(dist, 'bin.js'), ...args], project, '', env);
    const answer = (r: ReturnType<typeof front>) => ({ status: r.status, stdout: r.stdout, stderr: r.stderr });
    for (const args of [
      ['replay', '--json', 'guard.pipeline.json', 'run.jsonl'],
      ['replay', 'guard.pipeline.json', 'run.jsonl'],
      ['replay', '--json', '--check', 'open.pipeline.json', 'run.jsonl'],
      ['replay', '--json', 'guard.pipeline.json', 'missing.jsonl'],
      ['import', 'run.jsonl'],
      ['verify', 'run.jsonl'],
      ['diff', 'guard.pipeline.json', 'open.pipeline.json', 'run.jsonl'],
      ['backtest', 'guard.pipeline.json', 'open.pipeline.json', 'run.jsonl', 'run.jsonl', '--workers', '2', '--json', '--progress', 'never'],
    ]) {
      const first = answer(front(args));
      expect(first, args.join(' ')).toEqual(answer(esm(args)));
      expect(answer(front(args)), `${args.join(' ')} (code cache read back)`).toEqual(first);
    }
    const noCompileCache = typeof ((await import('node:module')).default as { enableCompileCache?: unknown }).enableCompileCache !== 'function';
    if (noCompileCache) expect(readdirSync(join(cache, 'hookwire', 'v8-code-cache')).filter((f) => /^reading-[a-z]+-[0-9a-f]+\.bin$/.test(f)).sort().map((f) => f.split('-')[1])).toEqual(['backtest', 'diff', 'import', 'replay', 'verify']);
  });

  it('(d) `npx hookwire ui` serves the app with the strict CSP; Chromium reaches the demo, and with files lands in the debugger on them', { timeout: 120_000 }, async () => {
    const browser = await chromium.launch({
      ...(chromiumExecutable() ? { executablePath: chromiumExecutable() } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const servers: ReturnType<typeof spawn>[] = [];
    const start = (args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = npxServer(['ui', '--port', '0', ...args]);
        servers.push(child);
        let out = '';
        child.stdout!.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /Hookwire app: (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
        child.on('exit', (code) => reject(new Error(`hookwire ui exited (${code}): ${out}`)));
      });
    try {
      // No files: the app on its first run, with the demo pipeline and the demo trace.
      const url = await start([]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      // Wide enough for the library panel to be open on first view (web/shell/sidePanel.ts WIDE_ENOUGH = 1400).
      const page = await browser.newPage({ viewport: WIDE });
      const violations: string[] = [];
      page.on('console', (m) => {
        if (m.text().startsWith('CSP violation')) violations.push(m.text());
      });
      await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => console.log(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)));
      const uncovered: string[] = [];
      page.on('response', (r) => {
        if (!r.headers()['content-security-policy']?.includes("script-src 'self' 'wasm-unsafe-eval'")) uncovered.push(r.url());
      });
      await page.goto(url);
      await page.getByText('Demo: agent safety policy').first().waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Debug', exact: true }).click();
      await page.getByText('Demo: coding agent session').first().waitFor({ timeout: 30_000 });
      expect(uncovered.filter((u) => u.startsWith(url))).toEqual([]);
      expect(violations).toEqual([]);
      // The schema the pipeline's $schema names is served too.
      const schema = await page.request.get(`${url}schema/pipeline.v1.schema.json`);
      expect(schema.status()).toBe(200);
      await page.close();

      // A pipeline and a trace from the command line: the app opens both and shows the debugger on them.
      const withFiles = await start(['guard.pipeline.json', 'run.jsonl']);
      expect(withFiles).toMatch(/#open=[0-9a-f]+$/);
      const context = await browser.newContext({ viewport: WIDE });
      const p2 = await context.newPage();
      await p2.goto(withFiles);
      await p2.getByText('Imported “').waitFor({ timeout: 30_000 });
      await expect.poll(() => p2.locator('.topbar, [data-testid="app-root"]').first().textContent()).toMatch(/guard/);
      await p2.getByText('9 events').first().waitFor();
      expect(new URL(p2.url()).hash).toBe('');
      // Without the token the files are not handed out.
      const base = withFiles.replace(/#.*$/, '');
      expect((await p2.request.get(`${base}api/open`)).status()).toBe(401);

      // A pipeline the engine refuses is not added; the app says so and how to see why.
      writeFileSync(join(project, 'refused.pipeline.json'), '{"format": "hookwire.pipeline", "version": 1, "name": "x", "nodes": [{"id": "h", "kind": "handler", "action": {"type": "nope"}}], "wires": []}');
      const refused = await start(['refused.pipeline.json']);
      const p3 = await (await browser.newContext({ viewport: WIDE })).newPage();
      await p3.goto(refused);
      await p3.getByText(/refused\.pipeline\.json cannot be opened: \d+ problem/).waitFor({ timeout: 30_000 });
    } finally {
      for (const s of servers) stopServer(s);
      await browser.close();
    }
  });

  it('[I22] reads an agent\'s SQLite session store with the sql.js it ships (installed binary and `hookwire/node`)', { timeout: 60_000 }, async () => {
    // A goose sessions.db holding the project's own goose export (columns from goose's session_manager.rs),
    // made with the checkout's sql.js; the installed package has its own copy and no sql.js package.
    const SQL = await initSqlJs();
    const session = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'formats', 'goose-export.json'), 'utf8')) as { id: string; name: string; working_dir: string; conversation: { role: string; content: unknown; created: number }[] };
    const db = new SQL.Database();
    db.run('CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT, working_dir TEXT, created_at TIMESTAMP, updated_at TIMESTAMP)');
    db.run('CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER, timestamp TIMESTAMP)');
    db.run('INSERT INTO sessions VALUES (?,?,?,?,?)', [session.id, session.name, session.working_dir, '2026-03-01 10:00:00', '2026-03-01 10:02:00']);
    session.conversation.forEach((m, i) => {
      db.run('INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp) VALUES (?,?,?,?,?)', [session.id, m.role, JSON.stringify(m.content), m.created, `2026-03-01 10:00:${String(i).padStart(2, '0')}`]);
    });
    writeFileSync(join(project, 'sessions.db'), db.export());
    db.close();
    expect(existsSync(join(project, 'node_modules', 'sql.js')), 'sql.js is vendored, not installed').toBe(false);

    const imported = hookwire(['import', 'sessions.db', '-o', 'goose.jsonl']);
    expect(imported.status, imported.stderr).toBe(0);
    const lines = readFileSync(join(project, 'goose.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { agent_id?: string; type?: string; payload?: { command?: string } });
    expect(lines[0]!.agent_id).toBe('goose');
    expect(lines.some((e) => e.type === 'tool.before_call' && e.payload?.command === 'ls src/*.ts')).toBe(true);
    writeFileSync(join(project, 'store.mjs'), [
      "import { importTraceFile } from 'hookwire/node';",
      "const r = await importTraceFile('sessions.db');",
      "console.log(JSON.stringify({ format: r.format, events: r.trace?.events.length, problems: r.problems.filter((p) => p.severity === 'error') }));",
    ].join('\n'));
    const run = sh(process.execPath, ['store.mjs'], project);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ format: 'goose', events: lines.length - 1, problems: [] });
  });

  it('[S1] runs a TypeScript code handler in the sandbox through the bundled Sucrase (installed binary and `hookwire/node`)', { timeout: 60_000 }, () => {
    const pipeline = {
      format: 'hookwire.pipeline', version: 1, name: 'typed',
      nodes: [
        { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
        { id: 'h', kind: 'handler', name: 'typed guard', action: { type: 'code', language: 'ts', source: 'interface Input { command?: string }\nexport default function (ctx: HandlerContext) {\n  const input = ctx.payload.tool_input as Input;\n  return input.command?.startsWith("rm ") ? { decision: "block_action", reason: `typed: ${input.command}` } : { decision: "continue" };\n}' } },
      ],
      wires: [{ from: 'ev', to: 'h' }],
    };
    writeFileSync(join(project, 'typed.pipeline.json'), JSON.stringify(pipeline));
    expect(existsSync(join(project, 'node_modules', 'sucrase')), 'sucrase is bundled, not installed').toBe(false);
    const deny = hookwire(['claude-hook', 'typed.pipeline.json'], JSON.stringify({ ...HOOK_INPUTS.PreToolUse, tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }));
    expect(deny.stderr).toBe('');
    expect(JSON.parse(deny.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('typed: rm -rf /') });
    writeFileSync(join(project, 'typed.mjs'), [
      "import { loadRuntime } from 'hookwire/node';",
      "const r = await loadRuntime('typed.pipeline.json');",
      "if (!r.ok) throw new Error(JSON.stringify(r.problems));",
      "const trace = r.runtime.startTrace({ record: null });",
      "console.log(trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/x' } }).reason);",
    ].join('\n'));
    const run = sh(process.execPath, ['typed.mjs'], project);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('typed: rm -rf /tmp/x');
  });

  it('passes publint and Are the Types Wrong (ESM-only profile)', { timeout: 60_000 }, () => {
    const tgz = join(work, tarball);
    const publint = sh(join(ROOT, 'node_modules', '.bin', 'publint'), ['run', tgz, '--strict'], ROOT);
    expect(publint.stdout).toMatch(/All good!/);
    expect(publint.status).toBe(0);
    const attw = sh(join(ROOT, 'node_modules', '.bin', 'attw'), [tgz, '--profile', 'esm-only', '--format', 'ascii'], ROOT);
    // Exit 0: no problem in the resolutions an ES-module package promises (node16 from ESM, bundler).
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
    expect(attw.stdout).toMatch(/"hookwire\/node"\s+node16 \(from ESM\): 🟢 \(ESM\)\s+bundler: 🟢/);
  });
});
