import { describe, expect, it } from 'vitest';
import { compilePipeline, dispatch, initialState, type HookEvent, type JsonObject } from '../../../engine/index.ts';
import { block, ev, handler, match, pipeline } from '../helpers.ts';

// The candidate index's gather marks, per group, the handlers whose atoms hold and reads the candidates out
// at its end; these tests pin what the property tests (test/engine/dispatch/properties.test.ts) do not reach.

const event = (payload: JsonObject): HookEvent => ({ event_id: 'e', trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload });

describe('candidate index', () => {
  // Two indexed groups (a value and a bound), exact, so a candidate runs without its condition being tested.
  const doc = pipeline(
    [ev('e', 'tool.before_call'), match('m', { all: [{ 'payload.tool_name': { in: ['Bash', 'Write'] } }, { 'payload.cost': { gt: 50 } }] }), handler('h', block('expensive shell'))],
    ['e->m', 'm->h'],
  );
  const r = compilePipeline(doc, { scanUpTo: 0 });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const env = { clock: { now: () => 0 } };

  it('[X5] a gather cut short by a throwing payload getter leaves no mark behind for the next event', () => {
    // tool_name holds (group 0 is marked), then reading cost throws: the gather never reaches its read-out.
    const hostile = { tool_name: 'Bash' } as JsonObject;
    Object.defineProperty(hostile, 'cost', { enumerable: true, get: () => { throw new Error('no cost'); } });
    expect(() => dispatch(r.compiled, event(hostile), initialState(), env)).toThrow('no cost');
    // Only group 1 holds here: without clearing group 0's stale mark the handler would be a candidate, and
    // since its requirement is exact it would block without its condition being tested.
    expect(dispatch(r.compiled, event({ tool_name: 'Read', cost: 90 }), initialState(), env).decision).toBe('continue');
    expect(dispatch(r.compiled, event({ tool_name: 'Bash', cost: 90 }), initialState(), env).decision).toBe('block_action');
  });

  it('[X5] handlers past the 32nd slot are gathered (the read-out crosses words) and in execution order', () => {
    const nodes = [ev('e', 'tool.before_call')];
    const wires: string[] = [];
    for (let i = 0; i < 70; i++) {
      nodes.push(match(`m${i}`, { 'payload.n': { gte: i } }), handler(`h${i}`, { type: 'add_context', text: `h${i}` }, { order: i }));
      wires.push(`e->m${i}`, `m${i}->h${i}`);
    }
    const big = compilePipeline(pipeline(nodes, wires), { scanUpTo: 0 });
    if (!big.ok) throw new Error(JSON.stringify(big.problems));
    const out = dispatch(big.compiled, event({ n: 40 }), initialState(), env);
    expect(out.context).toEqual(Array.from({ length: 41 }, (_, i) => `h${i}`));
  });
});

describe('literal atoms at their place [C5][X5]', () => {
  const env = { clock: { now: () => 0 } };
  const stepsOf = (when: JsonObject) => {
    const r = compilePipeline(pipeline([ev('e', 'tool.before_call'), match('m', when), handler('h', { type: 'add_context', text: 'hit' })], ['e->m', 'm->h']), { scanUpTo: 0 });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return { compiled: r.compiled, step: r.compiled.plan('tool.before_call').steps[0]! };
  };

  it('[C5] a finite language anchored at the start, the end or nowhere, and prefix/suffix, are exact: an index hit is the verdict', () => {
    const cases: [JsonObject, string[], string[]][] = [
      [{ 'payload.cmd': { regex: '^(ls|cat|grep)' } }, ['ls -l', 'cat x', 'grep'], ['echo ls', 'xls', 'l', '']],
      [{ 'payload.cmd': { regex: '\\.(ts|js)$' } }, ['a.ts', '.js'], ['a.ts.bak', 'ts', 'a.tsx']],
      [{ 'payload.cmd': { regex: '^rm$|^sudo |curl|\\.sh$' } }, ['rm', 'sudo ls', 'a curl b', 'x.sh'], ['rm -rf', 'ls sudo ', 'cur', 'x.shx']],
      [{ 'payload.cmd': { prefix: 'git ' } }, ['git log'], ['a git ', 'git']],
      [{ 'payload.cmd': { suffix: '.pem' } }, ['k.pem'], ['k.pem ', 'pem']],
      [{ 'payload.cmd': { suffix: 'ſh' } }, ['baſh'], ['bash', 'ſ']],
    ];
    for (const [when, pass, fail] of cases) {
      const { compiled, step } = stepsOf(when);
      expect(step.exact, JSON.stringify(when)).toBe(true);
      for (const cmd of pass) expect(dispatch(compiled, event({ cmd }), initialState(), env).context, `${JSON.stringify(when)} on ${cmd}`).toEqual(['hit']);
      for (const cmd of [...fail, 7, null]) expect(dispatch(compiled, event({ cmd } as JsonObject), initialState(), env).context, `${JSON.stringify(when)} on ${cmd}`).toEqual([]);
    }
  });

  it('[X5] many literals on one path are found in one automaton pass, few with includes: the same handlers as evaluating each', () => {
    const words = ['git status', 'git log', 'curl', 'wget', 'rm -r', 'src/file', 'sudo', 'chmod'];
    const scans = new Set<boolean>();
    for (const count of [1, 2, 3, 8]) {
      const nodes = [ev('e', 'tool.before_call')];
      const wires: string[] = [];
      words.slice(0, count).forEach((w, i) => {
        nodes.push(match(`m${i}`, { 'payload.cmd': { regex: i % 2 ? `x?${w.replace(' ', ' +')}` : `(${w}|${w}!)` } }), handler(`h${i}`, { type: 'add_context', text: w }, { order: i }));
        wires.push(`e->m${i}`, `m${i}->h${i}`);
      });
      const indexed = compilePipeline(pipeline(nodes, wires), { scanUpTo: 0 });
      const scanned = compilePipeline(pipeline(nodes, wires), { scanUpTo: 100 });
      if (!indexed.ok || !scanned.ok) throw new Error('does not compile');
      const lits = indexed.compiled.plan('tool.before_call').index.literals[0]!;
      expect(lits.scan !== null, `${count} handlers`).toBe(lits.exact.length > 4);
      scans.add(lits.scan !== null);
      for (const cmd of ['git status && curl x', 'sudo rm  -r src/file1', 'wget; chmod 7 git log', 'nothing here', 'gi', 'src/fil']) {
        const want = dispatch(scanned.compiled, event({ cmd }), initialState(), env).context;
        expect(dispatch(indexed.compiled, event({ cmd }), initialState(), env).context, `${count}: ${cmd}`).toEqual(want);
      }
    }
    expect([...scans].sort()).toEqual([false, true]);
  });

  it('[C5] case-insensitive and multi-line languages, and required literals, only narrow: the regex is still evaluated', () => {
    for (const when of [{ 'payload.cmd': { regex: { pattern: '^(ls|cat)', flags: 'i' } } }, { 'payload.cmd': { regex: '(?m)^(ls|cat)' } }, { 'payload.cmd': { regex: 'rm\\s+-rf' } }]) {
      const { compiled, step } = stepsOf(when);
      expect(step.exact, JSON.stringify(when)).toBe(false);
      expect(compiled.plan('tool.before_call').index.literals.length, JSON.stringify(when)).toBe(1);
    }
    const { compiled } = stepsOf({ 'payload.cmd': { regex: '(?m)^(ls|cat)' } });
    expect(dispatch(compiled, event({ cmd: 'cd /\ncat x' }), initialState(), env).context).toEqual(['hit']);
    expect(dispatch(compiled, event({ cmd: 'cd /; cat x' }), initialState(), env).context).toEqual([]);
  });
});

describe('shared verdicts [M6]', () => {
  const env = { clock: { now: () => 0 } };
  it('[M6] matchers with the same conditions share one verdict per event, and differ when tools or agents differ', () => {
    // Four handlers behind matchers with the same `when`: two of them also restrict the tools, one the agents.
    const when = { 'payload.cmd': { regex: 'rm -[rf]+ ' } };
    const doc = pipeline(
      [
        ev('e', 'tool.before_call'),
        match('plain1', when), match('plain2', when), match('bash', when, { tools: ['Bash'] }), match('agent', when, { agents: ['ops'] }),
        handler('h1', { type: 'add_context', text: 'plain1' }, { order: 1 }), handler('h2', { type: 'add_context', text: 'plain2' }, { order: 2 }),
        handler('h3', { type: 'add_context', text: 'bash' }, { order: 3 }), handler('h4', { type: 'add_context', text: 'agent' }, { order: 4 }),
      ],
      ['e->plain1', 'e->plain2', 'e->bash', 'e->agent', 'plain1->h1', 'plain2->h2', 'bash->h3', 'agent->h4'],
    );
    for (const scanUpTo of [0, 8]) {
      const r = compilePipeline(doc, { scanUpTo });
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      const slot = (id: string) => r.compiled.verdictSlot[r.compiled.matchers.findIndex((m) => m.id === id)];
      expect(slot('plain1')).toBe(slot('plain2'));
      expect(new Set(['plain1', 'bash', 'agent'].map(slot)).size).toBe(3);
      const run = (tool: string, agent: string, cmd: string) =>
        dispatch(r.compiled, { ...event({ tool_name: tool, cmd }), agent_id: agent }, initialState(), env).context;
      expect(run('Shell', 'dev', 'rm -rf /tmp')).toEqual(['plain1', 'plain2']);
      expect(run('Bash', 'dev', 'rm -rf /tmp')).toEqual(['plain1', 'plain2', 'bash']);
      expect(run('Bash', 'ops', 'rm -rf /tmp')).toEqual(['plain1', 'plain2', 'bash', 'agent']);
      expect(run('Bash', 'ops', 'ls')).toEqual([]);
    }
  });
});
