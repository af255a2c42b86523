// Peak memory of `hookwire import` on a large session file (issue 29: "memory bounded for a 200 MB file").
// Not a test. Writes one generated file per format (formatWorkloads.ts, ~`--mb` MB each), then runs the CLI
// bundle's `import <file> -o <out>` in its own process under /usr/bin/time, `--runs` times per format, and
// prints each run's peak RSS (max resident set size) and CPU time (user+sys). The files are deleted after.
// `--cli <dir>` measures another build of the CLI bundle (buildCli.mjs's output dir; default this checkout's
// node_modules/.cache/hookwire/cli, made by `npm run prepare`), e.g. one built from an older commit.
// `--base <dir>` measures that build too, interleaved with this one in every run (before/after in one run: the
// machine's load changes between runs).
// `opencode-storage` is OpenCode's older storage folder of one session (its session, message and part files,
// ~`--mb` MB in all; formatWorkloads.ts writeOpenCodeStorage), imported through its session file. `cursor-store` is
// Cursor's state.vscdb holding one composer of ~`--mb` MB of bubble rows (writeCursorStore), imported as `<db>#c-bench`.
// Run: npx tsx test/bench/importMemory.bench.ts [--mb 200] [--runs 3] [--formats aider,gemini-cli] [--cli dir] [--base dir]
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_BUNDLE } from '../../engine/node/cliBundle.cjs';
import { writeCursorStore, writeOpenCodeStorage, writeWorkload, type Workload } from './formatWorkloads.ts';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const MB = Number(opt('mb', '200'));
const RUNS = Number(opt('runs', '3'));
const FORMATS = opt('formats', 'aider,specstory,gemini-cli,copilot-cli,qwen-code,codex-rollout,hookwire-trace').split(',') as (Workload | 'opencode-storage' | 'cursor-store')[];
const cliDir = opt('cli', '');
const bundle = cliDir ? join(cliDir, 'cli.js') : CLI_BUNDLE;
if (!existsSync(bundle)) throw new Error(`no CLI bundle at ${bundle}: run \`npm run prepare\``);
const baseDir = opt('base', '');
const baseBundle = baseDir ? join(baseDir, 'cli.js') : null;
if (baseBundle && !existsSync(baseBundle)) throw new Error(`no CLI bundle at ${baseBundle}`);

/** Writes `format` until the file is about `mb` MB (steps sized from a small sample), returns its size. */
function writeFile(format: Workload, path: string, mb: number): number {
  let sample = 0;
  writeWorkload(format, 100, (t) => void (sample += Buffer.byteLength(t)));
  const steps = Math.ceil((mb * 1e6 * 100) / sample);
  const fd = openSync(path, 'w');
  let parts: string[] = [];
  let size = 0;
  const flush = () => {
    writeSync(fd, parts.join(''));
    parts = [];
    size = 0;
  };
  writeWorkload(format, steps, (t) => {
    parts.push(t);
    size += t.length;
    if (size > 1 << 22) flush();
  });
  flush();
  closeSync(fd);
  return statSync(path).size;
}

const runnerOf = (cli: string) => `const { main } = await import(${JSON.stringify(pathToFileURL(cli).href)}); process.exitCode = await main(process.argv);`;
/** Workloads content detection cannot name, and the `--from` they are read with. */
const FROM: Partial<Record<Workload, string>> = { 'claude-code-no-session': 'claude-code' };

function measure(file: string, out: string, from?: string, cli = bundle): { rssMb: number; cpuS: number; exit: number; err: string } {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %M %U %S', process.execPath, '--input-type=module', '-e', runnerOf(cli), '--', 'hookwire', 'import', file, '-o', out, ...(from ? ['--from', from] : [])], { encoding: 'utf8' });
  const m = /TIME (\d+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`no /usr/bin/time output: ${r.stderr}`);
  return { rssMb: Number(m[1]) / 1024, cpuS: Number(m[2]) + Number(m[3]), exit: r.status ?? -1, err: r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('TIME ') && !l.startsWith('Command exited')).slice(-3).join(' / ') };
}

const dir = mkdtempSync(join(tmpdir(), 'hookwire-import-mem-'));
try {
  console.log(`CLI bundle: ${bundle}${baseBundle ? ` (base: ${baseBundle})` : ''}`);
  console.log(`format | file MB | run | ${baseBundle ? 'build | ' : ''}exit | peak RSS MB | CPU s | last stderr line`);
  for (const format of FORMATS) {
    let file = join(dir, `session-${format}`);
    let size: number;
    if (format === 'opencode-storage') {
      let sample = 0;
      writeWorkload('opencode', 100, (t) => void (sample += Buffer.byteLength(t)));
      const written = writeOpenCodeStorage(Math.ceil((MB * 1e6 * 100) / sample), join(dir, 'opencode'));
      file = written.file;
      size = written.bytes;
    } else if (format === 'cursor-store') {
      // ~1,225 bytes of rows a step (measured on the store this writes).
      size = await writeCursorStore(Math.ceil((MB * 1e6) / 1225), file);
      file = `${file}#c-bench`;
    } else if (format === 'hookwire-trace') {
      const codex = join(dir, 'codex-for-trace.jsonl');
      writeFile('codex-rollout', codex, MB * 0.6);
      const r = measure(codex, file);
      rmSync(codex);
      if (r.exit !== 0) throw new Error(`could not make the trace workload: ${r.err}`);
      size = statSync(file).size;
    } else size = writeFile(format, file, MB);
    for (let run = 1; run <= RUNS; run++) {
      const contenders: [string, string][] = baseBundle ? [['base', baseBundle], ['this', bundle]] : [['', bundle]];
      for (const [name, cli] of run % 2 === 0 ? contenders.reverse() : contenders) {
        const out = join(dir, 'out.jsonl');
        const r = measure(file, out, format === 'opencode-storage' || format === 'cursor-store' ? undefined : FROM[format], cli);
        console.log(`${format} | ${(size / 1e6).toFixed(0)} | ${run} | ${name ? `${name} | ` : ''}${r.exit} | ${r.rssMb.toFixed(0)} | ${r.cpuS.toFixed(1)} | ${r.err}`);
        rmSync(out, { force: true });
      }
    }
    rmSync(format === 'opencode-storage' ? join(dir, 'opencode') : file.replace(/#c-bench$/, ''), { recursive: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
