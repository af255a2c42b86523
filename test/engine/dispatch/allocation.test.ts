import { describe, expect, it } from 'vitest';
import { compilePipeline, dispatch, initialState, type DispatchResult, type HookEvent, type JsonObject } from '../../../engine/index.ts';
import { audit, block, ev, handler, match, pipeline } from '../helpers.ts';

// The fast path allocates nothing for an event that neither rewrites, changes state, nor blocks, when the
// caller passes its own result object (`dispatch(…, into)`): audit records and texts for the model are written
// over the reused result's from its last event. Counted, not timed:
// the heap grows by what a batch allocates as long as no collection runs in between, and a batch of quiet
// events that allocated even one small object each would grow it by tens of bytes per event. Several
// batches, the median, so that one collection landing inside a batch cannot decide the answer.

const conditions: JsonObject[] = [
  { 'payload.tool_name': 'Bash' }, // eq
  { 'payload.tool_name': { in: ['Write', 'Edit', 'NotebookEdit'] } }, // in
  { 'payload.cost': { gt: 90.5 } }, // a numeric compare on a double field (a boxed read would allocate)
  { 'payload.args.flags.depth': { gte: 18 } }, // a three-key path
  { all: [{ 'payload.args.mode': 'write' }, { 'payload.tokens': { lt: 10 } }] }, // AND of two indexed clauses
  { any: [{ 'payload.cmd': { regex: '^(sudo|su) ' } }, { 'payload.tool_name': 'Admin' }] }, // literal-set regex
  { 'payload.cmd': { regex: '^rm -rf' } }, // anchored literal
  { 'payload.cmd': { prefix: 'git push' } },
  { not: { 'payload.args.mode': 'read' } }, // no index atom: evaluated for every event it sees
  { 'payload.user': { ne: 'nobody' }, 'payload.cost': { lte: 1.5 } },
];

function doc() {
  const nodes = [ev('tools', 'tool.*'), ev('before', 'tool.before_call'), ev('all', '*')];
  const wires: string[] = [];
  conditions.forEach((when, i) => {
    const action = i % 3 === 0 ? block(`no {{payload.tool_name}}`) : i === 5 ? { type: 'add_context' as const, text: 'careful: privileged command' } : audit();
    nodes.push(match(`m${i}`, when), handler(`h${i}`, action, { order: i }));
    wires.push(`${['tools', 'before', 'all'][i % 3]}->m${i}`, `m${i}->h${i}`);
  });
  return pipeline(nodes, wires);
}

function events(count: number): HookEvent[] {
  const tools = ['Read', 'Grep', 'Glob', 'Bash', 'Write'];
  const cmds = ['ls src', 'cat a.ts', 'sudo su', 'rm -rf /', 'git push', 'npm test'];
  return Array.from({ length: count }, (_, i) => ({
    event_id: `e${i}`, trace_id: 't', agent_id: 'a', type: i % 4 === 0 ? 'model.before_call' : 'tool.before_call', ts: '2026-01-01T00:00:00.000Z',
    payload: {
      tool_name: tools[i % 5]!, user: `u${i % 97}`, cmd: cmds[i % 6]!, cost: ((i * 37) % 1000) / 10 + 0.25, tokens: (i * 13) % 8000,
      args: { mode: i % 2 ? 'read' : 'write', flags: { depth: i % 20, force: false } },
    },
  }));
}

/**
 * Median bytes the heap grew by per call of `f`, over batches of `calls` calls cycling through `items`. The
 * heap's used size moves in steps of a page (256 kB), so a batch must span many pages to resolve a few bytes
 * per call; and stay below the young generation's size (16 MB and up), so that no collection runs inside.
 */
function bytesPerCall<T>(items: T[], calls: number, f: (x: T) => void): number {
  for (let k = 0; k < 20; k++) for (let i = 0; i < items.length; i++) f(items[i]!); // optimise first
  const per: number[] = [];
  for (let trial = 0; trial < 5; trial++) {
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < calls; i++) f(items[i % items.length]!);
    per.push((process.memoryUsage().heapUsed - before) / calls);
  }
  per.sort((a, b) => a - b);
  return per[2]!;
}

describe('fast path allocation', () => {
  const r = compilePipeline(doc());
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const c = r.compiled;
  const state = initialState();
  const env = { clock: { now: () => 1767225600000 } };
  const all = events(6000);
  const fresh = all.map((e) => dispatch(c, e, state, env));
  const quiet = all.filter((_, i) => fresh[i]!.decision === 'continue' && fresh[i]!.audit.length === 0 && fresh[i]!.payload === all[i]!.payload);
  const loud = all.filter((_, i) => fresh[i]!.audit.length > 0);
  // Audited (one record or several), maybe with a text for the model, and neither blocked nor rewritten.
  const audited = all.filter((_, i) => fresh[i]!.decision === 'continue' && fresh[i]!.audit.length > 0 && fresh[i]!.payload === all[i]!.payload);

  it('the workload has quiet events, audited ones and blocked ones', () => {
    expect(quiet.length).toBeGreaterThan(1000);
    expect(loud.length).toBeGreaterThan(500);
    expect(audited.length).toBeGreaterThan(500);
    expect(audited.some((e) => dispatch(c, e, state, env).audit.length >= 2)).toBe(true);
    expect(audited.some((e) => dispatch(c, e, state, env).context.length === 1)).toBe(true);
    expect(fresh.some((x) => x.decision === 'block_action')).toBe(true);
  });

  it('[X5] a result written into the caller\'s object equals a fresh result', () => {
    const into = dispatch(c, all[0]!, state, env);
    all.forEach((e, i) => {
      const out = dispatch(c, e, state, env, into);
      expect(out).toBe(into);
      expect({ ...out }).toEqual(fresh[i]);
      // Records written over the last event's are whole records of this one: the same fields in the same order.
      expect(JSON.stringify(out.audit)).toBe(JSON.stringify(fresh[i]!.audit));
    });
  });

  it('a reused result\'s arrays and records are the next event\'s; a fresh result\'s are its own', () => {
    const into = dispatch(c, audited[0]!, state, env);
    const kept = into.audit; // fresh: the caller may keep it
    const first = dispatch(c, audited[1]!, state, env, into).audit;
    expect(first).not.toBe(kept);
    const before = JSON.stringify(first);
    dispatch(c, audited[2]!, state, env, into);
    expect(into.audit).toBe(first); // the same array, written over
    expect(JSON.stringify(first)).toBe(JSON.stringify(fresh[all.indexOf(audited[2]!)]!.audit));
    expect(JSON.stringify(kept)).toBe(JSON.stringify(fresh[all.indexOf(audited[0]!)]!.audit));
    expect(before).toBe(JSON.stringify(fresh[all.indexOf(audited[1]!)]!.audit));
  });

  let kept: DispatchResult | null = null; // kept, so the optimiser cannot drop the allocation
  it('allocates nothing per quiet or audited event with a reused result, and the count does see allocation', () => {
    const into: DispatchResult = dispatch(c, quiet[0]!, state, env);
    const quietBytes = bytesPerCall(quiet, 100_000, (e) => dispatch(c, e, state, env, into));
    const auditedBytes = bytesPerCall(audited, 100_000, (e) => dispatch(c, e, state, env, into));
    // The same counter on audited events with fresh results (each makes its records): it must see them.
    const loudBytes = bytesPerCall(audited, 10_000, (e) => {
      kept = dispatch(c, e, state, env);
    });
    // And on quiet events without `into`: one result object each.
    const freshBytes = bytesPerCall(quiet, 50_000, (e) => {
      kept = dispatch(c, e, state, env);
    });
    expect(kept).not.toBeNull();
    expect(loudBytes).toBeGreaterThan(100);
    expect(freshBytes).toBeGreaterThan(40);
    expect(quietBytes).toBeLessThan(1);
    expect(auditedBytes).toBeLessThan(1);
  });
});

describe('fast path allocation, events of very different audit counts', () => {
  // 80 audit handlers, of which an event passes 10 or 80 (by its `tokens`): one reused list cut from 80 records
  // to 10 and grown again would lose and remake its backing store at every other event (V8 trims a list cut to
  // less than half its capacity). The result's lists are kept per length class instead (accel/exactLists.ts).
  const nodes = [ev('before', 'tool.before_call')];
  const wires: string[] = [];
  for (let i = 0; i < 80; i++) {
    nodes.push(match(`m${i}`, { 'payload.tokens': { gte: i < 10 ? 0 : 100 } }), handler(`h${i}`, audit(), { order: i }));
    wires.push(`before->m${i}`, `m${i}->h${i}`);
  }
  const r = compilePipeline(pipeline(nodes, wires));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const c = r.compiled;
  const state = initialState();
  const env = { clock: { now: () => 1767225600000 } };
  const all: HookEvent[] = Array.from({ length: 200 }, (_, i) => ({
    event_id: `e${i}`, trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: { tool_name: 'Bash', tokens: i % 2 ? 500 : 5 },
  }));
  const fresh = all.map((e) => dispatch(c, e, state, env));

  it('[X5] gives the fresh results, 10 and 80 records in turn', () => {
    expect(new Set(fresh.map((x) => x.audit.length))).toEqual(new Set([10, 80]));
    const into = dispatch(c, all[0]!, state, env);
    all.forEach((e, i) => {
      const out = dispatch(c, e, state, env, into);
      expect(out.audit.length).toBe(fresh[i]!.audit.length);
      expect(JSON.stringify(out.audit)).toBe(JSON.stringify(fresh[i]!.audit));
    });
  });

  it('allocates nothing per event with a reused result', () => {
    const into = dispatch(c, all[0]!, state, env);
    // A short batch: a list remade at every other event allocates ~650 bytes per event, and a batch long enough
    // to fill the young generation would be collected inside and read as nothing.
    expect(bytesPerCall(all, 4000, (e) => dispatch(c, e, state, env, into))).toBeLessThan(1);
  });
});
