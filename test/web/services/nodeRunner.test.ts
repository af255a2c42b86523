import { describe, expect, it } from 'vitest';
import { compilePipeline, createReplayer, initialState, runNode, type CompiledPipeline } from '../../../engine/index.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { demoTrace } from '../../../web/demo/demoTrace.ts';
import { createAppStore } from '../../../web/store/appStore.ts';
import { createNodeRunner, readTyped, type RunOnStep } from '../../../web/services/nodeRunner.ts';
import { describeNodeRun } from '../../../web/canvas/describeNodeRun.ts';
import type { SampleChoice } from '../../../web/store/nodeRunSlice.ts';
import type { StoredTrace } from '../../../web/persistence/storedTrace.ts';
import type { StepDetail } from '../../../web/debugger/worker/protocol.ts';

const sample = (patch: Partial<SampleChoice> = {}): SampleChoice => ({ source: 'typed', type: 'tool.before_call', payloadText: '{"tool_name":"Bash"}', stateText: '{}', open: false, ...patch });

function demoCompiled(): CompiledPipeline {
  const compiled = compilePipeline(demoPipeline());
  if (!compiled.ok) throw new Error('demo does not load');
  return compiled.compiled;
}

/** The sandbox stand-in answers with the engine itself (the worker is the browser's; e2e runs the real one). */
const engineSandbox = (compiled: CompiledPipeline) => async () => ({
  runNode: async (_doc: unknown, id: string, event: Parameters<typeof runNode>[2], vars: Parameters<typeof initialState>[0]) =>
    ({ ok: true as const, run: runNode(compiled, id, event, initialState(vars), { clock: { now: () => 0 } })! }),
});

/** What the replay worker does for a step (replayWorker.ts runNode): the replay's step, its state before, its time. */
const engineOnStep = (compiled: CompiledPipeline, asked: number[]): RunOnStep => async (index, nodeId) => {
  const step = createReplayer(compiled, demoTrace().events).step(index);
  asked.push(index);
  const run = runNode(compiled, nodeId, step.event, step.state_before, { clock: { now: () => step.now } })!;
  return { outcome: { ok: true, run }, state: { index, vars: step.state_before.vars, flow_sessions: 0, same_version: true } };
};

const refuse: RunOnStep = async () => {
  throw new Error('no step should run here');
};

describe('the typed event a node runs on', () => {
  it('is an event with the typed type and payload, or a clear reason it is not', () => {
    expect(readTyped(sample())).toMatchObject({ ok: true, event: { type: 'tool.before_call', payload: { tool_name: 'Bash' } }, vars: {}, label: 'a typed tool.before_call' });
    expect(readTyped(sample({ payloadText: '{"a":' }))).toMatchObject({ ok: false, message: expect.stringContaining("payload is not valid JSON") });
    expect(readTyped(sample({ payloadText: '[1]' }))).toMatchObject({ ok: false, message: expect.stringContaining('must be a JSON object') });
    expect(readTyped(sample({ stateText: '7' }))).toMatchObject({ ok: false, message: expect.stringContaining('state must be a JSON object') });
    expect(readTyped(sample({ type: 'not a type' }))).toMatchObject({ ok: false, message: expect.stringContaining('is not an event type') });
    // `__proto__` in a payload is a name like any other [V8].
    const proto = readTyped(sample({ payloadText: '{"__proto__": {"x": 1}}' }));
    expect(proto.ok && Object.keys(proto.event.payload)).toEqual(['__proto__']);
  });
});

describe('the node runner', () => {
  it('[X7] puts the engine\'s answer for the open pipeline in the store; a bad sample is a failed run that says why', async () => {
    const store = createAppStore();
    store.getState().open('p1', demoPipeline(), 1);
    store.getState().setSample({ source: 'typed', payloadText: '{"tool_name":"Bash"}' });
    const runner = createNodeRunner(store, refuse, engineSandbox(demoCompiled()));
    await runner.run('m-dangerous-tools');
    const entry = store.getState().nodeRuns.get('m-dangerous-tools');
    expect(entry?.outcome && describeNodeRun(entry.outcome).headline).toBe('Matched');
    store.getState().setSample({ payloadText: 'nope' });
    await runner.run('m-dangerous-tools');
    expect(store.getState().nodeRuns.get('m-dangerous-tools')?.outcome).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
  });

  it('[X7] with a step shown in the debugger runs on that step with the replay\'s state before it, and records which state it used', async () => {
    const store = createAppStore();
    const s = () => store.getState();
    s().open('p1', demoPipeline(), 1);
    const compiled = demoCompiled();
    // The demo's token budget counts output tokens: by step 20 the replay's state has a total, a typed state has none.
    const replay = createReplayer(compiled, demoTrace().events);
    const index = demoTrace().events.findIndex((_e, i) => i > 5 && Object.keys(replay.step(i).state_before.vars).length > 0);
    expect(index).toBeGreaterThan(0);
    const trace = { id: 't1', name: 'Demo', event_count: demoTrace().events.length } as unknown as StoredTrace;
    s().traceOpened(trace);
    s().sessionStarted(0, { ok: true, handlers: [], warnings: [] });
    s().stepChosen(index);
    s().stepAnswered({ step: replay.step(index), why: [], flows: [] } as unknown as StepDetail);
    const asked: number[] = [];
    const runner = createNodeRunner(store, engineOnStep(compiled, asked), async () => {
      throw new Error('a step never runs in the page sandbox');
    });
    await runner.run('h-token-budget');
    expect(asked).toEqual([index]);
    const entry = s().nodeRuns.get('h-token-budget')!;
    expect(entry.sample).toBe(`step ${index + 1} · ${demoTrace().events[index]!.type}`);
    expect(entry.used).toEqual({ from: 'step', index, vars: replay.step(index).state_before.vars, flow_sessions: 0, same_version: true });
    // The typed event, chosen in the panel, runs in the sandbox with the typed state instead.
    s().setSample({ source: 'typed', stateText: '{"n": 1}' });
    const typed = createNodeRunner(store, refuse, engineSandbox(compiled));
    await typed.run('h-token-budget');
    expect(s().nodeRuns.get('h-token-budget')!.used).toEqual({ from: 'typed', vars: { n: 1 } });
    // With no trace open, 'step' has nothing to run on: the typed event runs.
    s().traceClosed();
    s().setSample({ source: 'step' });
    await typed.run('h-token-budget');
    expect(s().nodeRuns.get('h-token-budget')!.used).toMatchObject({ from: 'typed' });
  });
});
