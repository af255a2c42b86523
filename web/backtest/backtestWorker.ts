/// <reference lib="webworker" />
import '../zodConfig.ts';
import { HookwireDb } from '../persistence/db.ts';
import type { BacktestRequest, BacktestWorkerMessage } from './backtestProtocol.ts';
import { runBacktest } from './backtestRun.ts';

/**
 * The backtest worker: one run (backtestRun.ts) off the page's thread, so a long corpus never freezes the tab.
 * Cancel is the page terminating the worker: nothing is left running.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const send = (m: BacktestWorkerMessage) => scope.postMessage(m);

scope.onmessage = (e: MessageEvent<BacktestRequest>) => {
  runBacktest(e.data, new HookwireDb(), send).catch((err: unknown) => send({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }));
};
