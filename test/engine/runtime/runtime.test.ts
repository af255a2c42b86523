import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime, type RuntimeOptions, type SinkFailure } from '../../../engine/runtime/index.ts';
import type { AuditRecord, JsonObject, RawLogRecord } from '../../../engine/index.ts';
import { block, ev, handler, match, pipeline } from '../helpers.ts';

const GUARD = JSON.parse(readFileSync(join(__dirname, '..', 'node', 'fixtures', 'guard.pipeline.json'), 'utf8'));
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

/** A clock that advances one second per reading, so every event has its own time. */
function steppingClock(start = T0) {
  let t = start - 1000;
  return { now: () => (t += 1000) };
}

function runtime(options: RuntimeOptions = {}) {
  const r = createRuntime(GUARD, { clock: steppingClock(), ...options });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.runtime;
}

describe('runtime loading', () => {
  it('[P1] a pipeline with errors is refused with every problem listed', () => {
    const bad = pipeline(
      [ev('e', 'tool.before_call'), match('m', { 'payload.x': { regex: '(' } }), handler('h', block()), handler('h', { type: 'nope' } as never)],
      ['e->m', 'm->h', 'e->ghost'],
    );
    const r = createRuntime(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const codes = r.problems.map((p) => p.code);
    expect(codes).toEqual(expect.arrayContaining(['duplicate_id', 'missing_node', 'schema']));
    expect(r.problems.every((p) => p.message.length > 0 && Array.isArray(p.path))).toBe(true);
  });

  it('[P1] text that is not JSON is refused with its line and column; code needs a sandbox', () => {
    const r = createRuntime('{"format": "hookwire.pipeline",\n  "version": 1,,}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]).toMatchObject({ code: 'not_json', message: expect.stringContaining('line 2') });
    const code = pipeline([ev('e', '*'), handler('c', { type: 'code', language: 'js', source: 'export default () => ({ decision: "continue" })' })], ['e->c']);
    const r2 = createRuntime(code);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.problems.map((p) => p.code)).toContain('no_sandbox');
  });

  it('[P1] warnings do not stop a load and are kept beside the runtime', () => {
    const doc = pipeline([ev('e', '*'), ev('lonely', 'tool.*'), handler('a', block())], ['e->a']);
    const r = createRuntime(doc);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.runtime.warnings.map((w) => w.code)).toContain('dangling_node');
  });
});

describe('emit', () => {
  it('[P3] returns {decision, blocked, reason, payload, trace_id} and stamps the event with the clock', () => {
    const raw: RawLogRecord[] = [];
    const trace = runtime({ sinks: { raw: (r) => void raw.push(r) } }).startTrace({ trace_id: 't1' });
    const input = { tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/x' } };
    const r = trace.emit('tool.before_call', input);
    expect(r).toMatchObject({ decision: 'block_action', blocked: true, reason: 'destructive command: rm -rf /tmp/x', trace_id: 't1', event_id: 't1:1', decided_by: 'block-rm', queued: false });
    expect(r.payload).toEqual(input);
    const ok = trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'deploy --token=s3cret' } }, { event_id: 'mine' });
    expect(ok).toMatchObject({ decision: 'continue', blocked: false, reason: '', event_id: 'mine' });
    expect(ok.payload).toEqual({ tool_name: 'Bash', tool_input: { command: 'deploy --token=[REDACTED]' } });
    return trace.flush().then(() => {
      expect(raw.map((x) => x.ts)).toEqual(['2026-03-01T10:00:01.000Z', '2026-03-01T10:00:02.000Z']);
    });
  });

  it('[P3] the caller\'s payload is copied as JSON, never changed; a payload that is not an object is a caller bug (TypeError)', () => {
    const trace = runtime().startTrace();
    const input = { tool_name: 'Bash', tool_input: { command: 'x --token=abc' }, skipped: undefined };
    const snapshot = JSON.stringify(input);
    trace.emit('tool.before_call', input as unknown as JsonObject);
    expect(JSON.stringify(input)).toBe(snapshot);
    const cyclic: Record<string, unknown> = { keep: 1, fn: () => 1 };
    cyclic.self = cyclic;
    expect(trace.emit('x.y', cyclic as JsonObject).payload).toEqual({ keep: 1 });
    expect(() => trace.emit('x.y', ['not', 'an', 'object'] as unknown as JsonObject)).toThrow(TypeError);
    expect(() => trace.emit('x.y', {}, { ts: 'yesterday' })).toThrow(/ISO 8601/);
  });

  it('[P3][E5] an event id seen before returns the first result and runs nothing again', () => {
    const trace = runtime().startTrace();
    const a = trace.emit('model.after_call', { usage: { output_tokens: 900 } }, { event_id: 'm1' });
    const b = trace.emit('model.after_call', { usage: { output_tokens: 900 } }, { event_id: 'm1' });
    expect(a.decision).toBe('continue');
    expect(b).toMatchObject({ decision: 'continue', duplicate: true });
    expect(trace.state).toEqual({ output_tokens: 900 });
  });

  it('[P5][E5] a repeated event id delivers its handler records once', async () => {
    const audits: JsonObject[] = [];
    const rt = runtime({ sinks: { handlerAudit: (a) => void audits.push(a) } });
    const trace = rt.startTrace();
    trace.emit('agent.end', { status: 'ok' }, { event_id: 'end' });
    trace.emit('agent.end', { status: 'ok' }, { event_id: 'end' });
    await rt.flush();
    expect(audits).toEqual([expect.objectContaining({ handler: 'Log the end', message: 'run ended: ok' })]);
  });

  it('[P8] after TERMINATE every later emit is blocked with the terminating reason', () => {
    const trace = runtime().startTrace();
    expect(trace.emit('model.after_call', { usage: { output_tokens: 1500 } })).toMatchObject({ decision: 'terminate', blocked: true });
    expect(trace.terminated?.reason).toBe('token budget exceeded: 1500 > 1000');
    expect(trace.emit('input.received', { prompt: 'hello' })).toMatchObject({ decision: 'terminate', blocked: true, reason: 'token budget exceeded: 1500 > 1000' });
  });

  it('[P2] traces are independent: state, ids and termination stay in their trace', () => {
    const rt = runtime();
    const a = rt.startTrace({ trace_id: 'a' });
    const b = rt.startTrace({ trace_id: 'b', state: { output_tokens: 950 } });
    a.emit('model.after_call', { usage: { output_tokens: 100 } });
    expect(b.emit('model.after_call', { usage: { output_tokens: 100 } }).decision).toBe('terminate');
    expect(a.emit('model.after_call', { usage: { output_tokens: 100 } }).decision).toBe('continue');
    expect(a.state).toEqual({ output_tokens: 200 });
  });
});

describe('sinks', () => {
  it('[P5] no sink is called during emit; records arrive later, in order', async () => {
    const audit: AuditRecord[] = [];
    const raw: string[] = [];
    const trace = runtime({ sinks: { audit: (a) => void audit.push(a), raw: (r) => void raw.push(r.event_id) } }).startTrace({ trace_id: 't' });
    trace.emit('input.received', { prompt: 'hi' });
    trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'rm -rf x' } });
    expect(audit).toEqual([]);
    expect(raw).toEqual([]);
    await trace.flush();
    expect(raw).toEqual(['t:1', 't:2']);
    expect(audit.map((a) => [a.event_type, a.decision, a.tool_name])).toEqual([
      ['input.received', 'continue', null],
      ['tool.before_call', 'block_action', 'Bash'],
    ]);
    expect(audit[1]).toMatchObject({ trace_id: 't', agent_id: 'agent', user_id: null, reason: 'destructive command: rm -rf x', timestamp: '2026-03-01T10:00:02.000Z' });
  });

  it('[P5] a slow sink does not delay emit and still gets its records one at a time, in order', async () => {
    const got: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = async (r: RawLogRecord) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      got.push(r.event_id);
      inFlight--;
    };
    const rt = runtime({ sinks: { raw: slow } });
    const trace = rt.startTrace({ trace_id: 's' });
    for (let i = 0; i < 5; i++) expect(trace.emit('input.received', { prompt: `p${i}` }).decision).toBe('continue');
    expect(got).toEqual([]);
    expect(rt.stats().pending).toBeGreaterThan(0);
    await rt.flush();
    expect(got).toEqual(['s:1', 's:2', 's:3', 's:4', 's:5']);
    expect(maxInFlight).toBe(1);
  });

  it('[P5] a sink that throws or rejects is reported and changes no decision; a full queue drops and counts', async () => {
    const failures: SinkFailure[] = [];
    const rt = runtime({
      maxPending: 2,
      onSinkError: (f) => void failures.push(f),
      sinks: { audit: () => Promise.reject(new Error('log server down')), raw: () => { throw new Error('disk full'); } },
    });
    const trace = rt.startTrace();
    const results = [1, 2, 3].map(() => trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }).decision);
    expect(results).toEqual(['block_action', 'block_action', 'block_action']);
    await rt.flush();
    expect(failures.filter((f) => f.kind === 'dropped').map((f) => f.sink).sort()).toEqual(['audit', 'raw']);
    expect(failures.filter((f) => f.kind === 'failed').map((f) => String((f.error as Error).message)).sort()).toEqual(['disk full', 'disk full', 'log server down', 'log server down']);
    expect(rt.stats()).toMatchObject({ dropped: 2, sinkFailures: 6 });
  });
});

describe('async events', () => {
  const asyncPipeline = pipeline(
    [
      ev('end', 'agent.end'),
      ev('err', 'agent.error'),
      ev('tool', 'tool.before_call'),
      handler('count-errors', { type: 'budget', key: 'errors', limit: 0, on_exceed: 'block', reason: 'an error was seen' }),
      handler('throws', { type: 'rewrite', ops: [{ op: 'set', path: 'payload.x', value: 1 }] }, { order: 50 }),
      handler('audit-end', { type: 'audit', message: 'end {{payload.status}}', fields: ['payload.status'] }),
      match('after-error', { 'state.errors': { gte: 1 } }),
      handler('refuse', block('refused after an error'), { order: 200 }),
    ],
    ['err->count-errors', 'end->audit-end', 'tool->after-error', 'after-error->refuse', 'end->throws'],
  );

  it('[P4][D7] an async event returns at once with CONTINUE, runs later, and its result goes to the async sink', async () => {
    const got: unknown[] = [];
    const audits: JsonObject[] = [];
    const r = createRuntime(asyncPipeline, { clock: steppingClock(), sinks: { async: (a) => void got.push(a), handlerAudit: (a) => void audits.push(a) } });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const trace = r.runtime.startTrace({ trace_id: 'q' });
    const res = trace.emit('agent.error', { error: 'boom' });
    expect(res).toMatchObject({ decision: 'continue', blocked: false, queued: true });
    expect(r.runtime.stats().pending).toBe(1);
    await trace.end({ status: 'failed' });
    expect(got).toEqual([
      expect.objectContaining({ event_id: 'q:1', event_type: 'agent.error', errors: [] }),
      expect.objectContaining({ event_id: 'q:2', event_type: 'agent.end', payload: { status: 'failed', x: 1 } }),
    ]);
    expect(audits).toEqual([expect.objectContaining({ handler: 'audit-end', message: 'end failed', fields: { 'payload.status': 'failed' } })]);
  });

  it('[P4] queued async events are dispatched before the next event of the trace, so state keeps emit order', () => {
    const r = createRuntime(asyncPipeline, { clock: steppingClock(), schedule: () => {} }); // never drains on its own
    if (!r.ok) throw new Error('load');
    const trace = r.runtime.startTrace();
    trace.emit('agent.error', { error: 'boom' });
    const next = trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: {} });
    expect(next).toMatchObject({ decision: 'block_action', reason: 'refused after an error' });
  });
});

describe('guard', () => {
  it('[P6] a blocked action is not called and the readable block result is returned', async () => {
    const trace = runtime().startTrace({ trace_id: 'g' });
    let called = false;
    const r = await trace.guardTool('Bash', { command: 'rm -rf /' }, () => {
      called = true;
      return 'deleted';
    });
    expect(called).toBe(false);
    expect(r).toEqual({
      status: 'blocked', stage: 'before', decision: 'block_action', reason: 'destructive command: rm -rf /', trace_id: 'g', event_id: 'g:1', decided_by: 'block-rm',
      message: 'Blocked by Hookwire: destructive command: rm -rf / (trace g, event g:1)',
    });
  });

  it('[P6] an allowed action gets the rewritten input, and a rewritten result replaces its value', async () => {
    const trace = runtime().startTrace({ trace_id: 'g' });
    let seen: JsonObject | null = null;
    const r = await trace.guardTool('Bash', { command: 'cat key --token=abc' }, async (input) => {
      seen = input;
      return 'KEY=sk-abcdefghijkl';
    }, { tool_use_id: 'u9' });
    expect(seen).toEqual({ command: 'cat key --token=[REDACTED]' });
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.value).toBe('KEY=[SECRET]');
    expect(r.rewritten).toBe(true);
    expect([r.before.event_id, r.after.event_id]).toEqual(['u9:before', 'u9:after']);
    const plain = await trace.guardTool('Read', { path: 'a' }, () => ({ bytes: 3 }));
    expect(plain).toMatchObject({ status: 'ok', value: { bytes: 3 }, rewritten: false });
  });

  it('[P6] a block on the after event withholds the result; an action that throws is recorded and rethrown', async () => {
    const doc = pipeline([ev('after', 'tool.after_call'), match('err', { 'payload.is_error': true }), handler('h', block('tool failed: {{payload.tool_response}}')), match('big', { 'payload.tool_response.size': { gt: 10 } }), handler('b', block('result too large'))], ['after->err', 'err->h', 'after->big', 'big->b']);
    const r = createRuntime(doc, { clock: steppingClock() });
    if (!r.ok) throw new Error('load');
    const records: string[] = [];
    const trace = r.runtime.startTrace({ trace_id: 'x', record: (line) => void records.push(line) });
    const withheld = await trace.guardTool('Fetch', {}, () => ({ size: 50 }));
    expect(withheld).toMatchObject({ status: 'blocked', stage: 'after', reason: 'result too large', event_id: 'x:2' });
    await expect(trace.guardTool('Fetch', {}, () => { throw new Error('network down'); })).rejects.toThrow('network down');
    await trace.flush();
    const last = JSON.parse(records.at(-1)!);
    expect(last).toMatchObject({ type: 'tool.after_call', payload: { tool_response: 'network down', is_error: true }, recorded: { decision: 'block_action', reason: 'tool failed: network down' } });
  });

  it('[P6][P8] after TERMINATE a guard returns the terminate result without calling the action', async () => {
    const trace = runtime().startTrace();
    trace.emit('model.after_call', { usage: { output_tokens: 5000 } });
    let called = false;
    const r = await trace.guardTool('Read', {}, () => (called = true));
    expect(called).toBe(false);
    expect(r).toMatchObject({ status: 'blocked', decision: 'terminate', message: expect.stringMatching(/^Run terminated by Hookwire: token budget exceeded/) });
  });
});
