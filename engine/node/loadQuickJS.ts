import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import releaseSyncModule from '@jitl/quickjs-wasmfile-release-sync';
import { guardMemory, type GrowableMemory, type HeapGuard } from '../sandbox/heapGuard.ts';
import { createQuickJSSandbox, type QuickJSSandbox, type QuickJSSandboxOptions } from '../sandbox/quickjsSandbox.ts';

/**
 * Loads QuickJS in Node from the same package files the browser uses (the release-sync wasm variant).
 * Each load makes a module with its own `WebAssembly.Memory`, so its heap has a hard maximum and a guard
 * that bounds growth per call (engine/sandbox/heapGuard.ts). About 20 ms.
 */
export interface LoadedQuickJS {
  module: QuickJSWASMModule;
  heapGuard: HeapGuard;
}

const PAGE = 65536;

type WasmMemoryOption = NonNullable<Parameters<typeof newVariant>[1]['wasmMemory']>;
// TypeScript declares WebAssembly in the DOM lib, which the engine's configs leave out; Node has it.
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => GrowableMemory } }).WebAssembly;

// The variant's .d.ts files are CommonJS-style, so under NodeNext resolution (the package build) TypeScript
// types its default import as the module object; at run time Node's ESM import gives the variant itself.
const releaseSync = releaseSyncModule as unknown as QuickJSSyncVariant;

export interface LoadOptions {
  /** The heap's hard maximum for every sandbox of this module together (default 1024 MB). */
  maxHeapMB?: number;
}

export async function loadQuickJS(options: LoadOptions = {}): Promise<LoadedQuickJS> {
  const maximum = Math.ceil(((options.maxHeapMB ?? 1024) * 1024 * 1024) / PAGE);
  // 16 MB to start is emscripten's default for this build; QuickJS with the prelude needs a few.
  const memory = new Memory({ initial: Math.min(256, maximum), maximum });
  const heapGuard = guardMemory(memory);
  const module = await newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmMemory: memory as unknown as WasmMemoryOption }));
  return { module, heapGuard };
}

/**
 * A sandbox for Node on a module of its own, with `performance.now` for sub-millisecond durations and a
 * fresh module after a host-level failure. `const sb = await createNodeSandbox()`.
 */
export async function createNodeSandbox(options: QuickJSSandboxOptions & LoadOptions = {}): Promise<QuickJSSandbox> {
  const { module, heapGuard } = await loadQuickJS(options);
  const sandbox = createQuickJSSandbox(module, { clock: () => performance.now(), heapGuard, reload: () => loadQuickJS(options), ...options });
  await sandbox.whenReady(); // the spare module a host failure switches to [S9]
  return sandbox;
}
