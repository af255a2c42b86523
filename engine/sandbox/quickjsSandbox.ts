import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';
import { kindOfEscaped, programFile, toCodeError, type RawError } from './codeErrors.ts';
import type { HeapGuard } from './heapGuard.ts';
import { MAX_RESULT_CHARS, PRELUDE_FILENAME, PRELUDE_SOURCE, SEP } from './prelude.ts';
import { transpile, type Transpiled } from './transpile.ts';
import {
  DEFAULT_CODE_MEMORY_MB,
  type CodeError, type CompileOptions, type CompileResult, type Sandbox, type SandboxCallResult, type SandboxLimits, type SandboxProgram,
} from './types.ts';

/**
 * The QuickJS sandbox [S1]–[S10]: one runtime and context, reused across calls, replaced after any host-level
 * failure. The QuickJS module is injected (engine/node/loadQuickJS.ts, web/sandbox/loadQuickJS.ts) so this
 * file stays pure and runs unchanged in Node, a page and a Web Worker.
 */

export interface QuickJSSandboxOptions {
  /** Host clock for deadlines and durations (ms). Default `Date.now`; a loader may pass `performance.now`. */
  clock?: () => number;
  /** QuickJS stack limit. Above ~512 KB deep recursion escapes as a host error (see STACK-NOTES). */
  maxStackBytes?: number;
  /** Limits for running a module's top level once when it is compiled, unless `CompileOptions.limits` says (default 1 s, 32 MB). */
  compileLimits?: SandboxLimits;
  /**
   * Bounds heap growth during a call (see heapGuard.ts). The loaders always pass one; without it, the memory
   * limit only refuses single allocations larger than the limit.
   */
  heapGuard?: HeapGuard;
  /**
   * Makes a fresh QuickJS module (and its guard). After a host-level failure the wasm instance itself may be
   * unusable (a host stack overflow leaves emscripten's stack pointer deep inside its stack), so the sandbox
   * asks for a new module; until it arrives, calls fail with `host` (see `whenReady`). Without it, the
   * sandbox tries a fresh runtime in the same module.
   */
  reload?: () => Promise<{ module: QuickJSWASMModule; heapGuard?: HeapGuard }>;
}

export interface QuickJSSandbox extends Sandbox {
  /** Resolves when the sandbox can run code again after a host-level failure (at once otherwise). */
  whenReady(): Promise<void>;
  /** Counters for tests and benchmarks: runtimes created so far, calls made, live programs, wasm heap size. */
  stats(): { runtimes: number; calls: number; programs: number; heapBytes: number };
}

interface Program {
  id: number;
  code: Transpiled;
  /** Limits for defining and probing it (compile time). */
  limits: SandboxLimits;
}

interface Vm {
  rt: QuickJSRuntime;
  ctx: QuickJSContext;
  handles: QuickJSHandle[];
  run: QuickJSHandle;
  probe: QuickJSHandle;
  takeLogs: QuickJSHandle;
  define: QuickJSHandle;
  release: QuickJSHandle;
  defined: Set<number>;
  deadline: number;
  memory: number;
}

type Reply = { ok: true; value: JsonValue | undefined } | { ok: false; error: CodeError };

const MB = 1024 * 1024;
const UNLIMITED = -1;
/** Time for running a module's top level at compile time when `CompileOptions.limits` does not say. */
export const COMPILE_TIMEOUT_MS = 1000;

/** FNV-1a of the event id: the per-call random seed [S6]. Same function in every environment. */
export function seedOf(input: JsonObject): number {
  const event = ownGet(input, 'event');
  const id = isJsonObject(event) ? ownGet(event, 'event_id') : undefined;
  const text = typeof id === 'string' ? id : '';
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

function nowOf(input: JsonObject): number {
  const now = ownGet(input, 'now');
  return typeof now === 'number' && Number.isFinite(now) ? now : 0;
}

/**
 * Makes a sandbox on a loaded QuickJS module. `compile` and `call` are synchronous and never throw for
 * anything user code does. `const sb = createQuickJSSandbox(await loadQuickJS())`.
 */
export function createQuickJSSandbox(module: QuickJSWASMModule, options: QuickJSSandboxOptions = {}): QuickJSSandbox {
  const clock = options.clock ?? Date.now;
  const maxStack = options.maxStackBytes ?? 256 * 1024;
  // Generous by default: a top level is declarations, and a load must not fail because the machine was busy.
  const defaultCompileLimits = options.compileLimits ?? { timeoutMs: COMPILE_TIMEOUT_MS, memoryBytes: DEFAULT_CODE_MEMORY_MB * MB };
  const programs = new WeakMap<SandboxProgram, Program>();
  let live = 0;
  let nextId = 1;
  let vm: Vm | null = null;
  let runtimes = 0;
  let calls = 0;
  let disposed = false;
  let wasm = module;
  let guard = options.heapGuard;
  let restarting: Promise<void> | null = null;

  function newVm(): Vm {
    guard?.limit(Infinity); // a call cut off by a host failure may have left a limit behind
    const rt = wasm.newRuntime();
    runtimes++;
    rt.setMaxStackSize(maxStack);
    const ctx = rt.newContext();
    const made = { rt, ctx, deadline: Infinity, memory: UNLIMITED, defined: new Set<number>() } as Vm;
    rt.setInterruptHandler(() => clock() > made.deadline);
    const prelude = ctx.evalCode(PRELUDE_SOURCE, PRELUDE_FILENAME);
    if (prelude.error) {
      const why = JSON.stringify(ctx.dump(prelude.error));
      prelude.error.dispose();
      ctx.dispose();
      rt.dispose();
      throw new Error(`the sandbox prelude failed: ${why}`); // a bug in prelude.ts, not user input
    }
    const runner = prelude.value;
    made.run = ctx.getProp(runner, 'run');
    made.probe = ctx.getProp(runner, 'probe');
    made.takeLogs = ctx.getProp(runner, 'takeLogs');
    made.define = ctx.getProp(runner, 'define');
    made.release = ctx.getProp(runner, 'release');
    made.handles = [runner, made.run, made.probe, made.takeLogs, made.define, made.release];
    return made;
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
    if (!old || !orderly) return;
    try {
      for (const h of old.handles) if (h.alive) h.dispose();
      old.ctx.dispose();
      old.rt.dispose();
    } catch {
      // Unreachable either way.
    }
  }

  function setMemory(m: Vm, bytes: number): void {
    if (m.memory !== bytes) {
      m.rt.setMemoryLimit(bytes);
      m.memory = bytes;
    }
  }

  /** Applies a call's limits to QuickJS and to the heap; `unlimited` lifts both again. */
  function limitTo(m: Vm, limits: SandboxLimits | null): void {
    if (limits) {
      setMemory(m, limits.memoryBytes);
      guard?.limit(limits.memoryBytes);
      m.deadline = clock() + limits.timeoutMs;
    } else {
      m.deadline = Infinity;
      guard?.limit(Infinity);
    }
  }

  /** Abandons the runtime (and, with `reload`, the module) after a host-level failure [S9]. */
  function hostFailure(e: unknown): CodeError {
    retire(false);
    const reload = options.reload;
    if (reload && !restarting) {
      restarting = reload().then(
        (fresh) => {
          wasm = fresh.module;
          guard = fresh.heapGuard;
        },
        () => undefined, // keep the old module: a fresh runtime in it is the best left
      ).finally(() => {
        restarting = null;
      });
    }
    const why = e instanceof Error ? e.message : String(e);
    return { kind: 'host', message: `the sandbox failed (${why}) and was replaced by a fresh one` };
  }

  /** Why code cannot run right now, if it cannot. */
  function unavailable(): CodeError | null {
    if (disposed) return { kind: 'host', message: 'the sandbox was disposed' };
    if (restarting) return { kind: 'host', message: 'the sandbox is restarting after a host failure; try again shortly' };
    return null;
  }

  /** Evaluates a program's factory in `m` and registers it; a QuickJS syntax error comes back positioned. */
  function defineIn(m: Vm, p: Program): CodeError | null {
    limitTo(m, p.limits);
    const made = m.ctx.evalCode(p.code.factory, programFile(p.id));
    limitTo(m, null);
    if (made.error) {
      const raw = readEscaped(m, made.error);
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

  /** Reads an error that escaped the runner (interrupt, out of memory) with the limits lifted. */
  function readEscaped(m: Vm, handle: QuickJSHandle): RawError {
    limitTo(m, null);
    setMemory(m, UNLIMITED);
    try {
      const dumped = m.ctx.dump(handle) as { name?: unknown; message?: unknown; stack?: unknown } | null;
      const message = typeof dumped?.message === 'string' ? dumped.message : String(dumped);
      return {
        kind: kindOfEscaped(message),
        name: typeof dumped?.name === 'string' ? dumped.name : '',
        message,
        stack: typeof dumped?.stack === 'string' ? dumped.stack : '',
      };
    } finally {
      handle.dispose();
    }
  }

  /** Log lines of a call that did not return normally. */
  function leftoverLogs(m: Vm): string[] {
    const got = m.ctx.callFunction(m.takeLogs, m.ctx.undefined);
    if (got.error) {
      got.error.dispose();
      return [];
    }
    const text = m.ctx.getString(got.value);
    got.value.dispose();
    return text ? (JSON.parse(text.slice(1)) as string[]) : [];
  }

  function decode(reply: string, p: Program, limits: SandboxLimits): { reply: Reply; logs: string[] } {
    const cut = reply.indexOf(SEP);
    const head = cut < 0 ? reply : reply.slice(0, cut);
    const logs = cut < 0 ? [] : (JSON.parse(reply.slice(cut + 1)) as string[]);
    const body = head.slice(1);
    switch (head[0]) {
      case 'u': return { reply: { ok: true, value: undefined }, logs };
      case 't': return { reply: { ok: true, value: true }, logs };
      case 'f': return { reply: { ok: true, value: false }, logs };
      case 'o': return { reply: { ok: true, value: undefined }, logs };
      case 'j': return { reply: { ok: true, value: JSON.parse(body) as JsonValue }, logs };
      case 'i': return { reply: { ok: false, error: { kind: 'invalid_result', message: JSON.parse(body) as string } }, logs };
      case 'g':
        return { reply: { ok: false, error: { kind: 'too_large', message: `the result is ${body} characters of JSON; the limit is ${MAX_RESULT_CHARS}` } }, logs };
      case 'n': {
        const what = JSON.parse(body) as string;
        const message = `the code has no default export function (it is ${what}); write \`export default function (ctx) { … }\``;
        return { reply: { ok: false, error: { kind: 'invalid_result', message } }, logs };
      }
      case 'e': return { reply: { ok: false, error: toCodeError(JSON.parse(body) as RawError, p.id, p.code, limits) }, logs };
      default: throw new Error(`the sandbox runner sent an unknown reply tag: ${head[0]}`);
    }
  }

  /** Calls a runner function with one argument under `limits`; retires the runtime when it must. */
  function invoke(fn: (m: Vm) => QuickJSHandle, arg: (m: Vm) => QuickJSHandle, p: Program, limits: SandboxLimits): { reply: Reply; logs: string[] } {
    const m = current();
    if (!m.defined.has(p.id)) {
      const error = defineIn(m, p);
      if (error) return { reply: { ok: false, error }, logs: [] };
    }
    const argument = arg(m);
    limitTo(m, limits);
    const result = m.ctx.callFunction(fn(m), m.ctx.undefined, argument);
    limitTo(m, null);
    argument.dispose();
    let out: { reply: Reply; logs: string[] };
    if (result.error) {
      const raw = readEscaped(m, result.error);
      out = { reply: { ok: false, error: toCodeError(raw, p.id, p.code, limits) }, logs: leftoverLogs(m) };
    } else {
      const text = m.ctx.getString(result.value);
      result.value.dispose();
      out = decode(text, p, limits);
    }
    // After running out of memory, or with promise jobs left queued (code that used async), start clean.
    if ((!out.reply.ok && out.reply.error.kind === 'memory') || m.rt.hasPendingJob()) retire(true);
    return out;
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
      const probed = invoke((mm) => mm.probe, (mm) => mm.ctx.newString(`${p.id}${SEP}${Date.now() + p.limits.timeoutMs}${SEP}`), p, p.limits);
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
    calls++;
    try {
      // The deadline inside is on Date.now(), the clock QuickJS itself reads (see prelude.ts, "slow built-ins").
      const deadline = Date.now() + limits.timeoutMs;
      const wire = `${p.id}${SEP}${nowOf(input)}${SEP}${seedOf(input)}${SEP}${deadline}${SEP}${JSON.stringify(input)}`;
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
    whenReady: () => restarting ?? Promise.resolve(),
    stats: () => ({ runtimes, calls, programs: live, heapBytes: guard?.size() ?? 0 }),
  };
}
