import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import releaseSyncModule from '@jitl/quickjs-wasmfile-release-sync';
import { guardMemory, type GrowableMemory, type HeapGuard } from '../sandbox/heapGuard.ts';
import { createQuickJSSandbox, type QuickJSSandbox, type QuickJSSandboxOptions } from '../sandbox/quickjsSandbox.ts';
import { loadRenewableQuickJS } from '../sandbox/renewableQuickJS.ts';

/**
 * Loads QuickJS in Node from the same package files the browser uses (the release-sync wasm variant).
 * Each load makes a module with its own `WebAssembly.Memory`, so its heap has a hard maximum and a guard
 * that bounds growth per call (engine/sandbox/heapGuard.ts), and `renew()` makes it fresh again
 * synchronously after a host failure (engine/sandbox/renewableQuickJS.ts). About 20 ms.
 */
export interface LoadedQuickJS {
  module: QuickJSWASMModule;
  heapGuard: HeapGuard;
  renew(): QuickJSWASMModule;
}

const PAGE = 65536;

interface Wasm {
  Memory: new (d: { initial: number; maximum: number }) => GrowableMemory & { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => unknown;
}
// TypeScript declares WebAssembly in the DOM lib, which the engine's configs leave out; Node has it.
const { Memory, Module } = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

// The variant's .d.ts files are CommonJS-style, so under NodeNext resolution (the package build) TypeScript
// types its default import as the module object. At run time Node's ESM import gives the variant itself (the
// package's ES module entry), but a CommonJS bundle (the reading commands' readingMain.cjs) requires its CommonJS
// entry, `{ __esModule, default: variant }`, and esbuild's interop for an ES module importer takes that whole
// object as the default: the variant is then its `default`.
const releaseSync = variantOf(releaseSyncModule);
function variantOf(m: unknown): QuickJSSyncVariant {
  const variant = m as QuickJSSyncVariant & { default?: QuickJSSyncVariant };
  return typeof variant.importModuleLoader === 'function' ? variant : variant.default!;
}

/** The variant's .wasm, compiled once per process (each module instantiates it over its own memory). */
let compiled: unknown;
function compiledWasm(): unknown {
  compiled ??= new Module(readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
  return compiled;
}

export interface LoadOptions {
  /** The heap's hard maximum for every sandbox of this module together (default 1024 MB). */
  maxHeapMB?: number;
}

export async function loadQuickJS(options: LoadOptions = {}): Promise<LoadedQuickJS> {
  const maximum = Math.ceil(((options.maxHeapMB ?? 1024) * 1024 * 1024) / PAGE);
  // 16 MB to start is emscripten's default for this build; QuickJS with the prelude needs a few.
  const memory = new Memory({ initial: Math.min(256, maximum), maximum });
  const heapGuard = guardMemory(memory);
  const renewable = await loadRenewableQuickJS(releaseSync, compiledWasm(), memory);
  return { module: renewable.module, heapGuard, renew: renewable.renew };
}

/**
 * A sandbox for Node on a module of its own, with `performance.now` for sub-millisecond durations and the
 * module renewed after a host-level failure [S9]. `const sb = await createNodeSandbox()`.
 */
export async function createNodeSandbox(options: QuickJSSandboxOptions & LoadOptions = {}): Promise<QuickJSSandbox> {
  const { module, heapGuard, renew } = await loadQuickJS(options);
  return createQuickJSSandbox(module, { clock: () => performance.now(), heapGuard, renew, ...options });
}
