// `npm run bench -- package`: the package as a user installs it (npm pack, an offline install into a fresh
// project), measured:
//  - CPU time of one `hookwire claude-hook` call, each in its own process, several runs: the installed
//    binary (dist/cli, built JavaScript), a checkout's binary (engine/node/bin.cjs on the prebuilt bundle),
//    and a checkout running the sources through tsx (HOOKWIRE_FROM_SOURCE=1, what a tarball install did
//    before dist/), against `node -e 0` (Node's own start-up); with HOOKWIRE_BENCH_NODE=/path/to/node (another
//    Node, e.g. 22, whose compile cache the binary turns on), the installed binary and `node -e 0` on that one
//    too, with its compile cache and with NODE_DISABLE_COMPILE_CACHE=1;
//  - what the runtime install weighs, by package (without the app's dist/web);
//  - dist/web, and the gzipped JavaScript the app's first paint loads (index.html's module graph, without the
//    chunks it imports lazily, e.g. Monaco).
// Nothing here asserts; the numbers go to the README with this method. HOOKWIRE_BENCH_KEEP=1 keeps the install.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packAndInstall, REPO_ROOT, runtimeSizes } from '../package/installTarball.ts';
import { table } from './measure.ts';

const RUNS = 7;

/** CPU seconds (user + system) of one process, read by a preload module at exit. */
function cpuOf(args: string[], input: string, cwd: string, env: Record<string, string> = {}, node = process.execPath): number {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-cpu-'));
  const out = join(dir, 'cpu.json');
  const preload = join(dir, 'cpu.mjs');
  writeFileSync(preload, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.cpuUsage(); writeFileSync(${JSON.stringify(out)}, JSON.stringify(u)); });\n`);
  const r = spawnSync(node, ['--import', preload, ...args], { cwd, input, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0 && r.status !== 2) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const u = JSON.parse(readFileSync(out, 'utf8')) as { user: number; system: number };
  rmSync(dir, { recursive: true, force: true });
  return (u.user + u.system) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (n: number) => `${(n / 2 ** 20).toFixed(2)} MB`;
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

function dirSize(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  return total;
}

/** The JS files index.html loads before first paint: its module scripts and their static imports, transitively. */
function firstPaintJs(web: string): string[] {
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(web, file), 'utf8');
    // Static imports only (`import … from "./x.js"` and bare `import "./x.js"`); `import("…")` is lazy.
    for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*${}\s,]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      queue.push(join(file, '..', m[1]!).replace(/^\.\//, ''));
    }
  }
  return [...seen];
}

export function runPackageBench(): void {
  console.log('packing and installing the package offline (prepack builds dist/) …');
  const installed = packAndInstall();
  try {
    const { project } = installed;
    const pipeline = join(REPO_ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json');
    const input = JSON.stringify({ session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't1' });
    if (!existsSync(join(REPO_ROOT, 'node_modules', '.cache', 'hookwire', 'cli', 'cli.js'))) spawnSync(process.execPath, [join(REPO_ROOT, 'engine', 'node', 'buildCli.mjs')]);
    const bin = join(project, 'node_modules', 'hookwire', 'dist', 'cli', 'bin.cjs');
    const contenders: [string, string[], Record<string, string>, string?][] = [
      [`node -e 0 (Node ${process.version} start-up)`, ['-e', '0'], {}],
      ['installed: node_modules/.bin/hookwire (dist/cli/bin.cjs)', [bin, 'claude-hook', pipeline], {}],
      // The package's bin before 2026-12-07: the ES module CLI that bin.cjs imports for everything but hook calls.
      ['installed: dist/cli/bin.js (the ES module CLI, run directly)', [join(bin, '..', 'bin.js'), 'claude-hook', pipeline], {}],
      ['checkout: engine/node/bin.cjs (prebuilt bundle)', [join(REPO_ROOT, 'engine', 'node', 'bin.cjs'), 'claude-hook', pipeline], {}],
      ['checkout: sources through tsx', [join(REPO_ROOT, 'engine', 'node', 'bin.cjs'), 'claude-hook', pipeline], { HOOKWIRE_FROM_SOURCE: '1' }],
    ];
    const other = process.env.HOOKWIRE_BENCH_NODE;
    if (other) {
      const version = spawnSync(other, ['--version'], { encoding: 'utf8' }).stdout.trim();
      // The compile cache in a directory of this run's own: the first (untimed) call fills it.
      const cache = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'hookwire-cache-')) };
      cpuOf([bin, 'claude-hook', pipeline], input, project, cache, other);
      contenders.push(
        [`node -e 0 (Node ${version} start-up)`, ['-e', '0'], {}, other],
        [`installed, Node ${version}, compile cache`, [bin, 'claude-hook', pipeline], cache, other],
        [`installed, Node ${version}, NODE_DISABLE_COMPILE_CACHE=1`, [bin, 'claude-hook', pipeline], { NODE_DISABLE_COMPILE_CACHE: '1' }, other],
      );
    }
    const times = contenders.map(() => [] as number[]);
    for (let run = 0; run < RUNS; run++) contenders.forEach(([, args, env, node], i) => times[i]!.push(cpuOf(args, input, project, env, node)));
    const installedCpu = median(times[1]!);
    console.log(`\none claude-hook PreToolUse call (a block), CPU seconds (user + system), median of ${RUNS} interleaved runs:`);
    table([
      ['contender', 'median', 'min', 'max', 'vs installed'],
      ...contenders.map(([name], i) => [name, median(times[i]!).toFixed(3), Math.min(...times[i]!).toFixed(3), Math.max(...times[i]!).toFixed(3), `${(median(times[i]!) / installedCpu).toFixed(2)}x`]),
    ]);

    const sizes = runtimeSizes(installed);
    const deps = Object.entries(sizes.deps).sort((a, b) => b[1] - a[1]);
    const total = sizes.own + deps.reduce((s, [, n]) => s + n, 0);
    console.log(`\nruntime install (file bytes, without dist/web): ${mb(total)}`);
    table([['package', 'size'], ['hookwire (without dist/web)', mb(sizes.own)], ...deps.map(([name, n]) => [name, mb(n)])]);

    const web = join(project, 'node_modules', 'hookwire', 'dist', 'web');
    const js = firstPaintJs(web);
    const gz = js.reduce((s, f) => s + gzipSync(readFileSync(join(web, f)), { level: 9 }).length, 0);
    console.log(`\ndist/web: ${mb(dirSize(web))}; first paint loads ${js.length} JS files, ${kb(gz)} gzipped (level 9)`);
  } finally {
    // HOOKWIRE_BENCH_KEEP=1 keeps the installed project for other runs, e.g. `speed.bench.ts hook --bin
    // <project>/node_modules/hookwire/dist/cli/bin.cjs --base <…>/bin.js` (the forwarded call, bin.cjs against bin.js).
    if (process.env.HOOKWIRE_BENCH_KEEP === '1') console.log(`\nkept: ${installed.project}`);
    else rmSync(installed.work, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('package.bench.ts')) runPackageBench();
