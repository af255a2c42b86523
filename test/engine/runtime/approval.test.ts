import { describe, expect, it } from 'vitest';
import { createRuntime, type Approver, type RuntimeOptions } from '../../../engine/runtime/index.ts';
import { compilePipeline } from '../../../engine/compile/compilePipeline.ts';
import { replaySteps } from '../../../engine/replay/replaySteps.ts';
import { readTrace } from '../../../engine/trace/index.ts';
import { runGoldenTrace } from '../../../engine/runtime/goldenTest.ts';
import { ev, handler, match, pipeline } from '../helpers.ts';
import type { JsonObject } from '../../../engine/index.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
// Deploys need a person's approval; rm -rf is blocked; every tool call gets a note for the model.
const DOC = pipeline(
  [
    ev('tools', 'tool.before_call'),
    match('deploy', { 'payload.tool_name': 'Deploy' }),
    match('rm', { 'payload.tool_input.command': { prefix: 'rm -rf' } }),
    handler('ask-deploy', { type: 'ask', reason: 'deploy to {{payload.tool_input.env}}?' }, { order: 10 }),
    handler('no-rm', { type: 'block', reason: 'no rm -rf' }, { order: 20 }),
    handler('note', { type: 'add_context', text: 'prod is frozen on Fridays' }, { order: 30 }),
  ],
  ['tools->deploy', 'deploy->ask-deploy', 'tools->rm', 'rm->no-rm', 'tools->note'],
);

const realTimers = { set: (ms: number, run: () => void) => setTimeout(run, ms), clear: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>) };

function setup(options: RuntimeOptions = {}) {
  const lines: string[] = [];
  let t = T0;
  const r = createRuntime(DOC, { clock: { now: () => (t += 1000) }, record: () => (line) => void lines.push(line), ...options });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { runtime: r.runtime, lines };
}
const deploy = (env = 'prod') => ({ tool_name: 'Deploy', tool_input: { env } });

describe('the approver [P14]', () => {
  it('[P14] a synchronous approver answers: allow lets the action run, deny blocks it; both are in the result with the context', () => {
    const seen: unknown[] = [];
    const approver: Approver = (req) => {
      seen.push(req);
      return req.payload.tool_input && (req.payload.tool_input as { env: string }).env === 'prod' ? { answer: 'deny', reason: 'not on Friday' } : 'allow';
    };
    const { runtime } = setup({ approver });
    const trace = runtime.startTrace({ trace_id: 't' });
    const staging = trace.emit('tool.before_call', deploy('staging'));
    expect(staging).toMatchObject({ decision: 'ask', blocked: false, reason: 'deploy to staging?', approval: { answer: 'allow', by: 'approver', at: expect.any(String) }, context: ['prod is frozen on Fridays'] });
    const prod = trace.emit('tool.before_call', deploy('prod'));
    expect(prod).toMatchObject({ decision: 'ask', blocked: true, approval: { answer: 'deny', by: 'approver', reason: 'not on Friday', at: expect.any(String) } });
    expect(seen[0]).toEqual({ trace_id: 't', event_id: 't:1', event_type: 'tool.before_call', payload: deploy('staging'), reason: 'deploy to staging?', decided_by: 'ask-deploy', context: ['prod is frozen on Fridays'] });
    // Other decisions have no answer, and nobody is asked.
    expect(trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'ls' } })).toMatchObject({ decision: 'continue', approval: null, blocked: false });
    expect(seen).toHaveLength(2);
  });

  it('[P14] fail closed: no approver, a throw, a non-answer, an async approver in the synchronous emit → deny, saying why', () => {
    const cases: [Approver | undefined, string][] = [
      [undefined, 'no_approver'],
      [() => { throw new Error('pager down'); }, 'error'],
      [(() => 'yes') as unknown as Approver, 'invalid'],
      [(() => ({ answer: 'allow', reason: 7 })) as unknown as Approver, 'invalid'],
      [async () => 'allow' as const, 'async_in_sync_emit'],
    ];
    for (const [approver, by] of cases) {
      const trace = setup(approver ? { approver } : {}).runtime.startTrace();
      const r = trace.emit('tool.before_call', deploy());
      expect(r, by).toMatchObject({ decision: 'ask', blocked: true, approval: { answer: 'deny', by } });
      expect(r.approval!.reason!.length).toBeGreaterThan(10);
    }
  });

  it('[P14] emitAsync and guard wait for an async approver; a rejection denies; a timeout denies', async () => {
    const later: Approver = (req) => new Promise((resolve) => setTimeout(() => resolve((req.payload.tool_input as { env: string }).env === 'staging' ? 'allow' : 'deny'), 20));
    const { runtime } = setup({ approver: later, timers: realTimers });
    const trace = runtime.startTrace();
    expect(await trace.emitAsync('tool.before_call', deploy('staging'))).toMatchObject({ blocked: false, approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    let ran = 0;
    const denied = await trace.guardTool('Deploy', { env: 'prod' }, () => ++ran);
    expect(ran).toBe(0);
    expect(denied).toMatchObject({ status: 'blocked', decision: 'ask', approval: { answer: 'deny', by: 'approver', at: expect.any(String) } });
    if (denied.status === 'blocked') expect(denied.message).toMatch(/^Not approved: deploy to prod\? \(.*\) \(trace .*, event .*\)$|^Not approved: deploy to prod\? \(trace/);
    const ok = await trace.guardTool('Deploy', { env: 'staging' }, () => ++ran);
    expect([ok.status, ran]).toEqual(['ok', 1]);

    const rejecting = setup({ approver: async () => { throw new Error('offline'); }, timers: realTimers }).runtime.startTrace();
    expect(await rejecting.emitAsync('tool.before_call', deploy())).toMatchObject({ blocked: true, approval: { answer: 'deny', by: 'error', reason: 'the approver failed: offline' } });

    const silent = setup({ approver: () => new Promise(() => {}), approvalTimeoutMs: 30, timers: realTimers }).runtime.startTrace();
    expect(await silent.emitAsync('tool.before_call', deploy())).toMatchObject({ blocked: true, approval: { answer: 'deny', by: 'timeout' } });
    // The guard's own approver wins over the runtime's.
    const own = await setup({ approver: () => 'deny' }).runtime.startTrace().guardTool('Deploy', { env: 'prod' }, () => 'deployed', { approver: () => 'allow' });
    expect(own).toMatchObject({ status: 'ok', value: 'deployed' });
  });

  it('[P6][P14][O4] guard with an already dispatched before event: not emitted again; an answer that comes later lets the action run with the rewritten input, and the recording waits for it', async () => {
    const { runtime, lines } = setup();
    const trace = runtime.startTrace({ trace_id: 'late' });
    let answer!: (a: 'allow' | { answer: 'deny'; reason: string }) => void;
    const approver: Approver = () => new Promise((resolve) => (answer = resolve));
    const dispatched = trace.emitAsync('tool.before_call', deploy('prod'), { event_id: 'd1:before', approver });
    // A later event is dispatched while the ASK waits; its line waits behind the ASK's [P7].
    trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    await Promise.resolve();
    expect(lines).toHaveLength(1); // the header only
    const ran: unknown[] = [];
    const guarded = trace.guardTool('Deploy', { env: 'ignored' }, (input) => (ran.push(input), 'deployed'), { tool_use_id: 'd1', dispatched });
    answer('allow');
    const r = await guarded;
    expect(r).toMatchObject({ status: 'ok', value: 'deployed' });
    expect(ran).toEqual([{ env: 'prod' }]); // the dispatched payload, not the input handed to guardTool
    await trace.flush();
    const events = lines.slice(1).map((l) => JSON.parse(l) as { event_id: string; recorded: JsonObject });
    expect(events.map((e) => e.event_id)).toEqual(['d1:before', 'late:2', 'd1:after']);
    expect(events[0]!.recorded.approval).toEqual({ answer: 'allow', by: 'approver', at: expect.any(String) });

    const denied = trace.emitAsync('tool.before_call', deploy('staging'), { event_id: 'd2:before', approver });
    const blocked = trace.guardTool('Deploy', { env: 'staging' }, (input) => (ran.push(input), 'deployed'), { tool_use_id: 'd2', dispatched: denied });
    answer({ answer: 'deny', reason: 'not today' });
    expect(await blocked).toMatchObject({ status: 'blocked', stage: 'before', decision: 'ask', approval: { answer: 'deny', by: 'approver', reason: 'not today', at: expect.any(String) } });
    expect(ran).toHaveLength(1);
  });

  it('[P14][E5] a repeated event id reuses the first answer without asking again', () => {
    let asked = 0;
    const trace = setup({ approver: () => (++asked, 'allow') }).runtime.startTrace();
    const a = trace.emit('tool.before_call', deploy(), { event_id: 'x' });
    const b = trace.emit('tool.before_call', deploy(), { event_id: 'x' });
    expect([asked, a.approval, b.approval, b.duplicate]).toEqual([1, { answer: 'allow', by: 'approver', at: expect.any(String) }, { answer: 'allow', by: 'approver', at: expect.any(String) }, true]);
  });

  it('[P7][P14][R15] the recording holds each answer and the context in dispatch order; replaying it gives the same answers without asking', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const approver: Approver = async (req) => {
      await gate;
      return (req.payload.tool_input as { env: string }).env === 'prod' ? 'deny' : 'allow';
    };
    const { runtime, lines } = setup({ approver, timers: realTimers });
    const trace = runtime.startTrace({ trace_id: 'rec' });
    const pending = trace.emitAsync('tool.before_call', deploy('prod'));
    // Dispatched while the first waits: its line must wait too, so the file keeps dispatch order.
    trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const third = trace.emitAsync('tool.before_call', deploy('staging'));
    await new Promise((r) => setTimeout(r, 10));
    expect(lines.map((l) => JSON.parse(l).format ?? JSON.parse(l).event_id)).toEqual(['hookwire.trace']);
    release();
    await Promise.all([pending, third]);
    await trace.flush();
    const read = readTrace(lines.join(''));
    expect(read.status).toBe('ok');
    expect(read.events.map((e) => [e.event_id, e.recorded])).toEqual([
      ['rec:1', { decision: 'ask', reason: 'deploy to prod?', decided_by: 'ask-deploy', approval: { answer: 'deny', by: 'approver', at: expect.any(String) }, context: ['prod is frozen on Fridays'] }],
      // The block ends the chain before the note (order 30) runs.
      ['rec:2', { decision: 'block_action', reason: 'no rm -rf', decided_by: 'no-rm' }],
      ['rec:3', { decision: 'ask', reason: 'deploy to staging?', decided_by: 'ask-deploy', approval: { answer: 'allow', by: 'approver', at: expect.any(String) }, context: ['prod is frozen on Fridays'] }],
    ]);
    const c = compilePipeline(DOC);
    if (!c.ok) throw new Error('compile');
    const steps = [...replaySteps(c.compiled, read.events)];
    expect(steps.map((s) => [s.decision, s.approval?.answer ?? null, s.blocked, s.divergent, s.counterfactual])).toEqual([
      ['ask', 'deny', true, false, false],
      ['block_action', null, true, false, false],
      ['ask', 'allow', false, false, false],
    ]);
    // Golden tests check the answer and the context [P11].
    const expects: JsonObject[] = [{ decision: 'ask', approval: 'deny', context: ['prod is frozen on Fridays'] }, { decision: 'block_action' }, { decision: 'ask', approval: 'allow' }];
    const annotated: TraceEvent[] = read.events.map((e, i) => ({ ...e, meta: { expect: expects[i]! } }));
    const golden = runGoldenTrace(c.compiled, annotated);
    expect([golden.problems, golden.checks.map((k) => k.pass)]).toEqual([[], [true, true, true]]);
    const wrong = runGoldenTrace(c.compiled, annotated.map((e, i): TraceEvent => (i === 2 ? { ...e, meta: { expect: { decision: 'ask', approval: 'deny' } } } : e)));
    expect(wrong.checks[2]!.failures).toEqual(['approval: expected deny, got allow (approver)']);
  });

  it('[R15] a replayed ASK with no recorded answer is denied (fail closed) and says so', () => {
    const c = compilePipeline(DOC);
    if (!c.ok) throw new Error('compile');
    const [s] = [...replaySteps(c.compiled, [{ event_id: 'e', trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-03-01T10:00:00Z', payload: deploy() }])];
    expect(s).toMatchObject({ decision: 'ask', blocked: true, approval: { answer: 'deny', by: 'unrecorded' }, counterfactual: false });
  });
});

describe('ASK in diff and coverage [R12][R13]', () => {
  it('[R12][R13] a diff says which events now ask for approval; coverage counts the asking handler as deciding', async () => {
    const { diffPipelines } = await import('../../../engine/replay/diffPipelines.ts');
    const { createReplayer } = await import('../../../engine/replay/createReplayer.ts');
    const blocking = pipeline([ev('tools', 'tool.before_call'), match('deploy', { 'payload.tool_name': 'Deploy' }), handler('h', { type: 'block', reason: 'no deploys' })], ['tools->deploy', 'deploy->h']);
    const before = compilePipeline(blocking);
    const after = compilePipeline(DOC);
    if (!before.ok || !after.ok) throw new Error('compile');
    const events = [0, 1, 2].map((i) => ({ event_id: `e${i}`, trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: `2026-03-01T10:00:0${i}Z`, payload: i === 1 ? { tool_name: 'Bash', tool_input: { command: 'ls' } } : deploy() }));
    expect(diffPipelines(before.compiled, after.compiled, events).summary[0]).toBe('2 events blocked before now ask for approval');
    const coverage = createReplayer(after.compiled, events).coverage();
    expect(coverage.handlers.find((h) => h.handler_id === 'ask-deploy')).toMatchObject({ decided: 2 });
  });
});
