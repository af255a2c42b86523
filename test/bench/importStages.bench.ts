// Where a `hookwire import` of a ~50 MB transcript spends its CPU, stage by stage, against JSON.parse of the same
// lines (issue 36's import goal: ≤ 1.5x a floor that reads, parses every line and writes one line per tool call).
// Not a test. Each stage is its own Node process, measured on CPU time (process.cpuUsage) of the work alone (the
// file is read into memory before the clock starts, so start-up and reading are left out of every stage); the
// stages take turns round after round and the median is kept, with the load average printed.
//   parse                 cut the text into lines, JSON.parse each (the floor's own work)
//   + stringify           and JSON.stringify each record again, joined in 64 Ki writes and encoded as UTF-8 (what writing
//                         every record back whole costs, the floor beside the goal's in speed.bench.ts)
//   + exact-text check    and check that each record's text is exactly what JSON.stringify writes for its parsed value (no
//                         space, the same key order, escapes and numbers): the check an import would need before it
//                         wrote a value as the raw text of its line instead of serialising it again (docs/speed.md)
//   import, no output     the import stream (createImportStream, the spilled id index of the CLI), events dropped
//   import + event lines  and each event's line (traceEventLine)
//   import + UTF-8        and the lines joined in 64 Ki writes and encoded, as `hookwire import` does
// Run: npx tsx test/bench/importStages.bench.ts [rounds] [--steps 40000]
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSpill } from '../../engine/node/spillFile.ts';
import { createImportStream } from '../../engine/trace/importStream.ts';
import { traceEventLine } from '../../engine/trace/traceToJsonl.ts';
import type { TraceHeader } from '../../engine/trace/traceTypes.ts';
import { writeWorkload, type Workload } from './formatWorkloads.ts';
import { table } from './measure.ts';

const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STAGES = ['parse', 'stringify', 'exact-text', 'import', 'lines', 'utf8'] as const;
type Stage = (typeof STAGES)[number];
const LABELS: Record<Stage, string> = {
  parse: 'parse: lines + JSON.parse',
  stringify: '+ stringify each record, UTF-8',
  'exact-text': '+ exact-text check of each record',
  import: 'import, no output',
  lines: 'import + event lines',
  utf8: 'import + event lines + UTF-8',
};
const CHUNK = 1 << 16;

/** The lines of `text`, each handed to `line` (the floor's cut: split on \n, blank lines left out). */
function eachLine(text: string, line: (l: string) => void): void {
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const l = nl === -1 ? text.slice(start) : text.slice(start, nl);
    if (l !== '') line(l);
    if (nl === -1) return;
    start = nl + 1;
  }
}

/** Output gathered by `+=` and encoded every 64 Ki characters, as the CLI writes; returns the bytes. */
function encoder(): { add(s: string): void; end(): number } {
  let out = '';
  let bytes = 0;
  return {
    add(s) {
      out += s;
      if (out.length >= CHUNK) {
        bytes += Buffer.from(out, 'utf8').length;
        out = '';
      }
    },
    end: () => bytes + Buffer.from(out, 'utf8').length,
  };
}

/**
 * The position after `v`'s JSON text at `pos` in `s` when that text is exactly JSON.stringify(v) (guided by the parsed
 * value, so that key order, duplicate keys, spaces, escapes and number forms are all checked), else -1. A
 * measuring device for the bench only; `bs` is the next backslash at or after the scan (-2: not looked for yet).
 */
function exactEnd(s: string, v: unknown, pos: number, scan: { bs: number }): number {
  if (typeof v === 'string') {
    const end = pos + 1 + v.length;
    if (s.charCodeAt(pos) !== 34) return -1;
    if (scan.bs < pos && scan.bs !== s.length) scan.bs = nextBackslash(s, pos);
    if (scan.bs < end) {
      // Escapes: compared with JSON.stringify's own (the slow road, rare in the bench's files).
      const json = JSON.stringify(v);
      if (!s.startsWith(json, pos)) return -1;
      scan.bs = nextBackslash(s, pos + json.length);
      return pos + json.length;
    }
    return s.charCodeAt(end) === 34 ? end + 1 : -1;
  }
  if (typeof v === 'number') {
    const t = String(v);
    return Number.isFinite(v) && s.startsWith(t, pos) ? pos + t.length : -1;
  }
  if (v === null || typeof v === 'boolean') {
    const t = String(v);
    return s.startsWith(t, pos) ? pos + t.length : -1;
  }
  if (Array.isArray(v)) {
    if (s.charCodeAt(pos++) !== 91) return -1;
    for (let i = 0; i < v.length; i++) {
      if (i > 0 && s.charCodeAt(pos++) !== 44) return -1;
      pos = exactEnd(s, v[i], pos, scan);
      if (pos < 0) return -1;
    }
    return s.charCodeAt(pos) === 93 ? pos + 1 : -1;
  }
  if (typeof v !== 'object') return -1;
  if (s.charCodeAt(pos++) !== 123) return -1;
  let first = true;
  for (const k in v as Record<string, unknown>) {
    if (!first && s.charCodeAt(pos++) !== 44) return -1;
    first = false;
    const end = pos + 1 + k.length;
    if (s.charCodeAt(pos) !== 34 || !s.startsWith(k, pos + 1) || s.charCodeAt(end) !== 34 || s.charCodeAt(end + 1) !== 58) return -1;
    if (scan.bs < pos && scan.bs !== s.length) scan.bs = nextBackslash(s, pos);
    if (scan.bs < end) return -1;
    pos = exactEnd(s, (v as Record<string, unknown>)[k], end + 2, scan);
    if (pos < 0) return -1;
  }
  return s.charCodeAt(pos) === 125 ? pos + 1 : -1;
}

function nextBackslash(s: string, from: number): number {
  const i = s.indexOf('\\', from);
  return i === -1 ? s.length : i;
}

/** One stage over one file, in this process; prints the CPU of the work and a count that the work was done. */
function child(stage: Stage, path: string): void {
  const text = readFileSync(path, 'utf8');
  const t0 = process.cpuUsage();
  let count = 0;
  if (stage === 'parse' || stage === 'stringify' || stage === 'exact-text') {
    const out = encoder();
    const scan = { bs: -2 };
    eachLine(text, (l) => {
      const v = JSON.parse(l) as unknown;
      if (stage === 'stringify') out.add(`${JSON.stringify(v)}\n`);
      else if (stage === 'exact-text') {
        scan.bs = -2;
        // The bench's files are written by JSON.stringify: every line must pass, so this measures the check's best case.
        if (exactEnd(l, v, 0, scan) !== l.length) throw new Error(`not in JSON.stringify's form: ${l.slice(0, 80)}`);
      }
      count++;
    });
    count += out.end();
  } else {
    const spill = openSpill();
    const out = encoder();
    let header: TraceHeader | null = null;
    try {
      const s = createImportStream({
        fileName: 'bench.jsonl',
        ids: spill.index,
        spool: spill.records,
        onHeader: (h) => (header = h),
        onEvent: (e) => {
          count++;
          if (stage === 'import') return;
          const line = traceEventLine(e, header as TraceHeader);
          if (stage === 'utf8') out.add(line);
          else count += line.length;
        },
      });
      for (let i = 0; i < text.length; i += CHUNK) s.push(text.slice(i, i + CHUNK));
      s.end();
      count += out.end();
    } finally {
      spill.close();
    }
  }
  const d = process.cpuUsage(t0);
  process.stdout.write(`${JSON.stringify({ cpu: (d.user + d.system) / 1000, count })}\n`);
}

function runChild(stage: Stage, path: string): number {
  const r = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--child', stage, path], { cwd: ROOT, encoding: 'utf8' });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`stage ${stage} failed: ${r.stderr.slice(0, 400)}`);
  return (JSON.parse(last) as { cpu: number }).cpu;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function main(): void {
  const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
  const at = process.argv.indexOf('--steps');
  const steps = at > 0 ? Number(process.argv[at + 1]) : 40_000;
  const dir = mkdtempSync(join(tmpdir(), 'hw-import-stages-'));
  try {
    for (const format of ['claude-code', 'codex-rollout'] as Workload[]) {
      const path = join(dir, `${format}.jsonl`);
      const fd = openSync(path, 'w');
      let buf = '';
      writeWorkload(format, steps, (t) => {
        buf += t;
        if (buf.length >= 1 << 20) (writeSync(fd, buf), (buf = ''));
      });
      writeSync(fd, buf);
      closeSync(fd);
      const runs = new Map<Stage, number[]>(STAGES.map((s) => [s, []]));
      const load0 = loadavg()[0]!;
      for (let r = 0; r < rounds; r++) for (const stage of r % 2 ? [...STAGES].reverse() : STAGES) runs.get(stage)!.push(runChild(stage, path));
      const parse = median(runs.get('parse')!);
      console.log(`\n${format}, ${(statSync(path).size / 2 ** 20).toFixed(1)} MB: CPU of the work alone, median of ${rounds} interleaved rounds (load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`);
      table([
        ['stage', 'CPU ms', 'vs parse', 'runs'],
        ...STAGES.map((s) => [LABELS[s], median(runs.get(s)!).toFixed(0), `${(median(runs.get(s)!) / parse).toFixed(2)}x`, runs.get(s)!.map((x) => x.toFixed(0)).join(' ')]),
      ]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') child(process.argv[3] as Stage, process.argv[4] as string);
else if (process.argv[1]?.endsWith('importStages.bench.ts')) main();
