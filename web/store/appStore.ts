import { create } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createBacktestSlice, type BacktestSlice } from './backtestSlice.ts';
import { createDebuggerSlice, type DebuggerSlice } from './debuggerSlice.ts';
import { createDocumentSlice, type DocumentSlice } from './documentSlice.ts';
import { createLiveSlice, type LiveSlice } from './liveSlice.ts';
import { createNodeRunSlice, type NodeRunSlice } from './nodeRunSlice.ts';
import { createShellSlice, type ShellSlice } from './shellSlice.ts';

/**
 * The app's one store, built from slices (zustand's slices pattern): the open document, the shell (mode
 * and toasts), the debugger, the live view of a server, the Backtest view and the editor's node runs. Components read it through `useApp(selector)`; effects live in the
 * services that web/startApp.ts creates once, which are handed the store rather than importing it.
 */
export type AppState = DocumentSlice & ShellSlice & DebuggerSlice & LiveSlice & BacktestSlice & NodeRunSlice;
export type AppStore = StoreApi<AppState>;

const slices = (...a: Parameters<typeof createDocumentSlice>): AppState => ({
  ...createDocumentSlice(...a),
  ...createShellSlice(...a),
  ...createDebuggerSlice(...a),
  ...createLiveSlice(...a),
  ...createBacktestSlice(...a),
  ...createNodeRunSlice(...a),
});

/** A fresh store (tests make their own). */
export function createAppStore(): AppStore {
  return createStore<AppState>()(slices);
}

/** The page's store, bound to React. */
export const useApp = create<AppState>()(slices);

export * from './documentSlice.ts';
export * from './shellSlice.ts';
export * from './debuggerSlice.ts';
export * from './liveSlice.ts';
export * from './backtestSlice.ts';
export * from './nodeRunSlice.ts';
