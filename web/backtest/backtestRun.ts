import { compilePipeline, createBacktestCorpus, createFileBacktest, hasCode, type BacktestFileEntry, type CompileResult, type Pipeline, type Sandbox } from '../../engine/app.ts';
import type { HookwireDb } from '../persistence/db.ts';
import { createEventStore } from '../debugger/worker/eventStore.ts';
import { KEEP_PER_CATEGORY, type BacktestRequest, type BacktestWorkerMessage } from './backtestProtocol.ts';

// A worker runs one backtest and is then terminated (backtestService.ts), so the sandbox and the programs it
// compiled go with it.
const PROGRESS_MS = 100;

let sandbox: Promise<Sandbox> | null = null;
async function compile(doc: Pipeline): Promise<CompileResult> {
  if (!hasCode(doc)) return compilePipeline(doc);
  sandbox ??= import('../sandbox/loadQuickJS.ts').then((m) => m.createBrowserSandbox());
  return compilePipeline(doc, { sandbox: await sandbox });
}

/**
 * One run [B1]-[B4] over stored traces: both pipelines compiled (with the sandbox when they hold code), each
 * trace's events read from IndexedDB a chunk at a time and pushed through the engine's file backtest (the
 * pipeline diff of `hookwire diff`, one implementation); the engine gathers the report. Everything said goes
 * through `send`.
 */
export async function runBacktest(request: BacktestRequest, db: HookwireDb, send: (m: BacktestWorkerMessage) => void): Promise<void> {
  const a = await compile(request.old.doc);
  if (!a.ok) return send({ kind: 'failed', message: `“${request.old.name}” does not load: ${a.problems[0]?.message ?? 'it has errors'}` });
  const b = await compile(request.next.doc);
  if (!b.ok) return send({ kind: 'failed', message: `“${request.next.name}” does not load: ${b.problems[0]?.message ?? 'it has errors'}` });
  const corpus = createBacktestCorpus(b.compiled, request.old.name, request.next.name);
  const files: BacktestFileEntry[] = [];
  const traceIds: string[] = [];
  const totalEvents = request.traces.reduce((n, t) => n + t.event_count, 0);
  let events = 0;
  let last = 0;
  for (const [i, t] of request.traces.entries()) {
    const f = createFileBacktest(a.compiled, b.compiled, { keepPerCategory: KEEP_PER_CATEGORY });
    try {
      await createEventStore(db, t).scan((chunk) => {
        for (const e of chunk) f.push(e);
        events += chunk.length;
        if (performance.now() - last > PROGRESS_MS) {
          last = performance.now();
          send({ kind: 'progress', traces: i, events, totalTraces: request.traces.length, totalEvents });
        }
      });
    } catch (err) {
      // A damaged stored trace is skipped with the reason, never passed over [B1].
      corpus.skip(t.name, err instanceof Error ? err.message : String(err));
      continue;
    }
    files.push(corpus.add(t.name, t.format, [], f.result()));
    traceIds.push(t.id);
  }
  send({ kind: 'progress', traces: request.traces.length, events, totalTraces: request.traces.length, totalEvents });
  send({ kind: 'done', report: { ...corpus.tail(), files }, traceIds });
}

