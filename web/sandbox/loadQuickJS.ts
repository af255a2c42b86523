import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import { guardMemory, type HeapGuard, createQuickJSSandbox, type QuickJSSandbox, type QuickJSSandboxOptions, loadRenewableQuickJS } from '../../engine/app.ts';

/**
 * Loads QuickJS in the browser (a page or a worker) from the same package files Node uses. The .wasm is a
 * Vite asset (`?url`), compiled once per page; each load instantiates it with a `WebAssembly.Memory` of its
 * own, with a hard maximum and a guard on growth (engine/sandbox/heapGuard.ts), and `renew()` makes it
 * fresh again synchronously after a host failure, as in Node (engine/sandbox/renewableQuickJS.ts).
 */
export interface LoadedQuickJS {
  module: QuickJSWASMModule;
  heapGuard: HeapGuard;
  renew(): QuickJSWASMModule;
}

export interface LoadOptions {
  /** The heap's hard maximum (default 512 MB: a tab shares the machine with everything else). */
  maxHeapMB?: number;
}

const PAGE = 65536;
let compiled: Promise<WebAssembly.Module> | undefined;

export async function loadQuickJS(options: LoadOptions = {}): Promise<LoadedQuickJS> {
  compiled ??= WebAssembly.compileStreaming(fetch(wasmLocation));
  const maximum = Math.ceil(((options.maxHeapMB ?? 512) * 1024 * 1024) / PAGE);
  const memory = new WebAssembly.Memory({ initial: Math.min(256, maximum), maximum });
  const heapGuard = guardMemory(memory);
  const renewable = await loadRenewableQuickJS(releaseSync, await compiled, memory);
  return { module: renewable.module, heapGuard, renew: renewable.renew };
}

/** A sandbox for the browser: `performance.now` durations, the module renewed after a host-level failure [S9]. */
export async function createBrowserSandbox(options: QuickJSSandboxOptions & LoadOptions = {}): Promise<QuickJSSandbox> {
  const { module, heapGuard, renew } = await loadQuickJS(options);
  return createQuickJSSandbox(module, { clock: () => performance.now(), heapGuard, renew, ...options });
}
