import { runCodeOn, type JsonObject, type DecisionRow, type CodeRunReport, type CodeRunSpec as CodeSpec, type SandboxLimits, type QuickJSSandbox } from '../engine/app.ts';
import type { WorkerSandbox } from './sandbox/workerSandbox.ts';
import type { AppServices } from './startApp.ts';

/**
 * A small test handle on `globalThis.hookwire`, used by the end-to-end tests (and handy in the console).
 * Everything behind it is loaded on first use, so the app does not download QuickJS until code runs.
 *
 *   await hookwire.sandbox.runCase(spec, [input], limits)          // in the page
 *   await hookwire.sandbox.runCaseInWorker(spec, [input], limits)  // in the sandbox worker
 *   await hookwire.debugger.decisions()                            // the open trace, as the debugger replays it
 */
export interface HookwireDevtools {
  sandbox: {
    /** `maxStackBytes` runs on a page sandbox of its own with that QuickJS stack (a big one makes host failures real [S9]). */
    runCase(spec: CodeSpec, inputs: JsonObject[], limits: SandboxLimits, options?: { maxStackBytes?: number }): Promise<CodeRunReport[]>;
    runCaseInWorker(spec: CodeSpec, inputs: JsonObject[], limits: SandboxLimits, options?: { watchdogMs?: number }): Promise<CodeRunReport[]>;
    /** Workers the page has started (a watchdog restart adds one). */
    workers(): Promise<number>;
  };
  debugger: DebuggerDevtools;
}

/** The debugger's own replay worker (the conformance test compares its decisions with `hookwire replay --json`). */
export interface DebuggerDevtools {
  /** One row per event of the open trace: `{event_id, type, decision, reason, decided_by, payload}` [P10]. */
  decisions(): Promise<DecisionRow[]>;
  /** What the debugger shows: trace, position, whether the replay has finished. */
  status(): { traceId: string | null; events: number; position: number; timeline: boolean; coverage: boolean; epoch: number };
  workers(): number;
}

let pageSandbox: Promise<QuickJSSandbox> | undefined;
let workerSandbox: Promise<WorkerSandbox> | undefined;

const sandboxTools: HookwireDevtools['sandbox'] = {
  async runCase(spec, inputs, limits, options) {
    const stack = options?.maxStackBytes;
    const made = stack === undefined ? (pageSandbox ??= import('./sandbox/loadQuickJS.ts').then((m) => m.createBrowserSandbox())) : import('./sandbox/loadQuickJS.ts').then((m) => m.createBrowserSandbox({ maxStackBytes: stack }));
    const sandbox = await made;
    try {
      return runCodeOn(sandbox, spec, inputs, limits);
    } finally {
      if (stack !== undefined) sandbox.dispose();
    }
  },
  async runCaseInWorker(spec, inputs, limits, options) {
    workerSandbox ??= import('./sandbox/workerSandbox.ts').then((m) => m.createWorkerSandbox());
    return (await workerSandbox).run(spec, inputs, limits, options);
  },
  async workers() {
    return workerSandbox ? (await workerSandbox).workers() : 0;
  },
};

function debuggerTools({ store, replay }: AppServices): DebuggerDevtools {
  return {
    async decisions() {
      const s = store.getState();
      if (!s.trace || s.activeEpoch < 0) throw new Error('no trace is replaying');
      return (await replay.client.request({ kind: 'decisions' })).value;
    },
    status() {
      const s = store.getState();
      return { traceId: s.traceId, events: s.trace?.event_count ?? 0, position: s.position, timeline: s.timeline !== null, coverage: s.coverage !== null, epoch: s.activeEpoch };
    },
    workers: () => replay.client.workers(),
  };
}

export function installDevtools(services: AppServices): void {
  const g = globalThis as typeof globalThis & { hookwire?: Partial<HookwireDevtools> };
  g.hookwire = { ...g.hookwire, sandbox: sandboxTools, debugger: debuggerTools(services) };
}
