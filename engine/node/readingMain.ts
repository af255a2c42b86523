// The CLI as one CommonJS file, for the commands that read traces (cliBundle.cjs READING_COMMANDS: replay, import,
// backtest, verify, diff). The binaries (bin.cjs, packageBin.cjs) compile it through V8's code cache on Node 20,
// which has no compile cache for ES modules: compiling the ES module chunks was most of the ~200 ms of CPU a
// replay spent before its first event (docs/speed.md). It is cli.ts itself, so commander, the messages and the
// exit codes are the same code as the ES module CLI's; only how the code is loaded differs.
export { main } from './cli.ts';

/**
 * A backtest's worker threads load the file that started them (backtestCommand.ts passes its own module's URL,
 * which in this bundle is the bundle's) and run its `backtestWorkerMain`.
 */
export async function backtestWorkerMain(): Promise<void> {
  return (await import('./backtest/runBacktestFiles.ts')).backtestWorkerMain();
}
