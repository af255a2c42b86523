// Runs a backtest's files, in this thread or in worker threads (one per core), and hands the outcomes back in
// walk order. A worker compiles the two pipelines itself (compiled pipelines hold closures and a sandbox, which
// do not cross threads) and sends back plain data. Workers run at most a window of files ahead of the one
// the caller waits for, so out-of-order results held here stay bounded however uneven the files are.
import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import { parentPort, threadId, Worker, workerData } from 'node:worker_threads';
import type { CompiledPipeline } from '../../compile/compilePipeline.ts';
import { compilePipelineFile, compilePipelineText, type LoadedPipeline } from '../loadPipelineFile.ts';
import { emptyPipeline } from '../../model/emptyPipeline.ts';
import { openSpill } from '../spillFile.ts';
import { backtestFile, type FileOutcome } from './backtestFile.ts';
import { splitSessionPath } from '../sqliteSessions.ts';
import { createStoreCache } from '../storeSessions.ts';

/**
 * Below this many bytes of input in all, files run in this thread: a worker costs the load of the engine and
 * the pipelines' compilation again, more than it takes over on small corpora. Measured with
 * test/bench/backtestWorkers.bench.ts (CPU time, own process, 3 rounds, method and figures in docs/backtest.md):
 * two workers cost more CPU than the work they can take over up to 12.5–23.2 MB of input (two runs).
 */
export const WORKER_MIN_BYTES = 24 * 1024 * 1024;

export interface RunFilesOptions {
  /** Worker threads; default one per core when the input is large (WORKER_MIN_BYTES), else 0. */
  workers?: number | undefined;
  /** Events replayed since the last call (progress). */
  onEvents?: (n: number) => void;
  /**
   * The URL of a module that exports `backtestWorkerMain` (the command's own module: in the bundled CLI that
   * is its chunk). Without it, no workers are started.
   */
  workerEntry?: string | undefined;
  /** Keep at most this many differences of each category in an outcome [B6]. */
  keepPerCategory?: number | undefined;
  /** Write every file's differences to a file in this folder (the outcome's `differencesFile`) [B6]. */
  spillFolder?: string | undefined;
}

/** What each thread passes to backtestFile besides ids and progress. */
interface PerFile {
  keepPerCategory?: number | undefined;
  spillFolder?: string | undefined;
}

function fileOptions(p: PerFile): { keepPerCategory?: number; spill?: { folder: string; tag: string } } {
  return {
    ...(p.keepPerCategory !== undefined ? { keepPerCategory: p.keepPerCategory } : {}),
    ...(p.spillFolder !== undefined ? { spill: { folder: p.spillFolder, tag: `t${threadId}` } } : {}),
  };
}

type ToWorker = { index: number; file: string } | { stop: true };
type FromWorker = { index: number; outcome: FileOutcome } | { index: number; error: string } | { events: number } | { fatal: string };

/** The old pipeline's name for "no pipeline" [B1]: `hookwire backtest none new.json …` (a file named so is `./none`). */
export const NO_PIPELINE = 'none';

/**
 * The old side of a backtest: the pipeline file, or for `none` the empty pipeline, under which every event
 * continues unchanged (what the sessions did with no hooks) [B1].
 */
export function compileOldPipeline(path: string): Promise<LoadedPipeline> {
  return path === NO_PIPELINE ? compilePipelineText(JSON.stringify(emptyPipeline(NO_PIPELINE)), NO_PIPELINE) : compilePipelineFile(path);
}

/** Backtests `files` and yields their outcomes in order. */
export async function* runBacktestFiles(oldPath: string, newPath: string, a: CompiledPipeline, b: CompiledPipeline, files: readonly string[], options: RunFilesOptions = {}): AsyncGenerator<FileOutcome> {
  const workers = options.workerEntry ? await workerCount(files, options.workers) : 0;
  // Plain data: a worker is sent a copy.
  const perFile: PerFile = { keepPerCategory: options.keepPerCategory, spillFolder: options.spillFolder };
  if (workers < 2) {
    yield* inThisThread(a, b, files, perFile, options.onEvents);
    return;
  }
  yield* inWorkers(oldPath, newPath, files, workers, options.workerEntry!, perFile, options.onEvents);
}

async function workerCount(files: readonly string[], asked: number | undefined): Promise<number> {
  if (asked !== undefined) return Math.min(asked, files.length);
  if (files.length < 2) return 0;
  let bytes = 0;
  // A store's sessions (`<file>#<id>`) count the store's size each: enough to choose whether to start workers.
  for (const f of files) bytes += (await stat(splitSessionPath(f).file).catch(() => null))?.size ?? 0;
  return bytes >= WORKER_MIN_BYTES ? Math.min(availableParallelism(), files.length) : 0;
}

async function* inThisThread(a: CompiledPipeline, b: CompiledPipeline, files: readonly string[], perFile: PerFile, onEvents?: (n: number) => void): AsyncGenerator<FileOutcome> {
  const spill = openSpill();
  const stores = createStoreCache();
  try {
    for (const file of files) {
      let seen = 0;
      yield await backtestFile(a, b, file, {
        ...fileOptions(perFile),
        ids: spill.index,
        spool: spill.records,
        stores,
        ...(onEvents ? { onProgress: (n: number) => (onEvents(n - seen), (seen = n)) } : {}),
      });
    }
  } finally {
    stores.close();
    spill.close();
  }
}

async function* inWorkers(oldPath: string, newPath: string, files: readonly string[], count: number, entry: string, perFile: PerFile, onEvents?: (n: number) => void): AsyncGenerator<FileOutcome> {
  const window = count * 2;
  const done = new Map<number, FileOutcome>();
  let next = 0;
  let head = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  const idle: Worker[] = [];
  const feed = () => {
    while (idle.length > 0 && next < files.length && next < head + window) idle.pop()!.postMessage({ index: next, file: files[next++]! } satisfies ToWorker);
  };
  const pool = Array.from({ length: count }, () => startWorker(entry, oldPath, newPath, perFile));
  for (const w of pool) {
    w.on('message', (m: FromWorker) => {
      if ('events' in m) return onEvents?.(m.events);
      if ('fatal' in m) failure ??= new Error(m.fatal);
      else if ('error' in m) failure ??= new Error(`backtest of ${files[m.index]}: ${m.error}`);
      else {
        done.set(m.index, m.outcome);
        idle.push(w);
        feed();
      }
      signal();
    });
    w.on('error', (err) => {
      failure ??= err;
      signal();
    });
    w.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`a backtest worker stopped with code ${code}`);
      signal();
    });
    idle.push(w);
  }
  try {
    feed();
    while (head < files.length) {
      while (!done.has(head) && !failure) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      const o = done.get(head)!;
      done.delete(head++);
      feed();
      yield o;
    }
  } finally {
    for (const w of pool) {
      w.removeAllListeners('exit');
      w.postMessage({ stop: true } satisfies ToWorker);
    }
  }
}

/** A worker that loads `entry` (through tsx when it is TypeScript) and runs its `backtestWorkerMain`. */
function startWorker(entry: string, oldPath: string, newPath: string, perFile: PerFile): Worker {
  // tsx's ES module entry (its CommonJS one registers a different loader file that is not there).
  const tsx = entry.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : null;
  const code = [
    "import { workerData } from 'node:worker_threads';",
    "if (workerData.tsx) { const { register } = await import(workerData.tsx); register(); }",
    'const m = await import(workerData.entry);',
    'await m.backtestWorkerMain();',
  ].join('\n');
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    workerData: { entry, tsx, oldPath, newPath, perFile },
    // A worker's output goes through the main thread's (its own would interleave mid-line).
    stdout: false,
    stderr: false,
  });
}

/** The worker's side: compile the pipelines once, then backtest each file it is sent. */
export async function backtestWorkerMain(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('backtestWorkerMain runs only in a worker thread');
  const { oldPath, newPath, perFile } = workerData as { oldPath: string; newPath: string; perFile: PerFile };
  const send = (m: FromWorker) => port.postMessage(m);
  let a, b;
  try {
    a = await compileOldPipeline(oldPath);
    b = await compilePipelineFile(newPath);
  } catch (err) {
    a?.dispose();
    send({ fatal: err instanceof Error ? err.message : String(err) });
    return;
  }
  const spill = openSpill();
  const stores = createStoreCache();
  const pa = a;
  const pb = b;
  port.on('message', (m: ToWorker) => {
    if ('stop' in m) {
      stores.close();
      spill.close();
      pa.dispose();
      pb.dispose();
      port.close();
      return;
    }
    let seen = 0;
    backtestFile(pa.compiled, pb.compiled, m.file, { ...fileOptions(perFile), ids: spill.index, spool: spill.records, stores, onProgress: (n) => (send({ events: n - seen }), (seen = n)) }).then(
      (outcome) => {
        if (outcome.kind === 'done' && outcome.result.events > seen) send({ events: outcome.result.events - seen });
        send({ index: m.index, outcome });
      },
      (err: unknown) => send({ index: m.index, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
}
