import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRuntime, type Approver, type RuntimeOptions } from '../../../engine/runtime/index.ts';
import { readAnswer } from '../../../engine/runtime/approve.ts';
import { approvalOutcome, approvalText } from '../../../engine/model/approval.ts';
import { readTrace } from '../../../engine/trace/index.ts';
import { compilePipeline } from '../../../engine/compile/compilePipeline.ts';
import { replaySteps } from '../../../engine/replay/replaySteps.ts';
import { checkStep } from '../../../engine/replay/replayCheck.ts';
import { ev, handler, match, pipeline } from '../helpers.ts';

// Attacks on the approver [AP1]: nothing an approver does reaches what runs, and nothing it returns makes the
// runtime throw. Every one of these failed before (a throwing getter or a Proxy made emitAsync throw; a
// mutated request changed the payload that ran; a synchronous answer after the limit was obeyed).
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
// Bash needs approval; rm -rf is blocked outright (and a later handler would block it in the edited payload).
const DOC = pipeline(
  [
    ev('tools', 'tool.before_call'),
    match('bash', { 'payload.tool_name': 'Bash' }),
    match('rm', { 'payload.tool_input.command': { prefix: 'rm -rf' } }),
    handler('ask-bash', { type: 'ask', reason: 'run {{payload.tool_input.command}}?' }, { order: 10 }),
    handler('no-rm', { type: 'block', reason: 'no rm -rf' }, { order: 20 }),
  ],
  ['tools->bash', 'bash->ask-bash', 'tools->rm', 'rm->no-rm'],
);
const realTimers = { set: (ms: number, run: () => void) => setTimeout(run, ms), clear: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>) };

function setup(options: RuntimeOptions = {}) {
  const lines: string[] = [];
  const clock = { t: T0 };
  const r = createRuntime(DOC, { clock: { now: () => clock.t }, record: () => (line) => void lines.push(line), timers: realTimers, ...options });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { runtime: r.runtime, lines, clock };
}
const ls = { tool_name: 'Bash', tool_input: { command: 'ls' } };

/** Emits one ASK (sync and async) with this approver and returns both results. */
async function both(approver: Approver) {
  const s = setup({ approver }).runtime.startTrace();
  return [s.emit('tool.before_call', ls), await setup({ approver }).runtime.startTrace().emitAsync('tool.before_call', ls)];
}

describe('approver attacks [AP1]', () => {
  it('[AP1] an answer whose getter throws, a Proxy (throwing traps or not), an inherited answer, a class instance, extra fields: denied as invalid, never thrown', async () => {
    const getter = { get answer(): 'allow' { throw new Error('boom'); } };
    const benignGetter = { get answer(): 'allow' { return 'allow'; } };
    const throwingProxy = new Proxy({}, { get() { throw new Error('trap'); }, getOwnPropertyDescriptor() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } });
    const quietProxy = new Proxy({ answer: 'allow' }, {});
    class Answer { answer = 'allow' as const; }
    const inherited = Object.create({ answer: 'allow' }) as object;
    const cases: unknown[] = [getter, benignGetter, throwingProxy, quietProxy, new Answer(), inherited, { answer: 'allow', run: 'rm -rf /' }, { answer: 'allow', who: 42 }, ['allow'], 1, null, 'yes'];
    for (const [i, value] of cases.entries()) {
      for (const r of await both((() => value) as unknown as Approver)) {
        expect(r, `case ${i}`).toMatchObject({ decision: 'ask', blocked: true, approval: { answer: 'deny', by: 'invalid' } });
        expect(r.approval!.reason!.length).toBeGreaterThan(10);
      }
    }
    // An async approver that resolves to a Proxy: the Promise machinery reads its `then` first, and the trap's
    // throw rejects the promise, so it is the approver's failure.
    const late = await setup({ approver: (async () => throwingProxy) as unknown as Approver }).runtime.startTrace().emitAsync('tool.before_call', ls);
    expect(late).toMatchObject({ blocked: true, approval: { answer: 'deny', by: 'error' } });
    const quietLate = await setup({ approver: (async () => quietProxy) as unknown as Approver }).runtime.startTrace().emitAsync('tool.before_call', ls);
    expect(quietLate).toMatchObject({ blocked: true, approval: { answer: 'deny', by: 'invalid' } });
  });

  it('[AP1] the prototype is never read: a polluted Object.prototype.answer does not approve an empty answer', async () => {
    // The runtime is built first: a polluted prototype would break the pipeline's schema checks (zod) too.
    const trace = setup({ approver: (() => ({})) as unknown as Approver }).runtime.startTrace();
    const proto = Object.prototype as { answer?: unknown };
    proto.answer = 'allow';
    try {
      expect(trace.emit('tool.before_call', ls)).toMatchObject({ blocked: true, approval: { by: 'invalid' } });
      expect(readAnswer(JSON.parse('{"__proto__": {"answer": "allow"}}'))).toMatchObject({ answer: 'deny', by: 'invalid' });
    } finally {
      delete proto.answer;
    }
  });

  it('[AP1] a thenable whose then throws is an answer that cannot be read; a rejection with an unprintable error and a throw of a Proxy deny as errors', async () => {
    const badThen = { get then() { throw new Error('then trap'); } };
    for (const r of await both((() => badThen) as unknown as Approver)) expect(r).toMatchObject({ blocked: true, approval: { answer: 'deny', by: 'invalid' } });
    const unprintable = { get message(): string { throw new Error('no'); } };
    for (const approver of [async () => { throw unprintable; }, () => { throw new Proxy({}, { get() { throw new Error('x'); } }); }]) {
      const r = await setup({ approver: approver as unknown as Approver }).runtime.startTrace().emitAsync('tool.before_call', ls);
      expect(r).toMatchObject({ blocked: true, approval: { answer: 'deny', by: 'error' } });
    }
  });

  it('[AP1] the approver is shown a frozen copy: mutating it throws, and a mutation it swallows changes nothing that runs or is recorded', async () => {
    let shown: { payload: { tool_input: { command: string } } } | undefined;
    const mutating: Approver = (req) => {
      shown = req as never;
      (req.payload.tool_input as { command: string }).command = 'rm -rf /';
      return 'allow';
    };
    for (const r of await both(mutating)) expect(r).toMatchObject({ blocked: true, approval: { by: 'error' }, payload: ls });
    expect(Object.isFrozen(shown!.payload.tool_input)).toBe(true);

    const swallowing: Approver = (req) => {
      try {
        (req.payload.tool_input as { command: string }).command = 'rm -rf /';
      } catch { /* frozen */ }
      try {
        Object.setPrototypeOf(req.payload, { command: 'rm -rf /' });
      } catch { /* frozen */ }
      return { answer: 'allow', who: 'mallory' };
    };
    const { runtime, lines } = setup({ approver: swallowing });
    const trace = runtime.startTrace();
    const r = await trace.emitAsync('tool.before_call', ls);
    expect(r).toMatchObject({ blocked: false, payload: ls, approval: { answer: 'allow', by: 'approver', who: 'mallory' } });
    // The approval is of exactly the call shown: the guard runs the dispatched payload.
    const ran: unknown[] = [];
    expect(await trace.guardTool('Bash', { command: 'ls' }, (input) => ran.push(input), { approver: swallowing })).toMatchObject({ status: 'ok' });
    expect(ran).toEqual([{ command: 'ls' }]);
    await trace.flush();
    const read = readTrace(lines.join(''));
    expect(read.events[0]!.payload).toEqual(ls);
    expect(read.events[1]!.payload).toMatchObject(ls);
  });

  it('[AP1] a synchronous answer that arrives after the time limit is ignored, recorded as late, and the call denied', async () => {
    const { runtime, lines, clock } = setup({ approvalTimeoutMs: 1000 });
    const slow: Approver = () => {
      clock.t += 5000; // the person took 5 s on the runtime's clock
      return { answer: 'allow', who: 'alice' };
    };
    const trace = runtime.startTrace({ trace_id: 'late' });
    const r = trace.emit('tool.before_call', ls, { approver: slow });
    expect(r).toMatchObject({ decision: 'ask', blocked: true, approval: { answer: 'deny', by: 'late' } });
    expect(r.approval!.reason).toMatch(/answered "allow" after 5000 ms, past the limit of 1000 ms/);
    expect(approvalOutcome(r.approval!)).toBe('late');
    // In time, the same answer approves, with who and when.
    const quick = trace.emit('tool.before_call', ls, { approver: () => ({ answer: 'allow', who: 'alice' }) });
    expect(quick.approval).toEqual({ answer: 'allow', by: 'approver', who: 'alice', at: '2026-03-01T10:00:05.000Z' });
    expect(approvalText(quick.approval!)).toBe('ask → approved by alice at 2026-03-01T10:00:05.000Z');
    await trace.flush();
    const recorded = readTrace(lines.join('')).events.map((e) => e.recorded?.approval?.by);
    expect(recorded).toEqual(['late', 'approver']);
  });

  it('[AP1] an approver that never answers is denied at the time limit as unanswered; its answer after that is ignored', async () => {
    let answer!: (a: 'allow') => void;
    const { runtime } = setup({ approvalTimeoutMs: 20, approver: () => new Promise((resolve) => (answer = resolve)) });
    const trace = runtime.startTrace();
    const r = await trace.emitAsync('tool.before_call', ls);
    expect(r).toMatchObject({ blocked: true, approval: { answer: 'deny', by: 'timeout' } });
    expect(approvalOutcome(r.approval!)).toBe('unanswered');
    answer('allow');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(r.approval!.answer).toBe('deny');
  });

  it('[AP1] property: whatever an approver returns or throws, emit and emitAsync answer, and only a plain allow lets the action run', async () => {
    const anyValue = fc.oneof(
      fc.anything(),
      fc.constantFrom<unknown>('allow', 'deny', { answer: 'allow' }, { answer: 'deny', reason: 'r' }, { answer: 'allow', who: 'w' }),
      fc.record({ answer: fc.constantFrom('allow', 'deny', 'maybe'), reason: fc.anything() }, { requiredKeys: ['answer'] }),
    );
    await fc.assert(
      fc.asyncProperty(anyValue, fc.boolean(), fc.boolean(), async (value, throws, async) => {
        // An answer with an edit is dispatched again [AP2] (its own test): not this property's subject.
        fc.pre(!(typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, 'edit')));
        const approver = (() => {
          if (throws) throw value;
          return async ? Promise.resolve(value) : value;
        }) as unknown as Approver;
        const trace = setup({ approver }).runtime.startTrace();
        const r = await trace.emitAsync('tool.before_call', ls);
        const plainAllow = !throws && (value === 'allow' || (typeof value === 'object' && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value)) && (value as { answer?: unknown }).answer === 'allow' && Object.keys(value).every((k) => k === 'answer' || k === 'reason' || k === 'who') && ((value as { reason?: unknown }).reason === undefined || typeof (value as { reason?: unknown }).reason === 'string')));
        expect(r.blocked).toBe(!plainAllow);
        expect(r.payload).toEqual(ls);
      }),
      { numRuns: 150 },
    );
  });

  it('[AP2] approve with an edit: the call shown does not run; the edit goes through the pipeline again as its own recorded event, whose decision counts', async () => {
    const toRm: Approver = () => ({ answer: 'allow', who: 'mallory', edit: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } } });
    const { runtime, lines } = setup({ approver: toRm });
    const trace = runtime.startTrace({ trace_id: 'ed' });
    // The edit turns an approved ls into rm -rf: the pipeline blocks it, as if it had been asked for directly.
    const r = trace.emit('tool.before_call', ls);
    expect(r).toMatchObject({ decision: 'block_action', blocked: true, reason: 'no rm -rf', event_id: 'ed:1:edit', edit_of: 'ed:1', payload: { tool_input: { command: 'rm -rf /' } } });
    // An edit that asks again: the approver is shown the edited call; an edit of that edit is denied (answered once).
    let asked = 0;
    const twice: Approver = (req) => (++asked === 1 ? { answer: 'allow', edit: { tool_name: 'Bash', tool_input: { command: 'ls -la' } } } : (req.payload.tool_input as { command: string }).command === 'ls -la' ? 'allow' : 'deny');
    const ran: unknown[] = [];
    const g = await trace.guardTool('Bash', { command: 'ls' }, (input) => ran.push(input), { approver: twice, tool_use_id: 'g1' });
    expect([g.status, ran, asked]).toEqual(['ok', [{ command: 'ls -la' }], 2]);
    const loop = await trace.emitAsync('tool.before_call', ls, { approver: () => ({ answer: 'allow', edit: { tool_name: 'Bash', tool_input: { command: 'pwd' } } }) });
    expect(loop).toMatchObject({ decision: 'ask', blocked: true, approval: { answer: 'deny', by: 'invalid' }, edit_of: expect.any(String) });
    expect(loop.approval!.reason).toContain('an edit is answered once');
    await trace.flush();

    const read = readTrace(lines.join(''));
    expect(read.events.slice(0, 2).map((e) => [e.event_id, e.recorded?.decision, e.meta])).toEqual([['ed:1', 'ask', undefined], ['ed:1:edit', 'block_action', { edit_of: 'ed:1' }]]);
    expect(read.events[0]!.recorded!.approval).toMatchObject({ answer: 'allow', who: 'mallory', edit: { tool_input: { command: 'rm -rf /' } } });
    // Replay agrees with every recorded decision, the shown call counts as not run, and nothing is counterfactual.
    const c = compilePipeline(DOC);
    if (!c.ok) throw new Error('compile');
    const steps = [...replaySteps(c.compiled, read.events)];
    expect(steps.map(checkStep).filter(Boolean)).toEqual([]);
    expect(steps[0]).toMatchObject({ decision: 'ask', blocked: true, counterfactual: false });
    expect(approvalText(steps[0]!.approval!)).toContain('with an edit, dispatched again as its own event');
  });
});

