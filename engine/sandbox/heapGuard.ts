/**
 * Bounds how much the WebAssembly heap may grow while user code runs [S7].
 *
 * Why: QuickJS's own memory limit cannot count bytes in an emscripten build (it has no
 * `malloc_usable_size` there, so it adds a constant per allocation; see quickjs-emscripten issues #255 and
 * #271). It still refuses one allocation larger than the limit, but a loop of smaller ones grows the heap
 * without bound. The loaders therefore give QuickJS a `WebAssembly.Memory` of their own (with a hard
 * maximum) and wrap its `grow`, which emscripten's allocator calls when it needs more heap: during a call,
 * growth past the call's memory limit is refused, the allocation fails, and QuickJS throws "out of memory".
 * Free heap left by earlier calls can still be used, so a call may reach its limit plus that free space,
 * never the memory's maximum.
 */

/** The part of `WebAssembly.Memory` the guard needs (the engine has no WebAssembly types). */
export interface GrowableMemory {
  readonly buffer: { readonly byteLength: number };
  grow(deltaPages: number): number;
}

export interface HeapGuard {
  /** From now on the heap may grow by at most `bytes` (`Infinity`: up to the memory's maximum). */
  limit(bytes: number): void;
  /** True when a growth was refused since the last `limit`. */
  refused(): boolean;
  /** Current heap size in bytes. */
  size(): number;
}

const PAGE = 65536;

/**
 * Wraps `memory.grow` in place and returns the guard that drives it. Call it once, on a memory created for
 * one QuickJS module. `guardMemory(new WebAssembly.Memory({ initial: 256, maximum: 16384 }))`.
 */
export function guardMemory(memory: GrowableMemory): HeapGuard {
  const grow = memory.grow.bind(memory);
  let base = memory.buffer.byteLength;
  let budget = Infinity;
  let refused = false;
  Object.defineProperty(memory, 'grow', {
    configurable: true,
    value(deltaPages: number): number {
      if (memory.buffer.byteLength + deltaPages * PAGE - base > budget) {
        refused = true;
        // Emscripten's heap resize catches this and reports the allocation as failed.
        throw new RangeError('the sandbox heap may not grow past the code memory limit');
      }
      return grow(deltaPages);
    },
  });
  return {
    limit(bytes) {
      base = memory.buffer.byteLength;
      budget = bytes;
      refused = false;
    },
    refused: () => refused,
    size: () => memory.buffer.byteLength,
  };
}
