import { useEffect } from 'react';
import type { DecisionRow } from '../../engine/runtime/decideTrace.ts';
import { replayClient } from './debuggerController.ts';
import { useDebugger } from './debuggerStore.ts';

/**
 * `globalThis.hookwire.debugger`, for end-to-end tests and the console: the decision of every event as the
 * debugger's own replay worker computes it (the conformance test compares it with `hookwire replay --json`).
 */
export interface DebuggerDevtools {
  /** One row per event of the open trace: `{event_id, type, decision, reason, decided_by, payload}` [P10]. */
  decisions(): Promise<DecisionRow[]>;
  /** What the debugger shows: trace, position, whether the replay has finished. */
  status(): { traceId: string | null; events: number; position: number; timeline: boolean; coverage: boolean; epoch: number };
  workers(): number;
}

const devtools: DebuggerDevtools = {
  async decisions() {
    const s = useDebugger.getState();
    if (!s.trace || s.activeEpoch < 0) throw new Error('no trace is replaying');
    return (await replayClient().request({ kind: 'decisions' })).value;
  },
  status() {
    const s = useDebugger.getState();
    return { traceId: s.traceId, events: s.trace?.event_count ?? 0, position: s.position, timeline: s.timeline !== null, coverage: s.coverage !== null, epoch: s.activeEpoch };
  },
  workers: () => replayClient().workers(),
};

export function useDebuggerDevtools(): void {
  useEffect(() => {
    const g = globalThis as typeof globalThis & { hookwire?: Record<string, unknown> };
    g.hookwire = { ...g.hookwire, debugger: devtools };
  }, []);
}
