import { describe, expect, it } from 'vitest';
import { compilePipeline, createSession, replayTrace, type JsonObject, type PipelineInput, type TraceEvent } from '../../../engine/index.ts';
import { FLOW_LIMITS } from '../../../engine/model/flowTypes.ts';
import { dispatch } from '../../../engine/dispatch/dispatch.ts';
import { compileForNode } from '../../../engine/node/codegen/compileForNode.ts';
import { ev, handler, match, pipeline } from '../helpers.ts';
import { outcomes, te } from '../replay/helpers.ts';

type FlowIn = Extract<Extract<PipelineInput['nodes'][number], { kind: 'handler' }>['action'], { type: 'flow' }>;

/** A pipeline whose one flow rule decides `tool.before_call` events matching `when` (all of them when omitted). */
function flowPipeline(action: Omit<FlowIn, 'type'>, when?: JsonObject, name = 'rule'): PipelineInput {
  const nodes = [ev('e', 'tool.before_call'), handler('f', { type: 'flow', ...action }, { name })];
  if (!when) return pipeline(nodes, ['e->f']);
  return pipeline([...nodes, match('m', when)], ['e->m', 'm->f']);
}

function run(doc: PipelineInput, events: TraceEvent[]) {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return replayTrace(r.compiled, events, { explain: false });
}

const read = (id: string, file: string, extra = {}) => te(id, 'tool.before_call', { tool_name: 'Read', file_path: file }, extra);
const fetchUrl = (id: string, url = 'https://x.example') => te(id, 'tool.before_call', { tool_name: 'WebFetch', url }, {});
const bash = (id: string, command: string) => te(id, 'tool.before_call', { tool_name: 'Bash', command });
const result = (id: string, command: string, exit: number) => te(id, 'tool.after_call', { tool_name: 'Bash', command, exit_code: exit });

const secretRead = { event: 'tool.before_call', when: { 'payload.file_path': { suffix: '.env' } } };
const isFetch = { 'payload.tool_name': { eq: 'WebFetch' } };

describe('flow rules', () => {
  it('[F1][F7] sequence: an event matching A, later B → B decided, with the step that came before', () => {
    const steps = run(flowPipeline({ rule: 'sequence', mark: secretRead }, isFetch, 'no egress after a secret read'), [fetchUrl('e1'), read('e2', 'src/a.ts'), read('e3', '.env'), fetchUrl('e4')]);
    expect(outcomes(steps)).toBe('cccb');
    expect(steps[3]!.reason).toBe('no egress after a secret read — step 3 (tool.before_call Read `.env`) came before');
  });

  it('[F2] sequence with same: only a B whose value equals the earlier A’s', () => {
    const doc = flowPipeline({ rule: 'sequence', mark: { event: 'tool.after_call', when: { 'payload.exit_code': { ne: 0 } } }, same: { earlier: 'payload.command', now: 'payload.command' } });
    const steps = run(doc, [bash('e1', 'make'), result('e2', 'make', 2), bash('e3', 'ls'), bash('e4', 'make'), te('e5', 'tool.before_call', { tool_name: 'Bash' })]);
    expect(outcomes(steps)).toBe('cccbc');
    expect(steps[3]!.reason).toContain('step 2 (tool.after_call Bash `make`)');
  });

  it('[F1][F2] flag: set by a tool result, cleared by another event; [F7] decides only while set', () => {
    const doc = flowPipeline({ rule: 'flag', mark: { event: 'tool.after_call', when: { 'payload.tool_name': { eq: 'WebFetch' } } }, clear: { event: 'user.approved' }, decision: 'ask' }, { 'payload.tool_name': { eq: 'Bash' } });
    const steps = run(doc, [bash('e1', 'ls'), te('e2', 'tool.after_call', { tool_name: 'WebFetch', url: 'https://issue' }), bash('e3', 'ls'), te('e4', 'user.approved'), bash('e5', 'ls')]);
    expect(outcomes(steps)).toBe('ccacc');
    expect(steps[2]!.reason).toBe('rule — flag set by step 2 (tool.after_call WebFetch `https://issue`)');
  });

  it('[F7] window: at most N within T by event time; older marks leave the window', () => {
    const doc = flowPipeline({ rule: 'window', mark: { event: 'tool.before_call' }, limit: 2, within_ms: 10_000 });
    const steps = run(doc, [bash('e1', 'a'), bash('e2', 'b'), bash('e3', 'c'), bash('e11', 'd'), bash('e12', 'e'), bash('e13', 'f')]);
    // e3: 2 within 10 s → blocked (and not counted [F4]); e11: e1 left the window (10 s) → 1 → runs; e12: e2 gone … e11 → runs? e2 at 2s, e12 at 12s: gone → 1 (e11) → runs; e13: e11, e12 → blocked.
    expect(outcomes(steps)).toBe('ccbccb');
    expect(steps[5]!.reason).toBe('rule — 2 earlier within 10 s (limit 2): steps 4, 5');
  });

  it('[F7] precondition with reset: B only if C since the last D; the start counts as a reset', () => {
    const doc = flowPipeline(
      { rule: 'precondition', mark: { event: 'tool.after_call', when: { 'payload.command': { prefix: 'npm test' }, 'payload.exit_code': { eq: 0 } } }, clear: { event: 'tool.before_call', when: { 'payload.tool_name': { eq: 'Edit' } } } },
      { 'payload.command': { prefix: 'git push' } },
      'push only after green tests',
    );
    const edit = (id: string) => te(id, 'tool.before_call', { tool_name: 'Edit', file_path: 'a.ts' });
    const steps = run(doc, [bash('e1', 'git push'), result('e2', 'npm test', 0), bash('e3', 'git push'), edit('e4'), bash('e5', 'git push'), result('e6', 'npm test', 1), bash('e7', 'git push'), result('e8', 'npm test', 0), bash('e9', 'git push')]);
    expect(outcomes(steps)).toBe('bcccbcbcc');
    expect(steps[0]!.reason).toBe('push only after green tests — nothing matched `tool.after_call` since the session started');
    expect(steps[4]!.reason).toBe('push only after green tests — nothing matched `tool.after_call` since step 4 (tool.before_call Edit `a.ts`)');
  });

  it('[F4] a blocked event did not happen: a blocked read of .env does not set the flag', () => {
    const doc = pipeline(
      [ev('e', 'tool.before_call'), match('env', { 'payload.file_path': { suffix: '.env' } }), match('ci', { 'meta.ci': { eq: true } }), handler('deny', { type: 'block', reason: 'no secrets in CI' }, { order: 1 }), handler('f', { type: 'flow', rule: 'sequence', mark: secretRead }, { order: 2 }), match('net', isFetch)],
      ['e->env', 'env->ci', 'ci->deny', 'e->net', 'net->f'],
    );
    const steps = run(doc, [read('e1', '.env', { meta: { ci: true } }), fetchUrl('e2'), read('e3', '.env'), fetchUrl('e4')]);
    expect(outcomes(steps)).toBe('bccb');
    expect(steps[0]!.state_after.flows).toBeUndefined();
    expect(steps[2]!.state_after.flows!.get('t1')!.get('f')!.one!.last!.mark.step).toBe(2);
  });

  it('[F4] an ASK counts as having happened, whatever its answer', () => {
    const doc = pipeline(
      [ev('e', 'tool.before_call'), match('env', { 'payload.file_path': { suffix: '.env' } }), handler('ask', { type: 'ask', reason: 'read a secret?' }, { order: 1 }), handler('f', { type: 'flow', rule: 'sequence', mark: secretRead }, { order: 2 }), match('net', isFetch)],
      ['e->env', 'env->ask', 'e->net', 'net->f'],
    );
    const steps = run(doc, [read('e1', '.env'), fetchUrl('e2')]);
    expect(steps[0]!.blocked).toBe(true); // no recorded answer: denied [R15]
    expect(outcomes(steps)).toBe('ab');
  });

  it('[F6] re-delivery of an event id counts once', () => {
    const doc = flowPipeline({ rule: 'window', mark: { event: 'tool.before_call' }, limit: 2, within_ms: 60_000 });
    const steps = run(doc, [bash('e1', 'a'), bash('e1', 'a'), bash('e1', 'a'), bash('e2', 'b'), bash('e3', 'c')]);
    expect(outcomes(steps)).toBe('ccccb');
    expect(steps[4]!.reason).toContain('steps 1, 4');
  });

  it('[F5] interleaved sessions in one file never share memory', () => {
    const doc = flowPipeline({ rule: 'sequence', mark: secretRead }, isFetch);
    const steps = run(doc, [read('e1', '.env', { trace_id: 'A' }), { ...fetchUrl('e2'), trace_id: 'B' }, { ...fetchUrl('e3'), trace_id: 'A' }]);
    expect(outcomes(steps)).toBe('ccb');
  });

  it('[F3] an event never decides itself; the runtime session carries the memory like replay', () => {
    const doc = flowPipeline({ rule: 'window', mark: { event: 'tool.before_call' }, limit: 1, within_ms: 60_000 });
    const r = compilePipeline(doc);
    if (!r.ok) throw new Error('load');
    let t = Date.UTC(2026, 0, 1);
    const s = createSession(r.compiled, { clock: { now: () => t } });
    expect(s.dispatch(bash('x1', 'a')).decision).toBe('continue');
    t += 1000;
    expect(s.dispatch(bash('x2', 'a')).decision).toBe('block_action');
    t += 60_000;
    expect(s.dispatch(bash('x3', 'a')).decision).toBe('continue');
  });

  it('[F8] past the key limit a rule fails closed for the rest of the session and says so', () => {
    const doc = flowPipeline({ rule: 'sequence', mark: { event: 'tool.after_call' }, same: { earlier: 'payload.command', now: 'payload.command' } });
    const events: TraceEvent[] = [];
    for (let i = 0; i <= FLOW_LIMITS.keys; i++) events.push(result(`r${i}`, `cmd-${i}`, 1));
    events.push(bash('b1', 'never-seen'));
    const steps = run(doc, events);
    expect(steps.at(-1)!.outcome).toBe('block_action');
    expect(steps.at(-1)!.reason).toContain(`memory of the rule is full (${FLOW_LIMITS.keys} values; step ${FLOW_LIMITS.keys + 1}`);
    // One key less: the same event runs.
    expect(run(doc, [...events.slice(0, FLOW_LIMITS.keys), bash('b1', 'never-seen')]).at(-1)!.outcome).toBe('continue');
  });

  it('[F8] a window keeps only the marks it needs', () => {
    const doc = flowPipeline({ rule: 'window', mark: { event: 'tool.after_call' }, limit: 3, within_ms: 5_000 }, { 'payload.tool_name': { eq: 'Never' } });
    const events = Array.from({ length: 40 }, (_, i) => result(`r${i}`, 'x', 0));
    const last = run(doc, events).at(-1)!;
    const memo = last.state_after.flows!.get('t1')!.get('f')!;
    const cells: number[] = [];
    for (let c = memo.one!.last; c !== null; c = c.prev) cells.push(c.mark.step);
    // The newest three count; the list holds at most twice the limit (cut to the newest three when it passes six).
    expect(cells.slice(0, 3)).toEqual([39, 38, 37]);
    expect(cells.length).toBeLessThanOrEqual(6);
    expect(cells).toEqual(Array.from({ length: cells.length }, (_, i) => 39 - i));
  });

  it('[F7] a window counts only its newest limit marks, whatever older ones the list still holds', () => {
    // limit 2 within 10 s: marks at 0, 1, 2, 3 s; then marks at 20 s and 21 s; decided at 21.5 s counts 20 and 21.
    const doc = flowPipeline({ rule: 'window', mark: { event: 'tool.after_call' }, limit: 2, within_ms: 10_000 }, { 'payload.tool_name': { eq: 'Bash' } });
    const at = (e: TraceEvent, s: number): TraceEvent => ({ ...e, ts: new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString() });
    const events = [at(result('r0', 'x', 0), 0), at(result('r1', 'x', 0), 1), at(bash('b1', 'y'), 1.5), at(result('r2', 'x', 0), 20), at(bash('b2', 'y'), 20.5), at(result('r3', 'x', 0), 21), at(bash('b3', 'y'), 21.5), at(bash('b4', 'y'), 30.5)];
    const steps = run(doc, events);
    expect(outcomes(steps)).toBe('ccbcccbc');
    expect(steps[6]!.reason).toContain('2 earlier within 10 s (limit 2): steps 4, 6');
  });

  it('[F1][V5] bad flow rules are load problems with their paths', () => {
    const bad = (action: Omit<FlowIn, 'type'>) => {
      const r = compilePipeline(flowPipeline(action));
      return r.ok ? [] : r.problems.map((p) => `${p.code} ${p.path.join('.')}`);
    };
    expect(bad({ rule: 'window', mark: { event: 'tool.*' } })).toEqual(['bad_operand nodes.1.action.within_ms']);
    expect(bad({ rule: 'flag', mark: { event: 'tool.*' }, limit: 3 })).toEqual(['bad_operand nodes.1.action.limit']);
    expect(bad({ rule: 'flag', mark: { event: 'tool..x' } })).toEqual(['bad_pattern nodes.1.action.mark.event']);
    expect(bad({ rule: 'sequence', mark: { event: 'tool.*', when: { 'payload.x': { bogus: 1 } } } })[0]).toMatch(/^unknown_operator nodes\.1\.action\.mark\.when/);
    expect(bad({ rule: 'sequence', mark: { event: 'tool.*' }, same: { earlier: 'nope.x', now: 'payload.x' } })).toEqual(['bad_path nodes.1.action.same.earlier']);
  });

  it('[D10][F3] the generated-code dispatcher reads flow memory as the fast path does', () => {
    const r = compilePipeline(flowPipeline({ rule: 'flag', mark: secretRead, clear: { event: 'session.reset' } }, isFetch));
    if (!r.ok) throw new Error('load');
    const events = [read('e1', '.env'), fetchUrl('e2'), te('e3', 'session.reset'), fetchUrl('e4')];
    const steps = replayTrace(r.compiled, events, { explain: false });
    expect(outcomes(steps)).toBe('cbcc');
    const gen = compileForNode(r.compiled, { scanUpTo: 0 });
    for (const s of steps) {
      const env = { clock: { now: () => s.now } };
      const a = dispatch(r.compiled, s.event, s.state_before, env);
      const b = gen.dispatch(s.event, s.state_before, env);
      expect([b.decision, b.reason]).toEqual([a.decision, a.reason]);
      expect(a.decision).toBe(s.decision);
    }
  });
});
