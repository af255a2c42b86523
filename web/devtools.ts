import type { JsonObject } from '../engine/model/json.ts';
import type { CodeRunReport, CodeSpec } from '../engine/sandbox/runCode.ts';
import type { SandboxLimits } from '../engine/sandbox/types.ts';
import type { QuickJSSandbox } from '../engine/sandbox/quickjsSandbox.ts';
import type { WorkerSandbox } from './sandbox/workerSandbox.ts';

/**
 * A small test handle on `globalThis.hookwire`, used by the end-to-end tests (and handy in the console).
 * Everything behind it is loaded on first use, so the app does not download QuickJS until code runs.
 *
 *   await hookwire.sandbox.runCase(spec, [input], limits)          // in the page
 *   await hookwire.sandbox.runCaseInWorker(spec, [input], limits)  // in the sandbox worker
 */
export interface HookwireDevtools {
  sandbox: {
    runCase(spec: CodeSpec, inputs: JsonObject[], limits: SandboxLimits): Promise<CodeRunReport[]>;
    runCaseInWorker(spec: CodeSpec, inputs: JsonObject[], limits: SandboxLimits, options?: { watchdogMs?: number }): Promise<CodeRunReport[]>;
    /** Workers the page has started (a watchdog restart adds one). */
    workers(): Promise<number>;
  };
}

let pageSandbox: Promise<QuickJSSandbox> | undefined;
let workerSandbox: Promise<WorkerSandbox> | undefined;

const devtools: HookwireDevtools = {
  sandbox: {
    async runCase(spec, inputs, limits) {
      pageSandbox ??= import('./sandbox/loadQuickJS.ts').then((m) => m.createBrowserSandbox());
      const [sandbox, { runCodeOn }] = await Promise.all([pageSandbox, import('../engine/sandbox/runCode.ts')]);
      await sandbox.whenReady();
      return runCodeOn(sandbox, spec, inputs, limits);
    },
    async runCaseInWorker(spec, inputs, limits, options) {
      workerSandbox ??= import('./sandbox/workerSandbox.ts').then((m) => m.createWorkerSandbox());
      return (await workerSandbox).run(spec, inputs, limits, options);
    },
    async workers() {
      return workerSandbox ? (await workerSandbox).workers() : 0;
    },
  },
};

const g = globalThis as typeof globalThis & { hookwire?: Partial<HookwireDevtools> };
g.hookwire = { ...g.hookwire, ...devtools };
