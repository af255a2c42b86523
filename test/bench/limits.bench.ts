// Bad-input limits benchmark (issue 13). Not a test: each contender runs as its own `hookwire` process
// (the real binary, as a user runs it), several times; the process reports its own CPU time and peak RSS
// (process.resourceUsage at exit). Printed against the smallest size of the same command, so the ratios
// show how time and memory grow with the trace length and the pipeline size.
// Run: npx tsx test/bench/limits.bench.ts [maxEvents] [maxHandlers] [runs]
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bigPipeline } from './bigPipeline.ts';
import { fmt, table } from './measure.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'engine', 'node', 'bin.mjs');
const GUARD = join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json');
const HEADER = '{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"bench"},"created":"2026-03-01T10:00:00.000Z"}\n';

interface Usage {
  cpuMs: number;
  rssMb: number;
}

/** One run of `hookwire <args>` with stdout discarded; its own CPU time and peak RSS. */
function run(args: string[], dir: string): Usage {
  const hook = join(dir, 'usage.cjs');
  writeFileSync(hook, "process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('\\nUSAGE ' + JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000, rss: u.maxRSS / 1024 }) + '\\n'); });\n");
  const r = spawnSync(process.execPath, ['--require', hook, BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /USAGE (\{.*\})/.exec(r.stderr ?? '');
  if (!m) throw new Error(`hookwire ${args.join(' ')} reported no usage (exit ${r.status}): ${(r.stderr ?? '').slice(0, 500)}`);
  const u = JSON.parse(m[1]!) as { cpu: number; rss: number };
  return { cpuMs: u.cpu, rssMb: u.rss };
}

/** Best CPU and highest peak RSS of `runs` runs. */
function measure(args: string[], dir: string, runs: number): Usage {
  const all = Array.from({ length: runs }, () => run(args, dir));
  return { cpuMs: Math.min(...all.map((u) => u.cpuMs)), rssMb: Math.max(...all.map((u) => u.rssMb)) };
}

async function writeTrace(path: string, events: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(HEADER);
  for (let i = 0; i < events; i++) {
    const line = `{"event_id":"e${i}","type":"tool.before_call","ts":"2026-03-01T10:00:00.000Z","payload":{"tool_name":"Bash","tool_input":{"command":"ls -la ${i}"}}}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

export async function runLimitsBench(maxEvents = 1_000_000, maxHandlers = 10_000, runs = 3): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-limits-'));
  try {
    const rows: (string | number)[][] = [['contender', 'size', 'CPU ms', 'peak RSS MB', 'CPU ×', 'RSS ×']];
    const sizes = [maxEvents / 100, maxEvents / 10, maxEvents].map(Math.round);
    for (const mode of ['--json', 'table'] as const) {
      let base: Usage | null = null;
      for (const n of mode === 'table' ? sizes.slice(0, 2) : sizes) {
        const path = join(dir, `t${n}.jsonl`);
        await writeTrace(path, n);
        const u = measure(mode === '--json' ? ['replay', '--json', GUARD, path] : ['replay', GUARD, path], dir, runs);
        base ??= u;
        rows.push([`replay ${mode}`, `${fmt(n)} events`, u.cpuMs.toFixed(0), u.rssMb.toFixed(0), (u.cpuMs / base.cpuMs).toFixed(1), (u.rssMb / base.rssMb).toFixed(2)]);
        rmSync(path, { force: true });
      }
    }
    let base: Usage | null = null;
    for (const n of [maxHandlers / 10, maxHandlers].map(Math.round)) {
      const path = join(dir, `p${n}.json`);
      writeFileSync(path, JSON.stringify(bigPipeline(n)));
      const u = measure(['validate', path], dir, runs);
      base ??= u;
      rows.push(['validate', `${fmt(n)} handlers`, u.cpuMs.toFixed(0), u.rssMb.toFixed(0), (u.cpuMs / base.cpuMs).toFixed(1), (u.rssMb / base.rssMb).toFixed(2)]);
    }
    const start = measure(['validate', GUARD], dir, runs);
    rows.push(['validate (process start)', '8 handlers', start.cpuMs.toFixed(0), start.rssMb.toFixed(0), '-', '-']);
    table(rows);
    console.log(`(best CPU of ${runs} runs per row, each its own process; ratios against the first size of the same command)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('limits.bench.ts')) {
  const [events, handlers, runs] = process.argv.slice(2).map(Number);
  await runLimitsBench(events || undefined, handlers || undefined, runs || undefined);
}
