import { Workbench } from '../shell/Workbench.tsx';
import { ImportResultDialog } from '../debugger/library/ImportResultDialog.tsx';
import { BacktestCoverage } from './BacktestCoverage.tsx';
import { BacktestResults } from './BacktestResults.tsx';
import { BacktestSetup } from './BacktestSetup.tsx';
import '../debugger/debugger.css';
import './backtest.css';

/**
 * The Backtest view [B1]-[B4]: the open pipeline against one of its earlier versions over traces picked from
 * the library. Left: what to compare and over what; middle: every differing event, by trace and category (a
 * click opens the debugger at that step, Compare pinned to the old version); right: what the current pipeline
 * leaves unguarded or never uses, and the report to save.
 */
export function BacktestView() {
  return (
    <div className="bt-root" data-testid="backtest-view">
      <Workbench left={<BacktestSetup />} main={<BacktestResults />} right={<BacktestCoverage />} />
      {/* A file dropped here that imports only in part asks the same question as in Debug. */}
      <ImportResultDialog />
    </div>
  );
}
