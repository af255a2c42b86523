import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';
import { kindOfEscaped, toCodeError, type RawError } from './codeErrors.ts';
import { MAX_RESULT_CHARS, PRELUDE_FILENAME, PRELUDE_SOURCE, SEP } from './prelude.ts';
import type { Transpiled } from './transpile.ts';
import { BUILTIN_WORK_PER_FUEL, type CodeError, type SandboxLimits } from './types.ts';

/**
 * One QuickJS runtime and context with the prelude loaded, and the low-level reads and writes of the wire
 * format (prelude.ts) that quickjsSandbox.ts builds on.
 */
export interface Vm {
  rt: QuickJSRuntime;
  ctx: QuickJSContext;
  handles: QuickJSHandle[];
  run: QuickJSHandle;
  probe: QuickJSHandle;
  takeLogs: QuickJSHandle;
  define: QuickJSHandle;
  release: QuickJSHandle;
  spin: QuickJSHandle;
  /** Programs defined in this context (a fresh one redefines them lazily). */
  defined: Set<number>;
  /** Host clock time past which the interrupt handler stops the code (the safety net [S13]). */
  deadline: number;
  /** Interrupt polls of the current call, and how many it may take: the fuel [S13]. */
  polls: number;
  fuel: number;
  /** True while drainPolls spins: the next poll stops it. */
  draining: boolean;
  /** The QuickJS memory limit currently set. */
  memory: number;
}

export const UNLIMITED = -1;

/** A runtime and context with the prelude evaluated. Throws only for a bug in the prelude. */
export function openVm(wasm: QuickJSWASMModule, maxStackBytes: number, clock: () => number): Vm {
  const rt = wasm.newRuntime();
  rt.setMaxStackSize(maxStackBytes);
  const ctx = rt.newContext();
  const vm = { rt, ctx, deadline: Infinity, memory: UNLIMITED, defined: new Set<number>(), polls: 0, fuel: Infinity, draining: false } as Vm;
  // [S13] QuickJS calls this every ~10,000 interpreter steps: counting the calls is the fuel meter, the same on
  // every machine and under any load; the clock is only the far safety net.
  rt.setInterruptHandler(() => vm.draining || ++vm.polls > vm.fuel || clock() > vm.deadline);
  const prelude = ctx.evalCode(PRELUDE_SOURCE, PRELUDE_FILENAME);
  if (prelude.error) {
    const why = JSON.stringify(ctx.dump(prelude.error));
    prelude.error.dispose();
    ctx.dispose();
    rt.dispose();
    throw new Error(`the sandbox prelude failed: ${why}`);
  }
  const runner = prelude.value;
  vm.run = ctx.getProp(runner, 'run');
  vm.probe = ctx.getProp(runner, 'probe');
  vm.takeLogs = ctx.getProp(runner, 'takeLogs');
  vm.define = ctx.getProp(runner, 'define');
  vm.release = ctx.getProp(runner, 'release');
  vm.spin = ctx.getProp(runner, 'spin');
  vm.handles = [runner, vm.run, vm.probe, vm.takeLogs, vm.define, vm.release, vm.spin];
  return vm;
}

/** Frees a runtime that is in a clean state (no call cut off half-way). */
export function closeVm(vm: Vm): void {
  try {
    for (const h of vm.handles) if (h.alive) h.dispose();
    vm.ctx.dispose();
    vm.rt.dispose();
  } catch {
    // Unreachable either way.
  }
}

export function setVmMemory(vm: Vm, bytes: number): void {
  if (vm.memory !== bytes) {
    vm.rt.setMemoryLimit(bytes);
    vm.memory = bytes;
  }
}

/**
 * Restarts QuickJS's poll countdown [S13]: it runs across calls, so the polls a call takes depend on the calls
 * before it by one poll either way. Spinning until the next poll leaves the countdown where every drained
 * call starts, so a call whose fuel verdict was within that one poll is run again from here and decides the
 * same in any history, any process, Node or browser.
 */
export function drainPolls(vm: Vm): void {
  vm.draining = true;
  try {
    const r = vm.ctx.callFunction(vm.spin, vm.ctx.undefined);
    (r.error ?? r.value).dispose();
  } finally {
    vm.draining = false;
  }
}

/** Reads an error that escaped the runner (interrupt, out of memory). Call with the deadline lifted. */
export function readEscaped(vm: Vm, handle: QuickJSHandle): RawError {
  setVmMemory(vm, UNLIMITED);
  try {
    const dumped = vm.ctx.dump(handle) as { name?: unknown; message?: unknown; stack?: unknown } | null;
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
export function leftoverLogs(vm: Vm): string[] {
  const got = vm.ctx.callFunction(vm.takeLogs, vm.ctx.undefined);
  if (got.error) {
    got.error.dispose();
    return [];
  }
  const text = vm.ctx.getString(got.value);
  got.value.dispose();
  return text ? (JSON.parse(text.slice(1)) as string[]) : [];
}

/** FNV-1a of the event id: the per-call random seed [S6]. Same function in every environment. */
export function seedOf(input: JsonObject): number {
  const event = ownGet(input, 'event');
  const id = isJsonObject(event) ? ownGet(event, 'event_id') : undefined;
  const text = typeof id === 'string' ? id : '';
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * The runner's argument for one call: `id SEP now SEP seed SEP deadline SEP builtinBudget SEP inputJson`. The
 * deadline is on `Date.now()`, the clock QuickJS itself reads (see prelude.ts, "slow built-ins"); the budget is
 * the built-in work the fuel allows [S13].
 */
export function callWire(id: number, input: JsonObject, timeoutMs: number, fuel: number): string {
  const now = ownGet(input, 'now');
  const clock = typeof now === 'number' && Number.isFinite(now) ? now : 0;
  return `${id}${SEP}${clock}${SEP}${seedOf(input)}${SEP}${Date.now() + timeoutMs}${SEP}${fuel * BUILTIN_WORK_PER_FUEL}${SEP}${JSON.stringify(input)}`;
}

/** The runner's argument for running a module's top level: `id SEP deadline SEP builtinBudget`. */
export function probeWire(id: number, timeoutMs: number, fuel: number): string {
  return `${id}${SEP}${Date.now() + timeoutMs}${SEP}${fuel * BUILTIN_WORK_PER_FUEL}${SEP}`;
}

export type Reply = { ok: true; value: JsonValue | undefined } | { ok: false; error: CodeError };

/** Decodes the runner's answer: a tag, a JSON body, then `SEP logsJson` when there are log lines. */
export function decodeReply(text: string, id: number, code: Transpiled, limits: SandboxLimits): { reply: Reply; logs: string[] } {
  const cut = text.indexOf(SEP);
  const head = cut < 0 ? text : text.slice(0, cut);
  const logs = cut < 0 ? [] : (JSON.parse(text.slice(cut + 1)) as string[]);
  const body = head.slice(1);
  const fail = (error: CodeError) => ({ reply: { ok: false, error } as const, logs });
  const value = (v: JsonValue | undefined) => ({ reply: { ok: true, value: v } as const, logs });
  switch (head[0]) {
    case 'u':
    case 'o':
      return value(undefined);
    case 't':
      return value(true);
    case 'f':
      return value(false);
    case 'j':
      return value(JSON.parse(body) as JsonValue);
    case 'i':
      return fail({ kind: 'invalid_result', message: JSON.parse(body) as string });
    case 'g':
      return fail({ kind: 'too_large', message: `the result is ${body} characters of JSON; the limit is ${MAX_RESULT_CHARS}` });
    case 'n':
      return fail({ kind: 'invalid_result', message: `the code has no default export function (it is ${JSON.parse(body) as string}); write \`export default function (ctx) { … }\`` });
    case 'e':
      return fail(toCodeError(JSON.parse(body) as RawError, id, code, limits));
    default:
      throw new Error(`the sandbox runner sent an unknown reply tag: ${head[0]}`);
  }
}
