import { describe, expect, it } from 'vitest';
import { compilePipeline, initialState, runNode } from '../../../engine/index.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { createAppStore } from '../../../web/store/appStore.ts';
import { createNodeRunner, readSample } from '../../../web/services/nodeRunner.ts';
import { describeNodeRun } from '../../../web/canvas/describeNodeRun.ts';
import type { SampleChoice } from '../../../web/store/nodeRunSlice.ts';

const sample = (patch: Partial<SampleChoice> = {}): SampleChoice => ({ type: 'tool.before_call', payloadText: '{"tool_name":"Bash"}', stateText: '{}', step: null, open: false, ...patch });

describe('the sample a node runs on', () => {
  it('is an event with the typed type and payload, or a clear reason it is not', () => {
    expect(readSample(sample())).toMatchObject({ ok: true, event: { type: 'tool.before_call', payload: { tool_name: 'Bash' } }, vars: {}, label: 'a sample tool.before_call' });
    expect(readSample(sample({ payloadText: '{"a":' }))).toMatchObject({ ok: false, message: expect.stringContaining("payload is not valid JSON") });
    expect(readSample(sample({ payloadText: '[1]' }))).toMatchObject({ ok: false, message: expect.stringContaining('must be a JSON object') });
    expect(readSample(sample({ stateText: '7' }))).toMatchObject({ ok: false, message: expect.stringContaining('state must be a JSON object') });
    expect(readSample(sample({ type: 'not a type' }))).toMatchObject({ ok: false, message: expect.stringContaining('is not an event type') });
    // `__proto__` in a payload is a name like any other [V8].
    const proto = readSample(sample({ payloadText: '{"__proto__": {"x": 1}}' }));
    expect(proto.ok && Object.keys(proto.event.payload)).toEqual(['__proto__']);
  });

  it('from a trace step keeps the step\'s event and says when it was edited', () => {
    const event = { event_id: 'e7', trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: { tool_name: 'Bash' } };
    expect(readSample(sample({ step: { index: 6, event } }))).toMatchObject({ ok: true, event: { event_id: 'e7' }, label: 'step 7 · tool.before_call' });
    expect(readSample(sample({ step: { index: 6, event }, payloadText: '{"tool_name":"Read"}' }))).toMatchObject({ ok: true, label: 'step 7 · tool.before_call (edited)' });
  });
});

describe('the node runner', () => {
  it('[X7] puts the engine\'s answer for the open pipeline in the store; a bad sample is a failed run that says why', async () => {
    const store = createAppStore();
    store.getState().open('p1', demoPipeline(), 1);
    const compiled = compilePipeline(demoPipeline());
    if (!compiled.ok) throw new Error('demo does not load');
    // The sandbox stand-in answers with the engine itself (the worker is the browser's; e2e runs the real one).
    const runner = createNodeRunner(store, async () => ({
      runNode: async (_doc, id, event, vars) => ({ ok: true, run: runNode(compiled.compiled, id, event, initialState(vars), { clock: { now: () => 0 } })! }),
    }));
    await runner.run('m-dangerous-tools');
    const entry = store.getState().nodeRuns.get('m-dangerous-tools');
    expect(entry?.outcome && describeNodeRun(entry.outcome).headline).toBe('Matched');
    store.getState().setSample({ payloadText: 'nope' });
    await runner.run('m-dangerous-tools');
    expect(store.getState().nodeRuns.get('m-dangerous-tools')?.outcome).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
  });
});
