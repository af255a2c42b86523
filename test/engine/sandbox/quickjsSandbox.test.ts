import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import type { QuickJSSandbox } from '../../../engine/sandbox/quickjsSandbox.ts';
import { seedOf } from '../../../engine/sandbox/quickjsVm.ts';
import type { SandboxLimits, SandboxProgram } from '../../../engine/sandbox/types.ts';
import type { JsonObject } from '../../../engine/model/json.ts';
import { caseInput, referenceRandom } from '../../shared/sandboxCases.ts';

// Wall-clock limits: generous where the test is not about time, so a busy machine cannot fail it.
const LIMITS: SandboxLimits = { timeoutMs: 5000, memoryBytes: 32 * 1024 * 1024 };
const FAST: SandboxLimits = { timeoutMs: 50, memoryBytes: 32 * 1024 * 1024 };

let sb: QuickJSSandbox;
beforeAll(async () => {
  sb = await createNodeSandbox();
});
afterAll(() => sb.dispose());

function compile(source: string, box: QuickJSSandbox = sb, role: 'handler' | 'matcher' = 'handler'): SandboxProgram {
  const c = box.compile(source, { language: 'ts', role, name: 'test' });
  if (!c.ok) throw new Error(`does not compile: ${JSON.stringify(c.error)}`);
  return c.program;
}

describe('runtime reuse and replacement [S9]', () => {
  it('[S9] one runtime serves many calls and many programs', () => {
    const a = compile('export default (ctx: HandlerContext) => ({ state: { n: ctx.state.n + 1 } })');
    const b = compile('export default () => block("b")');
    const before = sb.stats().runtimes;
    expect(before).toBe(1);
    for (let i = 0; i < 200; i++) {
      const r = sb.call(i % 2 ? a : b, caseInput({ state: { n: i } }), LIMITS);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.value).toEqual(i % 2 ? { state: { n: i + 1 } } : { decision: 'block_action', reason: 'b' });
    }
    expect(sb.stats().runtimes).toBe(before);
  });

  it('[S9] a timeout keeps the runtime: the next call runs in the same one', () => {
    const before = sb.stats().runtimes;
    const loop = compile('export default () => { log("started"); for (;;) {} }');
    const r = sb.call(loop, caseInput(), FAST);
    expect(r).toMatchObject({ ok: false, error: { kind: 'timeout' }, logs: ['started'] });
    expect(sb.call(compile('export default () => stop()'), caseInput(), LIMITS)).toMatchObject({ ok: true, value: { decision: 'stop_propagation' } });
    expect(sb.stats().runtimes).toBe(before);
  });

  it('[S9] running out of memory replaces the runtime; earlier programs still run', () => {
    const keep = compile('export default () => block("still here")');
    const before = sb.stats().runtimes;
    const bomb = compile('export default () => { const a: Uint8Array[] = []; for (;;) a.push(new Uint8Array(1 << 20)); }');
    expect(sb.call(bomb, caseInput(), { timeoutMs: 5000, memoryBytes: 8 * 1024 * 1024 })).toMatchObject({ ok: false, error: { kind: 'memory' } });
    expect(sb.call(keep, caseInput(), LIMITS)).toMatchObject({ ok: true, value: { decision: 'block_action', reason: 'still here' } });
    expect(sb.stats().runtimes).toBe(before + 1);
  });

  it('[S7] the heap grows by at most about the memory limit per call', async () => {
    const box = await createNodeSandbox();
    try {
      const bomb = compile('export default () => { const a: Uint8Array[] = []; for (;;) a.push(new Uint8Array(1 << 20)); }', box);
      const ok = compile('export default () => stop()', box);
      box.call(ok, caseInput(), LIMITS); // the runtime exists: what follows is the bomb's own growth
      const { heapBytes: before } = box.stats();
      expect(box.call(bomb, caseInput(), { timeoutMs: 5000, memoryBytes: 16 * 1024 * 1024 })).toMatchObject({ ok: false, error: { kind: 'memory' } });
      expect(box.stats().heapBytes - before).toBeLessThanOrEqual(16 * 1024 * 1024);
    } finally {
      box.dispose();
    }
  });

  it('[S9] promise jobs left behind (async code) replace the runtime', () => {
    const before = sb.stats().runtimes;
    const r = sb.call(compile('export default () => { Promise.resolve().then(() => 1); return stop(); }'), caseInput(), LIMITS);
    expect(r).toMatchObject({ ok: true, value: { decision: 'stop_propagation' } });
    expect(sb.call(compile('export default () => stop()'), caseInput(), LIMITS)).toMatchObject({ ok: true });
    expect(sb.stats().runtimes).toBe(before + 1);
  });

  it('[S9] a host-level failure is reported as host and a fresh runtime takes over', async () => {
    // With a QuickJS stack larger than the thread's own, deep recursion exhausts the host stack first
    // (STACK-NOTES): a real host failure, not a simulated one. Where it strikes (the prelude, compiling or
    // calling) depends on the thread's stack size, so the test accepts any of them.
    const box = await createNodeSandbox({ maxStackBytes: 4096 * 1024 });
    try {
      const compiled = box.compile('function f(n: number): number { return f(n + 1) + 1; }\nexport default () => f(0);', { language: 'ts', role: 'handler', name: 'deep' });
      const failed = compiled.ok ? box.call(compiled.program, caseInput(), { timeoutMs: 5000, memoryBytes: 256 * 1024 * 1024 }) : compiled;
      expect(failed).toMatchObject({ ok: false, error: { kind: 'host', message: expect.stringMatching(/replaced by a fresh one/) } });
      // The wasm instance may be spoilt (emscripten's stack pointer is left deep): the sandbox renewed its
      // module at once, so the very next compile and call work, without waiting for anything.
      const runtimes = box.stats().runtimes;
      const fine = box.compile('export default () => block("fresh")', { language: 'ts', role: 'handler', name: 'fine' });
      expect(fine.ok).toBe(true);
      if (fine.ok) expect(box.call(fine.program, caseInput(), LIMITS)).toMatchObject({ ok: true, value: { decision: 'block_action', reason: 'fresh' } });
      expect(box.stats().runtimes).toBe(runtimes + 1);
      expect(box.stats().renewals).toBe(1);
    } finally {
      box.dispose();
    }
  });

  it('[S9] with the default 256 KB stack the same recursion is a sandbox error, not a host one', () => {
    const deep = compile('function f(n: number): number { return f(n + 1) + 1; }\nexport default () => f(0);');
    expect(sb.call(deep, caseInput(), { timeoutMs: 5000, memoryBytes: 256 * 1024 * 1024 })).toMatchObject({ ok: false, error: { kind: 'stack' } });
  });
});

describe('programs', () => {
  it('a released program cannot be called, and neither can a program of another sandbox', async () => {
    const p = compile('export default () => stop()');
    sb.release(p);
    expect(sb.call(p, caseInput(), LIMITS)).toMatchObject({ ok: false, error: { kind: 'host', message: expect.stringMatching(/released/) } });
    const other = await createNodeSandbox();
    const foreign = compile('export default () => stop()', other);
    expect(sb.call(foreign, caseInput(), LIMITS)).toMatchObject({ ok: false, error: { kind: 'host' } });
    other.dispose();
    expect(other.call(foreign, caseInput(), LIMITS)).toMatchObject({ ok: false, error: { kind: 'host', message: 'the sandbox was disposed' } });
    expect(other.compile('export default () => 1', { language: 'js', role: 'handler', name: 'x' })).toMatchObject({ ok: false, error: { kind: 'host' } });
  });

  it('compile-time limits come from CompileOptions.limits when given', () => {
    const slow = 'let i = 0; while (i < 3e6) i++;\nexport default () => i;';
    expect(sb.compile(slow, { language: 'js', role: 'handler', name: 's', limits: { timeoutMs: 1, memoryBytes: LIMITS.memoryBytes } })).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(sb.compile(slow, { language: 'js', role: 'handler', name: 's', limits: { timeoutMs: 20_000, memoryBytes: LIMITS.memoryBytes } })).toMatchObject({ ok: true });
  });

  it('[S6] one program cannot change what another sees', () => {
    const attacker = compile(`export default () => {
      const tries = [
        () => { (JSON as any).parse = () => ({ decision: "terminate" }); },
        () => { (Object.prototype as any).decision = "terminate"; },
        () => { (globalThis as any).block = () => ({ decision: "terminate" }); },
        () => { (Math as any).random = () => 0; },
        () => { (Date as any).now = () => 0; },
      ];
      return { state: { blocked: tries.map((t) => { try { t(); return false; } catch { return true; } }) } };
    }`);
    expect(sb.call(attacker, caseInput(), LIMITS)).toMatchObject({ ok: true, value: { state: { blocked: [true, true, true, true, true] } } });
    const victim = compile('export default (ctx: HandlerContext) => ({ decision: JSON.parse("{}").decision ?? "continue", reason: String(Date.now() === ctx.now), state: { r: Math.random() } })');
    expect(sb.call(victim, caseInput(), LIMITS)).toMatchObject({ ok: true, value: { decision: 'continue', reason: 'true', state: { r: referenceRandom('evt-1', 1)[0] } } });
  });
});

describe('determinism [S6]', () => {
  const source = `export default (ctx: HandlerContext) => ({
    state: { at: new Date().toISOString(), r: Math.random(), n: Object.keys(ctx.payload).length, local: new Date(ctx.now).getHours() },
    reason: ctx.event.event_id,
  })`;

  it('[S6] the same input gives the same result, in one sandbox and in a fresh one', async () => {
    const p = compile(source);
    const fresh = await createNodeSandbox();
    const q = compile(source, fresh);
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 4102444800000 }), fc.dictionary(fc.string(), fc.jsonValue()), (id, now, payload) => {
        const input = caseInput({ event_id: id, now, payload: payload as JsonObject });
        const first = sb.call(p, input, LIMITS);
        const again = sb.call(p, input, LIMITS);
        const elsewhere = fresh.call(q, input, LIMITS);
        expect(first.ok && again.ok && elsewhere.ok).toBe(true);
        if (first.ok && again.ok && elsewhere.ok) {
          expect(again.value).toEqual(first.value);
          expect(elsewhere.value).toEqual(first.value);
          expect(first.value).toMatchObject({ state: { at: new Date(now).toISOString(), r: referenceRandom(id, 1)[0], local: new Date(now).getUTCHours() } });
        }
      }),
      { numRuns: 60 },
    );
    fresh.dispose();
  });

  it('[S6] the random seed is the FNV-1a hash of the event id', () => {
    expect(seedOf(caseInput({ event_id: '' }))).toBe(0x811c9dc5 | 0);
    expect(seedOf({})).toBe(seedOf(caseInput({ event_id: '' })));
    const sequences = new Set(['a', 'b', 'evt-1', 'evt-2'].map((id) => JSON.stringify(referenceRandom(id, 2))));
    expect(sequences.size).toBe(4);
  });
});

describe('never throws for what code does', () => {
  it('compile returns a result for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom<'js' | 'ts'>('js', 'ts'), (source, language) => {
        const r = sb.compile(source, { language, role: 'handler', name: 'fuzz' });
        expect(typeof r.ok).toBe('boolean');
        if (r.ok) sb.release(r.program);
        else expect(r.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });

  it('call returns a result for any JSON the code returns, and the value is that JSON', () => {
    const echo = compile('export default (ctx: HandlerContext) => ctx.payload.v');
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = sb.call(echo, caseInput({ payload: { v } as JsonObject }), LIMITS);
        expect(r.ok).toBe(true);
        // JSON has no -0: what crosses the boundary is the JSON text of the value.
        if (r.ok) expect(r.value).toEqual(v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 150 },
    );
  });
});

describe('timeout positions', () => {
  it('[S8] a timeout claims no line of its own: it names the line where the running function starts', async () => {
    const { createNodeSandbox } = await import('../../../engine/node/loadQuickJS.ts');
    const { runCodeOn } = await import('../../../engine/sandbox/runCode.ts');
    const sb = await createNodeSandbox();
    try {
      const source = 'const x = 1;\nexport default function (ctx) {\n  while (true) {}\n}\n';
      const [r] = runCodeOn(sb, { source, language: 'ts', role: 'handler' }, [{ event: { type: 'e' }, payload: {}, state: {}, meta: {}, now: 0 }], { timeoutMs: 30, memoryBytes: 32 << 20 });
      expect(r).toMatchObject({ ok: false, error: { kind: 'timeout' } });
      const error = (r as { error: { line?: number; column?: number; message: string } }).error;
      expect(error.line).toBeUndefined();
      expect(error.column).toBeUndefined();
      expect(error.message).toMatch(/function that starts at line 2$/);
    } finally {
      sb.dispose();
    }
  });
});
