// [X6] The readers of every event's explanation over a whole trace — activity and coverage [R13], telemetry
// [O1] — read the statuses from the record of the chain and build only the stories of the handlers that ran,
// never every handler's: here `explanation.handlers` throws when read, and they still give their answers,
// equal to those read from the complete explanation.
import { describe, expect, it } from 'vitest';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { compilePipeline, createSession, explainEvent, explainedHandler, handlerStatuses, HANDLER_STATUSES, initialState, writeEventSpan, type Explanation, type HookEvent, type PipelineInput } from '../../../engine/index.ts';
import { createActivityBuilder } from '../../../engine/replay/replayActivity.ts';
import { fixedClock } from '../helpers.ts';

const doc: PipelineInput = {
  format: 'hookwire.pipeline', version: 1, name: 'readers', nodes: [
    { id: 'e', kind: 'event', pattern: 'tool.before_call' },
    { id: 'f', kind: 'event', pattern: 'model.*' },
    { id: 'm1', kind: 'matcher', when: { 'payload.tool_name': 'bash' } },
    { id: 'm2', kind: 'matcher', when: { 'payload.cmd': { regex: '^rm ' } } },
    { id: 'a', kind: 'handler', name: 'audit bash', order: 0, action: { type: 'audit' } },
    { id: 'b', kind: 'handler', name: 'block rm', order: 1, action: { type: 'block', reason: 'no rm' } },
    { id: 'c', kind: 'handler', name: 'after', order: 2, action: { type: 'audit' } },
    { id: 'd', kind: 'handler', name: 'models', order: 3, action: { type: 'audit' } },
    { id: 'x', kind: 'handler', name: 'off', order: 4, enabled: false, action: { type: 'audit' } },
  ] as PipelineInput['nodes'],
  wires: [{ from: 'e', to: 'm1' }, { from: 'm1', to: 'a' }, { from: 'e', to: 'm2' }, { from: 'm2', to: 'b' }, { from: 'e', to: 'c' }, { from: 'f', to: 'd' }, { from: 'e', to: 'x' }],
};

const events: HookEvent[] = [
  { tool_name: 'bash', cmd: 'rm -rf /' },
  { tool_name: 'bash', cmd: 'ls' },
  { tool_name: 'read', cmd: 'cat' },
].map((payload, i) => ({ event_id: `e${i}`, trace_id: 't', agent_id: 'x', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload }));

/** The explanation with `handlers` unreadable: only statuses and the stories asked for one by one remain. */
function sealed(x: Explanation): Explanation {
  Object.defineProperty(x, 'handlers', { get: () => { throw new Error('every story was built'); }, enumerable: true, configurable: true });
  return x;
}

describe('readers of explanations over a trace', () => {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const compiled = r.compiled;
  const explain = (e: HookEvent) => explainEvent(compiled, e, initialState(), { clock: fixedClock(0) }).explanation;

  it('[X6][X1] statuses and one story come from the record, without the others', () => {
    const full = explain(events[0]!).handlers;
    const x = sealed(explain(events[0]!));
    expect([...handlerStatuses(x)].map((c) => HANDLER_STATUSES[c])).toEqual(['fired', 'fired', 'not_reached', 'wrong_event_type', 'disabled']);
    expect(full.map((h) => h.status)).toEqual(['fired', 'fired', 'not_reached', 'wrong_event_type', 'disabled']);
    expect(explainedHandler(x, 1)).toEqual(full[1]);
    expect(() => explainedHandler(x, 5)).toThrow(/no handler at rank 5/);
  });

  it('[X6][X1] equal statuses of events of one type are one array; a later event never changes an earlier one', () => {
    const [blocked, audited, quiet] = events.map(explain) as [Explanation, Explanation, Explanation];
    const again = explain(events[1]!);
    const names = (x: Explanation) => [...handlerStatuses(x)].map((c) => HANDLER_STATUSES[c]);
    // Read in turn, each after the next event was explained: the plan's scratch bytes were reused in between.
    expect(names(blocked)).toEqual(['fired', 'fired', 'not_reached', 'wrong_event_type', 'disabled']);
    expect(names(audited)).toEqual(['fired', 'not_matched', 'fired', 'wrong_event_type', 'disabled']);
    expect(names(quiet)).toEqual(['not_matched', 'not_matched', 'fired', 'wrong_event_type', 'disabled']);
    expect(handlerStatuses(again)).not.toBe(handlerStatuses(quiet));
    expect(names(again)).toEqual(names(audited));
    // A pattern given before (not only the last one) is that same array, for a plan of few handlers.
    expect(handlerStatuses(again)).toBe(handlerStatuses(audited));
    expect(handlerStatuses(explain(events[1]!))).toBe(handlerStatuses(again));
    expect(names(blocked)).toEqual(['fired', 'fired', 'not_reached', 'wrong_event_type', 'disabled']);
  });

  it('[X6][X1] past 18 handlers (statuses too many for one number) equal statuses in a row are one array, and right', () => {
    const nodes: PipelineInput['nodes'] = [{ id: 'e', kind: 'event', pattern: 'tool.before_call' }];
    const wires: PipelineInput['wires'] = [];
    for (let i = 0; i < 25; i++) {
      nodes.push({ id: `m${i}`, kind: 'matcher', when: { 'payload.n': { gte: i } } }, { id: `h${i}`, kind: 'handler', name: `h${i}`, order: i, action: { type: 'audit' } });
      wires.push({ from: 'e', to: `m${i}` }, { from: `m${i}`, to: `h${i}` });
    }
    const big = compilePipeline({ format: 'hookwire.pipeline', version: 1, name: 'big', nodes, wires });
    if (!big.ok) throw new Error(JSON.stringify(big.problems));
    const at = (n: number) => explainEvent(big.compiled, { ...events[0]!, payload: { n } }, initialState(), { clock: fixedClock(0) }).explanation;
    const [a, b, c, d] = [at(3), at(3), at(20), at(3)];
    const expected = (n: number) => Array.from({ length: 25 }, (_, i) => (i <= n ? 'fired' : 'not_matched'));
    for (const [x, n] of [[a, 3], [b, 3], [c, 20], [d, 3]] as const) expect([...handlerStatuses(x)].map((k) => HANDLER_STATUSES[k])).toEqual(expected(n));
    expect(handlerStatuses(b)).toBe(handlerStatuses(a));
    expect(handlerStatuses(c)).not.toBe(handlerStatuses(b));
  });

  it('[X6][R13] activity counts statuses and runs without building every story', () => {
    const open = createActivityBuilder(compiled, events.length);
    const shut = createActivityBuilder(compiled, events.length);
    events.forEach((e, i) => {
      open.record(i, structuredClone(explain(e)));
      shut.record(i, sealed(explain(e)));
    });
    expect(shut.snapshot()).toEqual(open.snapshot());
    // bash+rm: audit and block fired (the block ends the chain); bash+ls: both audits; read: the unconditional one.
    expect([...shut.snapshot().ran_handler]).toEqual([0, 1, 0, 2, 2]);
  });

  it('[X6][O1] telemetry writes one span event per handler that ran, building only their stories', () => {
    const spans = (seal: boolean) => {
      const exporter = new InMemorySpanExporter();
      const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
      const session = createSession(compiled, { clock: fixedClock(0) });
      events.forEach((e, i) => {
        const out = session.explain(e);
        writeEventSpan({ tracer }, { name: 'readers', version: 'v' }, e, out.result, seal ? sealed(out.explanation!) : out.explanation, i);
      });
      return exporter.getFinishedSpans().map((s) => s.events.filter((ev) => ev.name === 'hookwire.handler').map((ev) => ev.attributes));
    };
    const shut = spans(true);
    expect(shut).toEqual(spans(false));
    expect(shut.map((evs) => evs.map((a) => a!['hookwire.handler.id']))).toEqual([['a', 'b'], ['a', 'c'], ['c']]);
  });
});
