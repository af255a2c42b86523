import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, createReplayer, createSession, replayTrace, type CompiledPipeline, type JsonObject, type PipelineInput, type TraceEvent } from '../../../engine/index.ts';

// Random flow pipelines over a small vocabulary of tools, files and commands, so rules fire often; random
// traces of several interleaved sessions with re-delivered ids. No TERMINATE and no budgets: those are
// per file in replay [R4][R2], and these properties are about flow memory [F3]-[F6].

const TOOLS = ['Read', 'Bash', 'WebFetch', 'Edit'];
const ARGS = ['.env', 'a.ts', 'make', 'ls'];
const TYPES = ['tool.before_call', 'tool.after_call'];

const selectorArb = fc.record(
  { event: fc.constantFrom('tool.before_call', 'tool.after_call', 'tool.*'), when: fc.option(fc.record({ 'payload.tool_name': fc.record({ eq: fc.constantFrom(...TOOLS) }) }), { nil: undefined }) },
  { requiredKeys: ['event'] },
);

const flowArb = fc.record({
  rule: fc.constantFrom('sequence' as const, 'flag' as const, 'window' as const, 'precondition' as const),
  mark: selectorArb,
  clear: fc.option(selectorArb, { nil: undefined }),
  limit: fc.integer({ min: 1, max: 3 }),
  within_ms: fc.option(fc.integer({ min: 1_000, max: 8_000 }), { nil: undefined }),
  same: fc.option(fc.constant({ earlier: 'payload.arg', now: 'payload.arg' }), { nil: undefined }),
  decision: fc.constantFrom('block' as const, 'ask' as const),
  tool: fc.option(fc.constantFrom(...TOOLS), { nil: undefined }),
});

const pipelineArb = fc.array(flowArb, { minLength: 1, maxLength: 5 }).map((rules): PipelineInput => {
  const nodes: PipelineInput['nodes'] = [{ id: 'ev', kind: 'event', pattern: 'tool.before_call' }];
  const wires: PipelineInput['wires'] = [];
  rules.forEach((r, i) => {
    const { tool, limit, within_ms, ...rest } = r;
    const windowed = r.rule === 'window';
    nodes.push({ id: `f${i}`, kind: 'handler', name: `rule ${i}`, order: i, action: { type: 'flow', ...rest, ...(windowed ? { limit, within_ms: within_ms ?? 5_000 } : within_ms ? { within_ms } : {}) } });
    if (tool) {
      nodes.push({ id: `m${i}`, kind: 'matcher', when: { 'payload.tool_name': { eq: tool } } });
      wires.push({ from: 'ev', to: `m${i}` }, { from: `m${i}`, to: `f${i}` });
    } else wires.push({ from: 'ev', to: `f${i}` });
  });
  return { format: 'hookwire.pipeline', version: 1, name: 'flows', nodes, wires };
});

const T0 = Date.UTC(2026, 0, 1);

/** One session's events: ids `s<session>-<n>`, times one to three seconds apart. */
const sessionArb = (session: string) =>
  fc.array(fc.record({ type: fc.constantFrom(...TYPES), tool: fc.constantFrom(...TOOLS), arg: fc.constantFrom(...ARGS), gap: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 18 }).map((xs) => {
    let t = T0;
    return xs.map((x, n): TraceEvent => {
      t += x.gap * 1000;
      return { event_id: `${session}-${n}`, trace_id: session, agent_id: 'a', type: x.type, ts: new Date(t).toISOString(), payload: { tool_name: x.tool, arg: x.arg } as JsonObject };
    });
  });

/** Interleaves sessions in a random order that keeps each session's own order. */
function interleave(sessions: TraceEvent[][], picks: number[]): TraceEvent[] {
  const queues = sessions.map((s) => [...s]);
  const out: TraceEvent[] = [];
  let k = 0;
  while (queues.some((q) => q.length)) {
    const live = queues.filter((q) => q.length);
    out.push(live[(picks[k++ % picks.length] ?? 0) % live.length]!.shift()!);
  }
  return out;
}

const compiled = (doc: PipelineInput): CompiledPipeline => {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.compiled;
};

/** What a step decided, without step numbers (which depend on where the event sits in the file). */
const decided = (s: { decision: string; decided_by: string | null; blocked: boolean }) => `${s.decision}/${s.decided_by}/${s.blocked}`;

describe('flow rule properties', () => {
  it('the generators make rules fire and not fire', () => {
    let fired = 0;
    let quiet = 0;
    for (const [doc, events] of fc.sample(fc.tuple(pipelineArb, sessionArb('s')), { numRuns: 200, seed: 3 })) {
      for (const s of replayTrace(compiled(doc), events, { explain: false })) if (s.decided_by) fired++; else quiet++;
    }
    expect(fired).toBeGreaterThan(100);
    expect(quiet).toBeGreaterThan(300);
  });

  it('[F3][R9] jumping to any step gives what stepping there from the start gives, for any checkpoint spacing', () => {
    fc.assert(
      fc.property(pipelineArb, sessionArb('s'), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 5 }), (doc, events, jumps, K) => {
        const c = compiled(doc);
        const straight = replayTrace(c, events, { explain: false });
        const r = createReplayer(c, events, { checkpointEvery: K, cacheSize: 1 });
        for (const j of jumps) {
          const i = j % events.length;
          const got = r.step(i);
          expect(got.reason).toBe(straight[i]!.reason);
          expect(got.decision).toBe(straight[i]!.decision);
          expect(got.state_after.flows).toEqual(straight[i]!.state_after.flows);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('[F5] sessions interleaved in one file decide as each session alone', () => {
    fc.assert(
      fc.property(pipelineArb, sessionArb('A'), sessionArb('B'), sessionArb('C'), fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), (doc, a, b, cc, picks) => {
        const c = compiled(doc);
        const mixed = replayTrace(c, interleave([a, b, cc], picks), { explain: false });
        for (const alone of [a, b, cc]) {
          const own = replayTrace(c, alone, { explain: false }).map(decided);
          expect(mixed.filter((s) => s.event.trace_id === alone[0]!.trace_id).map(decided)).toEqual(own);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('[F6] re-delivering events (same ids) changes nothing for the others, in replay and in a live session', () => {
    fc.assert(
      fc.property(pipelineArb, sessionArb('s'), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 8 }), (doc, events, redeliveries) => {
        const c = compiled(doc);
        const once = replayTrace(c, events, { explain: false }).map(decided);
        const withRepeats = [...events];
        // Re-deliver event j right after position p (at or after its first delivery).
        for (const [j0, p0] of redeliveries) {
          const j = j0 % events.length;
          const first = withRepeats.findIndex((e) => e.event_id === events[j]!.event_id);
          const p = first + 1 + (p0 % (withRepeats.length - first));
          withRepeats.splice(p, 0, events[j]!);
        }
        const steps = replayTrace(c, withRepeats, { explain: false });
        expect(steps.filter((s) => !s.duplicate).map(decided)).toEqual(once);
        // A live session (the runtime's core) at the events' own times gives the same.
        let now = 0;
        const session = createSession(c, { clock: { now: () => now } });
        const live = withRepeats.map((e) => {
          now = Date.parse(e.ts);
          return session.dispatch(e);
        });
        expect(live.filter((r) => !r.duplicate).map((r) => `${r.decision}/${r.decided_by}/${r.decision === 'block_action'}`)).toEqual(
          steps.filter((s) => !s.duplicate).map((s) => `${s.decision}/${s.decided_by}/${s.decision === 'block_action'}`),
        );
      }),
      { numRuns: 150 },
    );
  });
});
