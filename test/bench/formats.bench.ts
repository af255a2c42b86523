// Import throughput per format against a bare JSON.parse of the same bytes, and peak memory of a 100 MB
// file of each streamable format (issue 14). Not a test. Every contender runs in its own Node process and
// is measured on CPU time (process.cpuUsage) of the work alone; each is run several times, best kept.
// Workloads are generated into a temp dir (formatWorkloads.ts) and deleted after.
// Run: npx tsx test/bench/formats.bench.ts [--mb 10] [--big-mb 100] [--runs 3] [--no-memory] [--only-memory] [--formats a,b]
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TraceFormat } from '../../engine/trace/detectTraceFormat.ts';
import { createImportStream } from '../../engine/trace/importStream.ts';
import { importTrace } from '../../engine/trace/importTrace.ts';
import { traceEventLine, traceHeaderLine } from '../../engine/trace/traceToJsonl.ts';
import { writeWorkload } from './formatWorkloads.ts';
import { fmt, table } from './measure.ts';

const SELF = fileURLToPath(import.meta.url);
const STREAMED: TraceFormat[] = ['hookwire-trace', 'codex-rollout', 'otel-spans-jsonl', 'otlp-json', 'otel-console', 'gemini-cli', 'copilot-cli', 'qwen-code', 'specstory', 'aider'];
const BUFFERED: TraceFormat[] = ['claude-code', 'mini-swe-agent', 'openhands', 'cline', 'opencode'];
/** Text formats: the baseline is splitting the same text into lines and testing each with one regex (there is no JSON to parse). */
const MARKDOWN: ReadonlySet<TraceFormat> = new Set(['specstory', 'aider']);

/** The bare baseline: JSON.parse of the same bytes, as cheaply as the shape allows (no mapping, no checks). */
function bareParse(format: TraceFormat, text: string): number {
  if (MARKDOWN.has(format)) {
    let n = 0;
    for (const l of text.split('\n')) if (/^(_\*\*|#### |> |<tool-use)/.test(l)) n++;
    return n;
  }
  if (format === 'mini-swe-agent' || format === 'openhands' || format === 'cline' || format === 'opencode') return (JSON.parse(text) as unknown[]) ? 1 : 0;
  if (format === 'otel-console') return (JSON.parse(`[${text.replace(/\n}\n{/g, '},{')}]`) as unknown[]).length;
  let n = 0;
  for (const l of text.split('\n')) if (l !== '') (JSON.parse(l), n++);
  return n;
}

function cpuMs(run: () => void): number {
  const t0 = process.cpuUsage();
  run();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

/** A worker process: one contender, one file; prints one JSON line. */
async function worker(mode: string, format: TraceFormat, path: string): Promise<void> {
  if (mode === 'memory') {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const base = process.memoryUsage();
    let peakHeap = base.heapUsed;
    let peakRss = base.rss;
    let events = 0;
    let live = 0;
    let chunks = 0;
    const s = createImportStream({ fileName: path, onEvent: () => void events++ });
    for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      s.push(chunk as string);
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
      // Every 10 MiB, what is still alive after a full GC: the memory the import really holds.
      if (++chunks % 10 === 0 && gc) {
        gc();
        live = Math.max(live, process.memoryUsage().heapUsed - base.heapUsed);
      }
    }
    const out = s.end();
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
    console.log(JSON.stringify({ events, problems: out.problems.length, liveMb: live / 2 ** 20, heapMb: (peakHeap - base.heapUsed) / 2 ** 20, rssMb: (peakRss - base.rss) / 2 ** 20 }));
    return;
  }
  if (mode === 'memory-parse') {
    const base = process.memoryUsage();
    const text = readFileSync(path, 'utf8');
    const kept = format === 'otel-console' ? [] : MARKDOWN.has(format) ? text.split('\n') : text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
    const m = process.memoryUsage();
    console.log(JSON.stringify({ events: kept.length, heapMb: (m.heapUsed - base.heapUsed) / 2 ** 20, rssMb: (m.rss - base.rss) / 2 ** 20 }));
    return;
  }
  const text = readFileSync(path, 'utf8');
  let events = 0;
  const run = mode === 'parse' ? () => void (events = bareParse(format, text)) : () => {
    events = 0;
    const s = createImportStream({ fileName: path, onEvent: () => void events++ });
    for (let at = 0; at < text.length; at += 1 << 20) s.push(text.slice(at, at + (1 << 20)));
    const out = s.end();
    if (out.format !== format || out.problems.some((p) => p.severity === 'error' && p.code !== 'truncated')) throw new Error(`${format}: ${out.format} ${out.problems[0]?.message ?? ''}`);
  };
  run(); // warm-up in the same process
  const ms = cpuMs(run);
  console.log(JSON.stringify({ ms, events, chars: text.length }));
}

function spawnWorker(args: string[], expose = false): Record<string, number> {
  const r = spawnSync(process.execPath, [...(expose ? ['--expose-gc'] : []), '--max-old-space-size=4096', '--import', 'tsx', SELF, '--worker', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`worker ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
}

/** Writes `format` until the file reaches about `mb` MB; trace v1 is a Codex workload imported and written back. */
function makeFile(dir: string, format: TraceFormat, mb: number): string {
  const path = join(dir, `${format}-${mb}mb.${format === 'mini-swe-agent' ? 'traj.json' : 'data'}`);
  const probe: string[] = [];
  const probeFormat = format === 'hookwire-trace' ? 'codex-rollout' : format;
  writeWorkload(probeFormat, 200, (t) => probe.push(t));
  const perStep = probe.join('').length / 200;
  const steps = Math.max(10, Math.round((mb * 1e6) / perStep));
  const fd = openSync(path, 'w');
  try {
    if (format === 'hookwire-trace') {
      const parts: string[] = [];
      writeWorkload('codex-rollout', Math.round(steps / 1.08), (t) => parts.push(t));
      const t = importTrace(parts.join(''), { fileName: 'w.jsonl' }).trace!;
      writeSync(fd, traceHeaderLine(t.header));
      for (const e of t.events) writeSync(fd, traceEventLine(e, t.header));
    } else writeWorkload(format, steps, (t) => void writeSync(fd, t));
  } finally {
    closeSync(fd);
  }
  return path;
}

export function runFormatsBench(opts: { mb?: number; bigMb?: number; runs?: number; memory?: boolean; throughput?: boolean; formats?: TraceFormat[] } = {}): void {
  const { mb = 10, bigMb = 100, runs = 3, memory = true, throughput = true, formats } = opts;
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-formats-'));
  const only = (list: TraceFormat[]) => (formats ? list.filter((f) => formats.includes(f)) : list);
  try {
    if (throughput) throughputTable(dir, mb, runs, only([...STREAMED, ...BUFFERED]));
    if (memory) memoryTable(dir, bigMb, only(STREAMED));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function throughputTable(dir: string, mb: number, runs: number, list: TraceFormat[]): void {
  {
    const rows: (string | number)[][] = [['format', 'MB', 'events', 'import events/s', 'import MB/s', 'JSON.parse MB/s', 'import / parse CPU']];
    for (const format of list) {
      const path = makeFile(dir, format, mb);
      const size = statSync(path).size / 1e6;
      let imp = Infinity;
      let parse = Infinity;
      let events = 0;
      for (let r = 0; r < runs; r++) {
        const a = spawnWorker(['import', format, path]);
        const b = spawnWorker(['parse', format, path]);
        imp = Math.min(imp, a.ms as number);
        parse = Math.min(parse, b.ms as number);
        events = a.events as number;
      }
      rows.push([format, size.toFixed(1), fmt(events), fmt((events * 1000) / imp), (size / (imp / 1000)).toFixed(1), (size / (parse / 1000)).toFixed(1), `${(imp / parse).toFixed(2)}x`]);
    }
    console.log(`\nimport per format, ~${mb} MB generated workloads; CPU time of the work in its own process, best of ${runs}; baseline = bare JSON.parse of the same bytes (Markdown formats: split into lines, one regex per line)`);
    table(rows);
  }
}

function memoryTable(dir: string, bigMb: number, list: TraceFormat[]): void {
  {
    const mem: (string | number)[][] = [['format (streamed)', 'file MB', 'events', 'import: live heap MB (after GC, max)', 'peak heap MB', 'peak RSS MB', 'read + JSON.parse all: heap MB', 'RSS MB']];
    for (const format of list) {
      const path = makeFile(dir, format, bigMb);
      const size = statSync(path).size / 1e6;
      const a = spawnWorker(['memory', format, path], true);
      const b = spawnWorker(['memory-parse', format, path], true);
      mem.push([format, size.toFixed(0), fmt(a.events as number), (a.liveMb as number).toFixed(0), (a.heapMb as number).toFixed(0), (a.rssMb as number).toFixed(0), format === 'otel-console' ? '-' : (b.heapMb as number).toFixed(0), format === 'otel-console' ? '-' : (b.rssMb as number).toFixed(0)]);
      rmSync(path);
    }
    console.log(`\nmemory above the process's start, ~${bigMb} MB file streamed from disk in 1 MiB chunks, events handed over (not kept); live = heap after a full GC every 10 MiB; beside it: reading the file and JSON.parse of every line, kept`);
    table(mem);
  }
}

if (process.argv[2] === '--worker') {
  await worker(process.argv[3] as string, process.argv[4] as TraceFormat, process.argv[5] as string);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const num = (flag: string, d: number) => {
    const i = args.indexOf(flag);
    return i === -1 ? d : Number(args[i + 1]);
  };
  const fi = args.indexOf('--formats');
  const formats = fi === -1 ? undefined : (String(args[fi + 1]).split(',') as TraceFormat[]);
  runFormatsBench({ mb: num('--mb', 10), bigMb: num('--big-mb', 100), runs: num('--runs', 3), memory: !args.includes('--no-memory'), throughput: !args.includes('--only-memory'), ...(formats ? { formats } : {}) });
}
