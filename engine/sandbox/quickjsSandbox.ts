import type { QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { MAX_JSON_DEPTH, tooDeepAt, tooDeepMessage, type JsonObject } from '../model/json.ts';
import { JSON_LIMITS, jsonLimitBreach } from '../model/jsonLimits.ts';
import { programFile, toCodeError } from './codeErrors.ts';
import type { HeapGuard } from './heapGuard.ts';
import { callWire, closeVm, decodeReply, drainPolls, leftoverLogs, openVm, probeWire, readEscaped, setVmMemory, type Reply, type Vm } from './quickjsVm.ts';
import { transpile, type Transpiled } from './transpile.ts';
import {
  DEFAULT_CODE_FUEL, DEFAULT_CODE_MEMORY_MB, safetyNetMs,
  type CodeError, type CompileOptions, type CompileResult, type Sandbox, type SandboxCallResult, type SandboxLimits, type SandboxProgram,
} from './types.ts';

/**
 * The QuickJS sandbox [S1]–[S11]: one runtime and context, reused across calls, replaced after any host-level
 * failure. The QuickJS module is injected (engine/node/loadQuickJS.ts, web/sandbox/loadQuickJS.ts) so this
 * file stays pure and runs unchanged in Node, a page and a Web Worker.
 */

export interface QuickJSSandboxOptions {
  /** Host clock for deadlines and durations (ms). Default `Date.now`; a loader may pass `performance.now`. */
  clock?: () => number;
  /** QuickJS stack limit. Above ~512 KB deep recursion escapes as a host error (see STACK-NOTES). */
  maxStackBytes?: number;
  /** Limits for running a module's top level once when it is compiled, unless `CompileOptions.limits` says (default: COMPILE_FUEL, its derived net, 32 MB). */
  compileLimits?: SandboxLimits;
  /**
   * Bounds heap growth during a call (see heapGuard.ts). The loaders always pass one; without it, the memory
   * limit only refuses single allocations larger than the limit.
   */
  heapGuard?: HeapGuard;
  /**
   * Makes the QuickJS module fresh again, synchronously (engine/sandbox/renewableQuickJS.ts). After a
   * host-level failure the wasm instance itself may be unusable (a host stack overflow leaves emscripten's
   * stack pointer deep inside its stack), so the sandbox renews it at the failure, before the call returns
   * [S9]: the next call never waits and never fails for it, however many failures came before, so a
   * synchronous replay and a live runtime decide the same events the same way [S12]. Without it, the
   * sandbox tries a fresh runtime in the same module.
   */
  renew?: () => QuickJSWASMModule;
}

export interface QuickJSSandbox extends Sandbox {
  /** Counters for tests and benchmarks: runtimes created so far, calls made, live programs, wasm heap size, module renewals. */
  stats(): { runtimes: number; calls: number; programs: number; heapBytes: number; renewals: number };
}

interface Program {
  id: number;
  code: Transpiled;
  /** Limits for defining and probing it (compile time). */
  limits: SandboxLimits;
}

const MB = 1024 * 1024;
/** What one call may take in: the JSON limits, a few levels of context around the payload, and room for state and meta beside it. */
const SANDBOX_INPUT_LIMITS = { ...JSON_LIMITS, depth: MAX_JSON_DEPTH + 4, totalChars: 2 * JSON_LIMITS.totalChars };
/**
 * Fuel for running a module's top level at compile time when `CompileOptions.limits` does not say [S13]: a
 * call's default — a top level is declarations, and one that loops is refused by its fuel on every machine alike.
 */
export const COMPILE_FUEL = DEFAULT_CODE_FUEL;
/** The compile-time safety net, derived from its fuel like a call's [S7]: far past the fuel, so a load does not depend on load. */
export const COMPILE_TIMEOUT_MS = safetyNetMs(COMPILE_FUEL);

/**
 * Makes a sandbox on a loaded QuickJS module. `compile` and `call` are synchronous and never throw for
 * anything user code does. `const sb = createQuickJSSandbox(await loadQuickJS())`.
 */
export function createQuickJSSandbox(module: QuickJSWASMModule, options: QuickJSSandboxOptions = {}): QuickJSSandbox {
  const clock = options.clock ?? Date.now;
  const maxStack = options.maxStackBytes ?? 256 * 1024;
  // Generous by default: a top level is declarations, and a load must not fail because the machine was busy.
  const defaultCompileLimits = options.compileLimits ?? { timeoutMs: COMPILE_TIMEOUT_MS, memoryBytes: DEFAULT_CODE_MEMORY_MB * MB, fuel: COMPILE_FUEL };
  const programs = new WeakMap<SandboxProgram, Program>();
  let live = 0;
  let nextId = 1;
  let vm: Vm | null = null;
  let runtimes = 0;
  let calls = 0;
  let disposed = false;
  let wasm = module;
  const guard = options.heapGuard;
  let renewals = 0;

  function newVm(): Vm {
    guard?.limit(Infinity); // a call cut off by a host failure may have left a limit behind
    runtimes++;
    return openVm(wasm, maxStack, clock);
  }

  function current(): Vm {
    vm ??= newVm();
    return vm;
  }

  /**
   * Drops the runtime; the next call makes a fresh one and redefines programs lazily [S9]. After a host-level
   * failure the runtime is abandoned without freeing: a call cut off mid-way leaves live values behind, and
   * freeing it would trip QuickJS's own leak assertion (an emscripten abort). Its wasm memory is lost.
   */
  function retire(orderly: boolean): void {
    const old = vm;
    vm = null;
    if (old && orderly) closeVm(old);
  }

  /** Applies a call's limits to QuickJS and to the heap; `unlimited` lifts both again. */
  function limitTo(m: Vm, limits: SandboxLimits | null): void {
    if (limits) {
      setVmMemory(m, limits.memoryBytes);
      guard?.limit(limits.memoryBytes);
      m.polls = 0;
      m.fuel = limits.fuel ?? DEFAULT_CODE_FUEL;
      m.deadline = clock() + limits.timeoutMs;
    } else {
      m.deadline = Infinity;
      m.fuel = Infinity;
      guard?.limit(Infinity);
    }
  }

  /**
   * Abandons the runtime after a host-level failure and renews the module, synchronously: the next call runs
   * on a fresh instance [S9][S12]. The only recovery; every caller gets it, as often as failures come.
   */
  function hostFailure(e: unknown): CodeError {
    retire(false);
    if (options.renew && !disposed) {
      wasm = options.renew();
      renewals++;
    }
    const why = e instanceof Error ? e.message : String(e);
    return { kind: 'host', message: `the sandbox failed (${why}) and was replaced by a fresh one` };
  }

  /** Why code cannot run right now, if it cannot. */
  function unavailable(): CodeError | null {
    return disposed ? { kind: 'host', message: 'the sandbox was disposed' } : null;
  }

  /** Evaluates a program's factory in `m` and registers it; a QuickJS syntax error comes back positioned. */
  function defineIn(m: Vm, p: Program): CodeError | null {
    limitTo(m, p.limits);
    const made = m.ctx.evalCode(p.code.factory, programFile(p.id));
    limitTo(m, null);
    if (made.error) {
      const raw = readEscaped(m, made.error); // limits were lifted just above
      // A syntax error QuickJS finds (sucrase's parser is lenient about a few): drop the "SyntaxError: " prefix.
      const syntax = raw.name === 'SyntaxError';
      return toCodeError(syntax ? { ...raw, kind: 'syntax', name: '' } : raw, p.id, p.code, p.limits);
    }
    const id = m.ctx.newNumber(p.id);
    const done = m.ctx.callFunction(m.define, m.ctx.undefined, id, made.value);
    id.dispose();
    made.value.dispose();
    if (done.error) {
      done.error.dispose();
      throw new Error('the sandbox could not register a program');
    }
    done.value.dispose();
    m.defined.add(p.id);
    return null;
  }

  /** Calls a runner function with one argument under `limits`; retires the runtime when it must. */
  function invoke(fn: (m: Vm) => QuickJSHandle, arg: (m: Vm) => QuickJSHandle, p: Program, limits: SandboxLimits): { reply: Reply; logs: string[] } {
    const m = current();
    if (!m.defined.has(p.id)) {
      const error = defineIn(m, p);
      if (error) return { reply: { ok: false, error }, logs: [] };
    }
    let { out, nearFuel } = once(m, fn, arg, p, limits);
    // [S13] The verdict was within one poll of the fuel, where the calls before this one could tip it: decide
    // it again from the drained countdown, the same start in every history.
    if (nearFuel) {
      drainPolls(m);
      ({ out } = once(m, fn, arg, p, limits));
    }
    // After running out of memory, or with promise jobs left queued (code that used async), start clean.
    if ((!out.reply.ok && out.reply.error.kind === 'memory') || m.rt.hasPendingJob()) retire(true);
    return out;
  }

  /** One run of a runner function; `nearFuel`: its fuel verdict could differ by the poll countdown it started at. */
  function once(m: Vm, fn: (m: Vm) => QuickJSHandle, arg: (m: Vm) => QuickJSHandle, p: Program, limits: SandboxLimits): { out: { reply: Reply; logs: string[] }; nearFuel: boolean } {
    const argument = arg(m);
    limitTo(m, limits);
    const result = m.ctx.callFunction(fn(m), m.ctx.undefined, argument);
    const polls = m.polls;
    const fuel = m.fuel;
    limitTo(m, null);
    argument.dispose();
    let out: { reply: Reply; logs: string[] };
    if (result.error) {
      const raw = readEscaped(m, result.error); // limits were lifted just above
      // QuickJS says "interrupted" for both: past the fuel it is the work limit, else the wall-clock net.
      if (raw.kind === 'timeout' && polls > fuel) raw.kind = 'fuel';
      out = { reply: { ok: false, error: toCodeError(raw, p.id, p.code, limits) }, logs: leftoverLogs(m) };
    } else {
      const text = m.ctx.getString(result.value);
      result.value.dispose();
      out = decodeReply(text, p.id, p.code, limits);
    }
    return { out, nearFuel: polls >= fuel };
  }

  function compile(source: string, options: CompileOptions): CompileResult {
    const down = unavailable();
    if (down) return { ok: false, error: down };
    const stripped = transpile(source, options.language);
    if (!stripped.ok) return stripped;
    const p: Program = { id: nextId++, code: stripped.code, limits: options.limits ?? defaultCompileLimits };
    try {
      const m = current();
      const error = defineIn(m, p);
      if (error) return { ok: false, error };
      // Run the top level once, so a missing default export or an import fails at load time [S1].
      const probed = invoke((mm) => mm.probe, (mm) => mm.ctx.newString(probeWire(p.id, p.limits.timeoutMs, p.limits.fuel ?? DEFAULT_CODE_FUEL)), p, p.limits);
      if (!probed.reply.ok) {
        release({ id: p.id, role: options.role, name: options.name }, p);
        return { ok: false, error: probed.reply.error };
      }
    } catch (e) {
      return { ok: false, error: hostFailure(e) };
    }
    const program: SandboxProgram = Object.freeze({ id: p.id, role: options.role, name: options.name });
    programs.set(program, p);
    live++;
    return { ok: true, program };
  }

  function call(program: SandboxProgram, input: JsonObject, limits: SandboxLimits): SandboxCallResult {
    const started = clock();
    const p = programs.get(program);
    const elapsed = () => clock() - started;
    const down = unavailable();
    if (down) return { ok: false, error: down, logs: [], duration_ms: 0 };
    if (!p) return { ok: false, error: { kind: 'host', message: 'this program was released or was compiled by another sandbox' }, logs: [], duration_ms: 0 };
    // Checked before the input reaches QuickJS, whose JSON.parse would overflow the VM's stack on deep input
    // and take the host down with it [V9]. The context wraps the payload in a few levels.
    const deep = tooDeepAt(input, MAX_JSON_DEPTH + 4);
    if (deep) return { ok: false, error: { kind: 'too_large', message: `the handler's input: ${tooDeepMessage('ctx', deep, MAX_JSON_DEPTH + 4)}` }, logs: [], duration_ms: 0 };
    // The other JSON limits [V12] (state can grow past what one payload may hold), with the whole input's own.
    const big = jsonLimitBreach(input, 'ctx', SANDBOX_INPUT_LIMITS);
    if (big) return { ok: false, error: { kind: 'too_large', message: `the handler's input: ${big.message}` }, logs: [], duration_ms: 0 };
    calls++;
    try {
      const wire = callWire(p.id, input, limits.timeoutMs, limits.fuel ?? DEFAULT_CODE_FUEL);
      const { reply, logs } = invoke((m) => m.run, (m) => m.ctx.newString(wire), p, limits);
      return reply.ok ? { ok: true, value: reply.value, logs, duration_ms: elapsed() } : { ok: false, error: reply.error, logs, duration_ms: elapsed() };
    } catch (e) {
      return { ok: false, error: hostFailure(e), logs: [], duration_ms: elapsed() };
    }
  }

  function release(program: SandboxProgram, known = programs.get(program)): void {
    if (!known) return;
    if (programs.delete(program)) live--;
    const m = vm;
    if (!m || !m.defined.has(known.id)) return;
    m.defined.delete(known.id);
    try {
      const id = m.ctx.newNumber(known.id);
      const done = m.ctx.callFunction(m.release, m.ctx.undefined, id);
      id.dispose();
      (done.error ?? done.value).dispose();
    } catch (e) {
      hostFailure(e);
    }
  }

  return {
    compile,
    call,
    release: (program) => release(program),
    dispose() {
      disposed = true;
      retire(true);
    },
    stats: () => ({ runtimes, calls, programs: live, heapBytes: guard?.size() ?? 0, renewals }),
  };
}
