// Trace import and reading benchmark (issue 4). Not a test: prints throughput and ratios against a plain
// baseline run side by side in one process on the same input, after checking both read the same events.
// Run: npx tsx test/bench/import.bench.ts [events] [--big]   (--big also streams a ~100 MB file from disk)
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTraceFile } from '../../engine/node/readTraceFile.ts';
import { FIXTURE_FILES, FIXTURES_DIR } from '../shared/fixtures.ts';
import { importTrace } from '../../engine/trace/importTrace.ts';
import { createTraceReader, readTrace } from '../../engine/trace/traceReader.ts';
import { traceEventLine, traceHeaderLine, traceToJsonl } from '../../engine/trace/traceToJsonl.ts';
import type { JsonObject } from '../../engine/model/json.ts';
import type { Trace, TraceEvent, TraceHeader } from '../../engine/trace/traceTypes.ts';
import { fmt, table, timeBest } from './measure.ts';

const FIXTURES = FIXTURES_DIR;
const FILES = FIXTURE_FILES;

/** The plain baseline: what any JSON Lines reader does at least (no validation, no problems, no streaming). */
const baselineJsonl = (text: string): unknown[] => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

function importFixtures(): void {
  if (!existsSync(FIXTURES)) {
    console.log(`\nimport: ${FIXTURES} not found, fixture import skipped`);
    return;
  }
  const rows: (string | number)[][] = [['fixture', 'KB', 'events', 'import events/s', 'MB/s', 'JSON.parse alone MB/s', 'import / parse time']];
  for (const rel of FILES) {
    const text = readFileSync(join(FIXTURES, rel), 'utf8');
    const once = importTrace(text, { fileName: rel });
    const events = once.trace?.events.length ?? 0;
    const parse = rel.endsWith('.jsonl') ? () => baselineJsonl(text) : () => JSON.parse(text);
    // Repeat each run so one timing covers ~50 ms or more: the files are small.
    const reps = Math.max(20, Math.ceil(5_000_000 / text.length));
    const tImport = timeBest(() => {
      for (let i = 0; i < reps; i++) importTrace(text, { fileName: rel });
    });
    const tParse = timeBest(() => {
      for (let i = 0; i < reps; i++) parse();
    });
    const mb = (text.length * reps) / 1e6;
    rows.push([rel, (text.length / 1024).toFixed(0), events, fmt((events * reps * 1000) / tImport), (mb / (tImport / 1000)).toFixed(1), (mb / (tParse / 1000)).toFixed(1), `${(tImport / tParse).toFixed(2)}x`]);
  }
  console.log('\nimport (importTrace, detection + parse + mapping), each fixture repeated; baseline = JSON.parse of the same text');
  table(rows);
}

function makeTrace(n: number): Trace {
  const header: TraceHeader = { format: 'hookwire.trace', version: 1, trace_id: 'bench', agent_id: 'bench-agent', source: { kind: 'bench' }, created: '2026-01-01T00:00:00.000Z' };
  const events: TraceEvent[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < n; i++) {
    const ts = new Date(t0 + i * 10).toISOString();
    const k = i % 4;
    const payload: JsonObject =
      k === 0 ? { tool_name: i % 3 ? 'Bash' : 'Read', tool_input: { command: `grep -rn "pattern${i}" src/ | head -50`, description: 'Search the sources' }, tool_use_id: `toolu_${i}` }
      : k === 1 ? { tool_name: 'Bash', tool_input: { command: `ls ${i}` }, tool_response: { stdout: 'a.ts\nb.ts\n'.repeat(8), stderr: '', interrupted: false }, is_error: false, tool_use_id: `toolu_${i - 1}` }
      : k === 2 ? { model: 'claude-opus-4-6', messages: [{ role: 'user', content: `step ${i}` }] }
      : { model: 'claude-opus-4-6', response: [{ type: 'text', text: 'Let me look at the project structure and run the tests to see what fails. '.repeat(2) }], usage: { input_tokens: 1200 + i, output_tokens: 80 } };
    const type = ['tool.before_call', 'tool.after_call', 'model.before_call', 'model.after_call'][k] as string;
    const e: TraceEvent = { event_id: `e${i}`, trace_id: 'bench', agent_id: 'bench-agent', type, ts, payload };
    if (k === 0 && i % 10 === 0) e.recorded = { decision: 'continue' };
    events.push(e);
  }
  return { header, events };
}

function readerBench(n: number): void {
  const trace = makeTrace(n);
  let text = '';
  const tWrite = timeBest(() => {
    text = traceToJsonl(trace);
  });
  const check = readTrace(text);
  const base = baselineJsonl(text);
  if (check.status !== 'ok' || check.events.length !== n || base.length !== n + 1) throw new Error('reader and baseline disagree');
  const mb = text.length / 1e6;
  const tBase = timeBest(() => baselineJsonl(text));
  const tRead = timeBest(() => readTrace(text));
  const tStream = timeBest(() => {
    const r = createTraceReader();
    for (let at = 0; at < text.length; at += 65536) r.push(text.slice(at, at + 65536));
    r.end();
  });
  const tCount = timeBest(() => {
    let c = 0;
    const r = createTraceReader({ onEvent: () => void c++ });
    for (let at = 0; at < text.length; at += 65536) r.push(text.slice(at, at + 65536));
    r.end();
  });
  const rate = (ms: number) => fmt((n * 1000) / ms);
  console.log(`\ntrace v1 reader, ${fmt(n)} generated events, ${mb.toFixed(1)} MB; baseline = text.split('\\n').map(JSON.parse)`);
  table([
    ['reader', 'events/s', 'MB/s', 'vs baseline (speed)'],
    ['baseline split + JSON.parse', rate(tBase), (mb / (tBase / 1000)).toFixed(0), '1.00x'],
    ['readTrace (one string)', rate(tRead), (mb / (tRead / 1000)).toFixed(0), `${(tBase / tRead).toFixed(2)}x`],
    ['createTraceReader, 64 KB chunks', rate(tStream), (mb / (tStream / 1000)).toFixed(0), `${(tBase / tStream).toFixed(2)}x`],
    ['  same, onEvent (events not kept)', rate(tCount), (mb / (tCount / 1000)).toFixed(0), `${(tBase / tCount).toFixed(2)}x`],
    ['traceToJsonl (writer)', rate(tWrite), (mb / (tWrite / 1000)).toFixed(0), `${(tBase / tWrite).toFixed(2)}x`],
  ]);
}

async function fileBench(n: number, big: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-bench-'));
  try {
    const path = join(dir, 'bench.hwtrace.jsonl');
    const trace = makeTrace(n);
    // Written line by line, so the generator never holds the file either.
    const repeat = big ? Math.max(1, Math.ceil(100e6 / traceToJsonl(trace).length)) : 1;
    const fd = openSync(path, 'w');
    writeSync(fd, traceHeaderLine(trace.header));
    let k = 0;
    for (let r = 0; r < repeat; r++) {
      for (const e of trace.events) writeSync(fd, traceEventLine({ ...e, event_id: `e${k++}` }, trace.header));
    }
    closeSync(fd);
    const size = statSync(path).size;
    const total = n * repeat;
    const gc = (globalThis as { gc?: () => void }).gc;
    const live = () => {
      gc?.();
      return process.memoryUsage().heapUsed;
    };
    // Peak live heap while streaming: sampled after a GC every 50k events (only with --expose-gc).
    const heap0 = live();
    let peak = 0;
    let count = 0;
    let t = performance.now();
    const r = await readTraceFile(path, {
      onEvent: () => {
        if (++count % 50_000 === 0 && gc) peak = Math.max(peak, live() - heap0);
      },
    });
    const tStream = performance.now() - t;
    if (r.status !== 'ok' || count !== total) throw new Error(`file read failed: ${r.status} ${count}/${total}`);
    t = performance.now();
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const parsed = lines.filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
    const tBase = performance.now() - t;
    const baseHeap = live() - heap0;
    if (parsed.length !== total + 1 || lines.length === 0) throw new Error('baseline disagrees');
    console.log(`\nreadTraceFile from disk, ${fmt(total)} events, ${(size / 1e6).toFixed(0)} MB (streamed with onEvent; baseline = readFileSync + split + JSON.parse)`);
    table([
      ['reader', 'events/s', 'MB/s', 'vs baseline', 'live heap'],
      ['baseline readFileSync + split + parse', fmt((total * 1000) / tBase), (size / 1e6 / (tBase / 1000)).toFixed(0), '1.00x', gc ? `${(baseHeap / 1e6).toFixed(0)} MB (after)` : '-'],
      ['readTraceFile (stream, onEvent)', fmt((total * 1000) / tStream), (size / 1e6 / (tStream / 1000)).toFixed(0), `${(tBase / tStream).toFixed(2)}x`, gc ? `${(peak / 1e6).toFixed(0)} MB (peak)` : '-'],
    ]);
    if (!gc) console.log('(memory figures: run with node --expose-gc --import tsx test/bench/import.bench.ts)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runImportBench(events = 100_000, big = false): Promise<void> {
  importFixtures();
  readerBench(events);
  await fileBench(events, big);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
  await runImportBench(n, args.includes('--big'));
}
