// [V9] JSON nested past the limit is a problem that names the limit and the path at every entry point;
// below it, everything works. Each case here crashed with a RangeError before the limit existed.
import { describe, expect, it } from 'vitest';
import { compilePipeline, dispatch, initialState, loadPipeline, parsePipelineText } from '../../../engine/index.ts';
import { MAX_JSON_DEPTH } from '../../../engine/model/json.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { createRuntime } from '../../../engine/runtime/index.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { env, event } from '../helpers.ts';
import { hookwireInProcess, tempDir } from '../node/runCli.ts';
import { deepAllText, deepArrayText, deepNotText, deepObject, deepObjectText, eventLine, pipelineWithCondition, TRACE_HEADER } from './corpus.ts';
import { join } from 'node:path';

describe('[V9] pipeline documents', () => {
  it.each([
    ['all nested 700 deep', deepAllText(700)],
    ['not nested 10k deep', deepNotText(10_000)],
    ['an eq value 10k deep', `{"payload.x":{"eq":${deepObjectText(10_000)}}}`],
    ['an in list of arrays 10k deep', `{"payload.x":{"in":[${deepArrayText(10_000)}]}}`],
  ])('[V9] %s is a too_deep problem with its path, not a RangeError', (_, cond) => {
    const r = parsePipelineText(pipelineWithCondition(cond));
    expect(r.ok).toBe(false);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ code: 'too_deep', severity: 'error' });
    expect(r.problems[0]!.path.slice(0, 3)).toEqual(['nodes', 1, 'when']);
    expect(r.problems[0]!.message).toContain(`more than ${MAX_JSON_DEPTH} levels`);
    expect(compilePipeline(JSON.parse(pipelineWithCondition(cond))).ok).toBe(false);
  });

  it('[V9] below the limit a deeply nested condition loads and decides', () => {
    // Each `all` level is an object and an array: 60 levels are 120 JSON levels plus the envelope.
    const c = compilePipeline(JSON.parse(pipelineWithCondition(deepAllText(60))));
    if (!c.ok) throw new Error(JSON.stringify(c.problems));
    expect(dispatch(c.compiled, event('tool.before_call', { tool_name: 'Bash' }), initialState(), env()).decision).toBe('block_action');
    expect(dispatch(c.compiled, event('tool.before_call', { tool_name: 'Read' }), initialState(), env()).decision).toBe('continue');
    expect(loadPipeline(JSON.parse(pipelineWithCondition(deepNotText(100)))).ok).toBe(true);
  });

  it('[V9] createRuntime refuses a too-deep pipeline with problems and throws nothing', () => {
    const r = createRuntime(pipelineWithCondition(deepAllText(700)));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]?.code).toBe('too_deep');
  });

  it('[V9][P9] validate prints the problem and exits 1 (no internal error)', async () => {
    const dir = tempDir({ 'deep.json': pipelineWithCondition(deepAllText(700)) });
    const r = await hookwireInProcess(['validate', join(dir, 'deep.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('levels deep');
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('[V9] traces and imports', () => {
  it('[V9][T3] a trace line whose payload is 10k deep is dropped with too_deep; the other lines are kept', () => {
    const text = [TRACE_HEADER, eventLine('e1', '{"tool_name":"Bash"}'), eventLine('deep', deepObjectText(10_000)), eventLine('e3', deepObjectText(100))].join('\n') + '\n';
    const r = readTrace(text);
    expect(r.status).toBe('partial');
    expect(r.events.map((e) => e.event_id)).toEqual(['e1', 'e3']);
    expect(r.problems).toEqual([expect.objectContaining({ code: 'too_deep', line: 3 })]);
    expect(r.problems[0]!.message).toMatch(/^line 3: event\.payload\.a\.a.* is nested more than 128 levels deep/);
  });

  it('[V9][I1] imports: a deep Claude Code record is skipped, a deep OpenHands event skipped (the array streams), a deep document refused, never a throw', () => {
    const cc = [
      '{"type":"user","sessionId":"s","uuid":"u1","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"hi"}}',
      `{"type":"user","sessionId":"s","uuid":"u2","timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":${deepObjectText(10_000, '"x"')}}}`,
    ].join('\n');
    const a = importTrace(cc, { format: 'claude-code' });
    expect(a.problems).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'too_deep', line: 2 })]));
    const b = importTrace(`[{"id":1,"source":"user","action":"message","args":${deepObjectText(10_000)}},\n{"id":2,"source":"user","action":"message","args":{"content":"hi"}}]`, { format: 'openhands' });
    expect(b.problems).toEqual([expect.objectContaining({ code: 'too_deep', line: 1 })]);
    expect(b.trace?.events.map((e) => e.type)).toEqual(['agent.start', 'input.received', 'agent.end']);
    const c = importTrace(`{"trajectory":[{"id":1,"source":"user","action":"message","args":${deepObjectText(10_000)}}]}`, { format: 'openhands' });
    expect(c.trace).toBeNull();
    expect(c.problems[0]).toMatchObject({ code: 'too_deep' });
  });

  it('[V9][P9] replay --json of a trace with a 10k-deep line prints the others and exits 1', async () => {
    const pipe = pipelineWithCondition('{"payload.tool_name":"Bash"}');
    const trace = [TRACE_HEADER, eventLine('e1', '{"tool_name":"Bash"}'), eventLine('deep', deepObjectText(10_000))].join('\n') + '\n';
    const dir = tempDir({ 'p.json': pipe, 't.jsonl': trace });
    const r = await hookwireInProcess(['replay', '--json', join(dir, 'p.json'), join(dir, 't.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).decision)).toEqual(['block_action']);
    expect(r.stderr).toContain('levels deep');
  });
});

describe('[V9][P3] runtime emit', () => {
  const rt = () => {
    const r = createRuntime(pipelineWithCondition('{"payload.tool_name":"Bash"}'));
    if (!r.ok) throw new Error('no runtime');
    return r.runtime.startTrace();
  };

  it('[V9][P3] a payload 10k deep is refused with a problem naming the limit and the path, failing closed', () => {
    const t = rt();
    const r = t.emit('tool.before_call', deepObject(10_000));
    expect(r).toMatchObject({ decision: 'block_action', blocked: true, problem: { code: 'too_deep', limit: 'depth' } });
    expect(r.reason).toMatch(/payload\.a\.a.*more than 128 levels deep/);
    expect(t.emit('tool.before_call', { tool_name: 'Bash', x: deepObject(100) }).decision).toBe('block_action');
  });

  it('[P3] a timestamp without a zone is refused: it needs a time zone', () => {
    const t = rt();
    expect(() => t.emit('tool.before_call', { tool_name: 'Bash' }, { ts: '2026-03-01T10:00:00' })).toThrow(/needs a time zone/);
    expect(t.emit('tool.before_call', { tool_name: 'Bash' }, { ts: '2026-03-01T10:00:00+01:00' }).decision).toBe('block_action');
  });
});

describe('[V9][S9] the sandbox boundary', () => {
  it('[V9] a 20k-deep input is refused before QuickJS; the sandbox is not restarted and runs the next call', async () => {
    const sb = await createNodeSandbox();
    const compiled = sb.compile('export default (ctx) => ({ decision: "block_action", reason: String(ctx.payload.n) })', { language: 'js', role: 'handler', name: 'h', limits: { timeoutMs: 1000, memoryBytes: 32 << 20 } });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const limits = { timeoutMs: 1000, memoryBytes: 32 << 20 };
    const deep = sb.call(compiled.program, { payload: deepObject(20_000) }, limits);
    expect(deep.ok).toBe(false);
    if (!deep.ok) expect(deep.error.message).toMatch(/levels deep/);
    const next = sb.call(compiled.program, { payload: { n: 7 } }, limits);
    expect(next).toMatchObject({ ok: true, value: { decision: 'block_action', reason: '7' } });
    expect(sb.stats().runtimes).toBe(1);
    sb.dispose();
  });
});

describe('[V3] long wire chains', () => {
  it('[V3][M2] a chain of 5000 matchers loads, lints and dispatches (graph walks use explicit stacks)', () => {
    const nodes: unknown[] = [{ id: 'e', kind: 'event', pattern: '*' }];
    const wires: { from: string; to: string }[] = [];
    let prev = 'e';
    for (let i = 0; i < 5000; i++) {
      nodes.push({ id: `m${i}`, kind: 'matcher', when: { 'payload.x': 1 } });
      wires.push({ from: prev, to: `m${i}` });
      prev = `m${i}`;
    }
    nodes.push({ id: 'h', kind: 'handler', name: 'h', action: { type: 'block', reason: 'r' } });
    wires.push({ from: prev, to: 'h' });
    const doc = { format: 'hookwire.pipeline', version: 1, name: 'chain', nodes, wires };
    expect(loadPipeline(doc)).toMatchObject({ ok: true, problems: [] });
    const c = compilePipeline(doc);
    if (!c.ok) throw new Error(JSON.stringify(c.problems));
    expect(dispatch(c.compiled, event('x', { x: 1 }), initialState(), env()).decision).toBe('block_action');
  });
});
