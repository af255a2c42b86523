import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { createQuickJSSandbox, type QuickJSSandbox, type QuickJSSandboxOptions } from '../sandbox/quickjsSandbox.ts';

/**
 * Loads QuickJS in Node from the same package files the browser uses (the release-sync wasm variant, whose
 * loader reads the .wasm next to it). About 20 ms; load once per process and share the module.
 */
let loading: Promise<QuickJSWASMModule> | undefined;

export function loadQuickJS(): Promise<QuickJSWASMModule> {
  loading ??= newQuickJSWASMModuleFromVariant(releaseSync);
  return loading;
}

/** A sandbox for Node: the shared module, `performance.now` for sub-millisecond durations. */
export async function createNodeSandbox(options: QuickJSSandboxOptions = {}): Promise<QuickJSSandbox> {
  return createQuickJSSandbox(await loadQuickJS(), { clock: () => performance.now(), ...options });
}
