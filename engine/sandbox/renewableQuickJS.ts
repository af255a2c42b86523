// A QuickJS module that can be made fresh again synchronously, as often as needed [S9][S12]. After a host
// failure (the host's own stack ran out inside wasm, a wasm trap) the instance's state cannot be trusted:
// emscripten's stack pointer is left deep inside its stack and QuickJS's heap is mid-operation. Loading a
// new module is asynchronous (the emscripten glue awaits its instantiation), which a synchronous replay
// cannot wait for; so the loaders keep the compiled WebAssembly.Module and the glue's imports, and renewal
// is: zero the module's own memory, instantiate the compiled module again over it (data segments and
// globals as at load), hand the instance to the glue (which rebinds its exports), run its constructors.
// Nothing of the old instance is used again.
import { QuickJSWASMModule, type QuickJSFFI, type QuickJSSyncVariant } from 'quickjs-emscripten-core';

/** The part of `WebAssembly` this file uses (the engine has no WebAssembly types). */
interface Wasm {
  Instance: new (module: unknown, imports: unknown) => { exports: Record<string, unknown> };
}

/** The WebAssembly.Memory the module runs in: created by the loader, one per module. */
interface ModuleMemory {
  readonly buffer: ArrayBuffer;
}

type Glue = Record<string, unknown>;
type Loader = (moduleArg: unknown) => Promise<unknown>;
type Receive = (instance: unknown, module: unknown) => void;

export interface RenewableQuickJS {
  /** The module as loaded. */
  readonly module: QuickJSWASMModule;
  /** Makes the module fresh, synchronously, and returns it; every earlier runtime of it is gone. */
  renew(): QuickJSWASMModule;
}

/**
 * The emscripten export that runs the C constructors (`__wasm_call_ctors`), minified in this build. The glue
 * calls it once after instantiation; renewal must too. Checked when loading: a build without it is refused.
 */
const CTORS = 'u';

/** An ES module namespace or a CommonJS wrapper around the loader, as the library's own `smartUnwrap` sees them. */
function unwrap(v: unknown): Loader {
  let out = v;
  for (let i = 0; i < 2 && out && typeof out !== 'function' && typeof out === 'object' && 'default' in out; i++) out = (out as { default: unknown }).default;
  return out as Loader;
}

/**
 * Loads the release-sync variant over `memory` from an already compiled WebAssembly.Module.
 * `const q = await loadRenewableQuickJS(releaseSync, compiled, memory); … q.renew()`
 */
export async function loadRenewableQuickJS(variant: QuickJSSyncVariant, compiled: unknown, memory: ModuleMemory): Promise<RenewableQuickJS> {
  const { Instance } = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;
  const [loader, FFI] = await Promise.all([variant.importModuleLoader().then(unwrap), variant.importFFI()]);
  const Ffi = FFI as unknown as new (glue: Glue) => QuickJSFFI;
  let imports: unknown;
  let receive: Receive | null = null;
  let exports: Record<string, unknown> = {};
  const instantiate = (): void => {
    const instance = new Instance(compiled, imports);
    exports = instance.exports;
    receive!(instance, compiled);
  };
  const glue = (await loader({
    wasmMemory: memory,
    instantiateWasm(given: unknown, onSuccess: Receive) {
      imports = given;
      receive = onSuccess;
      instantiate();
      return exports;
    },
  })) as Glue;
  if (typeof exports[CTORS] !== 'function') throw new Error(`this QuickJS build has no export "${CTORS}" (its constructors): renewal cannot work`);
  glue.type = 'sync';
  const make = (): QuickJSWASMModule => new QuickJSWASMModule(glue as never, new Ffi(glue) as never);
  return {
    module: make(),
    renew() {
      new Uint8Array(memory.buffer).fill(0);
      instantiate();
      (exports[CTORS] as () => void)();
      return make();
    },
  };
}
