import { describe, expect, it } from 'vitest';
import { useApp } from '../../../web/store/appStore.ts';

/** The app's store with no backtest pick. */
function store() {
  useApp.setState({ backtestTraces: [], backtestTracesChosen: false });
  return useApp;
}

describe('the traces a backtest runs over', () => {
  it('are the library\'s until the person picks; then the library\'s new traces are not added', () => {
    const s = store();
    s.getState().defaultBacktestTraces(['t1']);
    s.getState().defaultBacktestTraces(['t1', 't2']);
    expect(s.getState().backtestTraces).toEqual(['t1', 't2']);
    s.getState().setBacktestTraces(['t2']);
    s.getState().defaultBacktestTraces(['t1', 't2', 't3']);
    expect(s.getState().backtestTraces).toEqual(['t2']);
    expect(s.getState().backtestTracesChosen).toBe(true);
  });
});
