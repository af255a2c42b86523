// `hookwire backtest <old> <new> <trace-or-folder>...`: one pipeline change replayed over every session a team
// recorded [B1]-[B5]. Per event the difference is engine/replay's pipeline diff (what `hookwire diff` lists);
// files are read one at a time and streamed through both pipelines; a file's differences go to a temporary
// file as they are found and from there into the JSON, and the report keeps a bounded number of them, so
// memory follows neither the events nor the differences [B6]. Exit codes follow --fail-on; 2 when it could
// not run [P9].
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { BACKTEST_CATEGORIES, type BacktestCategory, type BacktestDifference } from '../../replay/backtest.ts';
import { createBacktestCorpus, type BacktestFileEntry, type BacktestReport } from '../../replay/backtestReport.ts';
import { backtestHeadline, backtestHtml, backtestMarkdown, violatedLabels } from '../../replay/backtestText.ts';
import { cell, CliError, EXIT, fileErrorText, table, type Io } from '../cliIo.ts';
import { compilePipelineFile } from '../loadPipelineFile.ts';
import { compileOldPipeline, runBacktestFiles } from '../backtest/runBacktestFiles.ts';

// A worker thread loads this module (in the bundled CLI, its chunk) and runs this.
export { backtestWorkerMain } from '../backtest/runBacktestFiles.ts';
import { walkFiles } from '../walkFiles.ts';
import { sessionPaths } from '../storeSessions.ts';
import { copyDifferenceFile, openDifferenceFolder } from '../backtest/differenceFile.ts';

export const FAIL_ON = ['changed', 'new-blocks', 'none'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface BacktestOptions {
  json?: boolean;
  failOn?: FailOn;
  report?: string;
  /** Worker threads (default: one per core, at most the number of files; 0 runs in this thread). */
  workers?: number;
  /** Progress lines on stderr: 'auto' (after the first seconds of a long run), always, or never. */
  progress?: 'auto' | 'always' | 'never';
}

/** How many differences of each category a report can list (kept while reading, per file and in all). */
const REPORT_TOP = 200;
/** Progress on stderr starts after this long, then comes this often (a short run prints none). */
const PROGRESS_MS = 2000;

export async function backtestCommand(oldPath: string, newPath: string, paths: string[], options: BacktestOptions, io: Io): Promise<number> {
  const failOn = options.failOn ?? 'new-blocks';
  const reportKind = options.report ? reportKindOf(options.report) : null;
  // Each session of an SQLite store is a file of the backtest, `<store>#<id>` [I22].
  const files = await sessionPaths(await walkFiles(paths));
  const a = await compileOldPipeline(oldPath);
  // The differences of --json pass through files in here [B6]; removed at the end, whatever happens.
  const spill = options.json ? openDifferenceFolder() : null;
  try {
    const b = await compilePipelineFile(newPath);
    try {
      const corpus = createBacktestCorpus(b.compiled, oldPath, newPath);
      const kept = new Map<BacktestCategory, { file: string; d: BacktestDifference }[]>(BACKTEST_CATEGORIES.map((c) => [c, []]));
      const entries: BacktestFileEntry[] = [];
      const progress = progressLine(io, files.length, options.progress ?? 'auto');
      if (options.json) io.out(`{"format":"hookwire.backtest","version":1,"old":${JSON.stringify(oldPath)},"new":${JSON.stringify(newPath)},"files":[`);
      let written = 0;
      const run = runBacktestFiles(oldPath, newPath, a.compiled, b.compiled, files, {
        workers: options.workers,
        onEvents: progress.events,
        workerEntry: import.meta.url,
        keepPerCategory: REPORT_TOP,
        spillFolder: spill?.path,
      });
      for await (const o of run) {
        progress.file();
        if (o.kind === 'skipped') {
          corpus.skip(o.file, o.reason);
          continue;
        }
        for (const p of o.problems) io.err(`${o.file}: ${p}\n`);
        const entry = corpus.add(o.file, o.format, o.problems, o.result);
        if (options.json) {
          // The entry as JSON, its differences (the last field) copied in from the file they were written to.
          const { differences: _d, ...head } = entry;
          io.out(`${written++ > 0 ? ',' : ''}\n${JSON.stringify(head).slice(0, -1)},"differences":[`);
          if (o.differencesFile) await copyDifferenceFile(o.differencesFile, io.out, io.drain);
          io.out(`${entry.changed > 0 ? '\n' : ''}]}`);
          if (io.drain) await io.drain();
        }
        for (const d of entry.differences) {
          const list = kept.get(d.category)!;
          if (list.length < REPORT_TOP) list.push({ file: entry.file, d });
        }
        entries.push({ ...entry, differences: [] });
      }
      progress.end();
      const tail = corpus.tail();
      if (options.json) {
        const { format: _f, version: _v, old: _o, new: _n, ...rest } = tail;
        io.out(`${written > 0 ? '\n' : ''}],${JSON.stringify(rest).slice(1)}\n`);
      }
      // The report's entries carry only the differences kept for it (the counts are complete).
      for (const list of kept.values()) for (const { file, d } of list) entries.find((e) => e.file === file)?.differences.push(d);
      for (const e of entries) e.differences.sort((x, y) => x.step - y.step);
      const report: BacktestReport = { ...tail, files: entries };
      if (!options.json) io.out(textSummary(report));
      if (options.report) await writeReport(options.report, reportKind === 'html' ? backtestHtml(report) : backtestMarkdown(report), io);
      if (tail.total.files === 0) {
        throw new CliError(files.length === 0 ? `nothing to backtest: ${paths.join(', ')} holds no file` : `nothing to backtest: none of the ${files.length} files could be imported (see skipped)`);
      }
      const failed = failOn === 'changed' ? tail.total.changed > 0 : failOn === 'new-blocks' ? tail.total.new_blocks > 0 : false;
      return failed ? EXIT.failed : EXIT.ok;
    } finally {
      b.dispose();
    }
  } finally {
    a.dispose();
    spill?.remove();
  }
}

function reportKindOf(path: string): 'md' | 'html' {
  const ext = extname(path).toLowerCase();
  if (ext === '.md' || ext === '.markdown') return 'md';
  if (ext === '.html' || ext === '.htm') return 'html';
  throw new CliError(`--report ${path}: the file name must end in .md or .html (it says which report to write)`);
}

async function writeReport(path: string, text: string, io: Io): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (err) {
    throw new CliError(`cannot write the report ${path}: ${fileErrorText(err)}`);
  }
  io.err(`wrote ${path}\n`);
}

function textSummary(r: BacktestReport): string {
  const out: string[] = [];
  const rows = r.files.filter((f) => f.changed > 0).map((f) => [cell(f.file, 60), String(f.events), String(f.changed), String(f.new_blocks), String(f.lifted_blocks), String(f.new_asks), String(f.changed_rewrites), String(f.other)]);
  if (rows.length > 0) out.push(table(['file', 'events', 'changed', 'new blocks', 'lifted', 'new asks', 'rewrites', 'other'], rows));
  for (const s of r.skipped) out.push(`skipped ${s.file}: ${cell(s.reason, 200)}\n`);
  // Labels first among the findings [B7]: a person said what these steps should do.
  for (const v of violatedLabels(r, 50)) out.push(`violated label ${cell(v.file, 60)} step ${v.step} (${cell(v.event_id, 36)}): ${cell(v.failures.join('; '), 160)}${v.expected?.note ? ` — ${cell(v.expected.note, 80)}` : ''}\n`);
  if (r.unguarded.length > 0) out.push(`unguarded tool calls: ${r.unguarded.slice(0, 10).map((u) => `${u.agent}/${u.tool} ×${u.count}`).join(', ')}${r.unguarded.length > 10 ? `, … ${r.unguarded.length - 10} more` : ''}\n`);
  if (r.never_matched.length > 0) out.push(`matchers that never matched: ${r.never_matched.map((m) => m.matcher_id).join(', ')}\n`);
  if (r.never_sent.length > 0) out.push(`event types listened to that no trace sent: ${r.never_sent.map((e) => e.pattern).join(', ')}\n`);
  out.push(`${backtestHeadline(r)}\n`);
  return out.join('');
}

/** Progress on stderr for long runs: nothing for the first seconds, then a line every few seconds. */
function progressLine(io: Io, total: number, mode: 'auto' | 'always' | 'never') {
  const start = Date.now();
  let last = mode === 'always' ? -Infinity : start;
  let done = 0;
  let events = 0;
  let printed = false;
  const maybe = (force: boolean) => {
    if (mode === 'never') return;
    const now = Date.now();
    if (!force && now - last < PROGRESS_MS) return;
    last = now;
    printed = true;
    io.err(`backtest: ${done} of ${total} files, ${events.toLocaleString('en-US')} events, ${((now - start) / 1000).toFixed(1)} s\n`);
  };
  return {
    events(n: number) {
      events += n;
      maybe(false);
    },
    file() {
      done++;
      maybe(false);
    },
    end() {
      if (printed) maybe(true);
    },
  };
}
