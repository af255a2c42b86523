// `hookwire serve` tested as users run it: the real binary, real HTTP on loopback, real parallel calls.
import { describe, expect, it } from 'vitest';
import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compilePipeline } from '../../../../engine/compile/compilePipeline.ts';
import { replayTrace } from '../../../../engine/replay/replaySteps.ts';
import { parseMetrics } from '../../../../engine/node/serve/metrics.ts';
import { readTrace } from '../../../../engine/trace/index.ts';
import { AGENT_IDS } from '../../../../engine/agents/types.ts';
import { budgetPipeline, call, claudeHook, preToolUse, recordingsIn, serverPool, verdict, workDir } from './serveHelpers.ts';

const { serve } = serverPool();

/** Every recording in the state dir, read back and replayed offline with the pipeline text. */
function replayRecordings(stateDir: string, pipelineText: string) {
  const compiled = compilePipeline(JSON.parse(pipelineText));
  if (!compiled.ok) throw new Error('pipeline refused');
  const out = new Map<string, { recorded: string[]; replayed: string[] }>();
  for (const name of recordingsIn(join(stateDir, 'sessions'))) {
    const read = readTrace(readFileSync(join(stateDir, 'sessions', name), 'utf8'));
    expect(read.status, name).toBe('ok');
    const steps = replayTrace(compiled.compiled, read.events, { explain: false });
    out.set(read.header!.trace_id, { recorded: read.events.map((e) => e.recorded!.decision), replayed: steps.map((s) => s.decision) });
  }
  return out;
}

const claude = claudeHook;

describe('hookwire serve: exact state under parallel calls', { timeout: 120_000 }, () => {
  it('[P15] 32 parallel PreToolUse calls in one session against a budget of 10: exactly 10 pass, and the recording replays to the same decisions', async () => {
    const pipeline = budgetPipeline(10);
    const dir = workDir({ 'p.json': pipeline });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const replies = await Promise.all(Array.from({ length: 32 }, (_, i) => claude(s, preToolUse('one', `tu${i}`))));
    const verdicts = replies.map(verdict);
    expect(verdicts.filter((v) => v === 'allow')).toHaveLength(10);
    expect(verdicts.filter((v) => v === 'deny')).toHaveLength(22);
    const r = replayRecordings(join(dir, 'state'), pipeline).get('one')!;
    expect(r.recorded).toHaveLength(32);
    expect(r.replayed).toEqual(r.recorded);
    // Same tool_use_id again is the same call: its first answer, no new count [E5].
    const again = await claude(s, preToolUse('one', 'tu0'));
    expect(verdict(again)).toBe(verdicts[0]);
  });

  it('[P15] 50 concurrent sessions × 8 parallel calls with a budget of 3: exactly 3 pass in every session; parallel non-tool events get distinct ids', async () => {
    const pipeline = budgetPipeline(3);
    const dir = workDir({ 'p.json': pipeline });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const sessions = Array.from({ length: 50 }, (_, i) => `s${i}`);
    const calls = sessions.flatMap((id) => Array.from({ length: 8 }, (_, k) => ({ id, input: preToolUse(id, `${id}-t${k}`) })));
    // Two parallel prompts per session: without a serial queue they would share an id and count once.
    const prompts = sessions.flatMap((id) => [1, 2].map(() => ({ id, input: { session_id: id, hook_event_name: 'UserPromptSubmit', prompt: 'hello' } })));
    const all = [...calls, ...prompts].sort(() => Math.random() - 0.5);
    const replies = await Promise.all(all.map((c) => claude(s, c.input).then((r) => ({ id: c.id, tool: 'tool_name' in c.input, v: verdict(r) }))));
    for (const id of sessions) {
      const mine = replies.filter((r) => r.id === id && r.tool);
      expect(mine.filter((r) => r.v === 'allow'), id).toHaveLength(3);
    }
    const replayed = replayRecordings(join(dir, 'state'), pipeline);
    expect(replayed.size).toBe(50);
    for (const [id, r] of replayed) expect(r.replayed, id).toEqual(r.recorded);
    const one = readTrace(readFileSync(join(dir, 'state', 'sessions', recordingsIn(join(dir, 'state', 'sessions'))[0]!), 'utf8'));
    const promptIds = one.events.filter((e) => e.type === 'input.received').map((e) => e.event_id);
    expect(new Set(promptIds).size).toBe(2);
    const m = parseMetrics((await call(s, 'GET', '/metrics')).body);
    expect(m.get('hookwire_decisions_total{decision="continue"}')! + m.get('hookwire_decisions_total{decision="block_action"}')!).toBe(500);
    expect(m.get('hookwire_decision_latency_seconds_count')).toBe(500);
    expect(m.get('hookwire_requests_total{route="claude_hook",code="200"}')).toBe(500);
  });

  it('[P15][P8] the JSON API: start, emit, end; TERMINATE ends the trace for every later event; end closes it', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(100) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'py-1', agent_id: 'my-agent' })).status).toBe(201);
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'py-1' })).json()).toEqual({ trace_id: 'py-1', created: false });
    const emit = (payload: object) => call(s, 'POST', '/v1/traces/py-1/events', { type: 'tool.before_call', payload });
    // [V9][V12] a payload 10k deep (60 KB, under the body limit) is refused with the limit and the path, nothing dispatched.
    let deep: object = { leaf: 1 };
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const refused = await emit({ tool_name: 'Bash', tool_input: deep });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/input refused: payload\.tool_input\.a\.a.*more than 128 levels deep/);
    const a = (await emit({ tool_name: 'Bash', tool_input: { command: 'npm publish --token=abc' } })).json();
    expect(a).toMatchObject({ decision: 'continue', blocked: false, event_id: 'py-1:1', payload: { tool_input: { command: 'npm publish --token=[REDACTED]' } } });
    const [halt, after] = await Promise.all([emit({ tool_name: 'Bash', tool_input: { command: 'halt' } }), emit({ tool_name: 'Bash', tool_input: { command: 'ls' } })]);
    expect(halt.json()).toMatchObject({ decision: 'terminate', blocked: true, reason: 'halted', decided_by: 'stop-run' });
    expect(after.json()).toMatchObject({ decision: 'terminate', blocked: true });
    expect((await call(s, 'POST', '/v1/traces/py-1/end', {})).status).toBe(200);
    const late = await emit({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(late.status).toBe(409);
    expect((await call(s, 'POST', '/v1/traces/nope/events', { type: 'x.y', payload: {} })).status).toBe(404);
    const rec = await call(s, 'GET', '/v1/traces/py-1/recording');
    expect(readTrace(rec.body).events.map((e) => e.recorded?.decision)).toEqual(['continue', 'terminate', 'terminate', 'terminate']);
  });
});

describe('hookwire serve: the gate (token, Host, Origin, size) refuses with a reason and changes nothing', { timeout: 60_000 }, () => {
  it('[P16] 401 without or with a wrong token; 421 for a foreign Host; 403 for a foreign Origin; past the gate a bad Claude Code body (too large, not JSON, missing fields) is the fail-closed 200', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(3) });
    const state = join(dir, 'state');
    const s = await serve(join(dir, 'p.json'), state, ['--max-body', '4096', '--allow-origin', 'http://127.0.0.1:4173']);
    expect(statSync(join(state, 'token')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(state, 'token'), 'utf8').trim()).toBe(s.token);
    const input = preToolUse('gate', 't1');
    const refusals: [string, Record<string, string | undefined>, unknown, number, RegExp][] = [
      ['no token', { authorization: undefined }, input, 401, /bearer token/],
      ['wrong token', { authorization: `Bearer ${s.token.slice(0, -2)}xx` }, input, 401, /bearer token/],
      ['rebinding Host', { host: `evil.example:${s.port}` }, input, 421, /not this server/],
      ['foreign Origin', { origin: 'http://evil.example' }, input, 403, /Origin http:\/\/evil.example is not allowed/],
    ];
    for (const [what, headers, body, status, reason] of refusals) {
      const r = await call(s, 'POST', '/v1/claude/hook', body, headers);
      expect(r.status, what).toBe(status);
      expect(r.json().error, what).toMatch(reason);
    }
    // A non-2xx would be a non-blocking error to Claude Code (the tool would run), so these answer 200 and stop.
    const closed: [string, Record<string, string | undefined>, unknown, RegExp][] = [
      ['too large', {}, { ...input, tool_input: { command: 'x'.repeat(5000) } }, /limit of 4096/],
      ['not JSON type', { 'content-type': 'text/plain' }, input, /Content-Type: application\/json/],
      ['not JSON', {}, '{"session_id": "gate", ', /not JSON/],
      ['missing fields', {}, { session_id: 'gate', hook_event_name: 'PreToolUse' }, /tool_name is missing/],
    ];
    for (const [what, headers, body, reason] of closed) {
      const r = await call(s, 'POST', '/v1/claude/hook', body, headers);
      expect(r.status, what).toBe(200);
      expect(verdict(r), what).toBe('stop');
      expect(r.body, what).toMatch(reason);
    }
    // The JSON API keeps its status codes: its callers are programs that read them.
    expect((await call(s, 'POST', '/v1/traces', '{"trace_id": ')).status).toBe(400);
    // [V9][V12] input past a JSON limit is data, not a malformed request: a 200 that fails closed (a non-2xx would let
    // Claude Code run the tool), naming the limit; no session is opened.
    let deep: object = { leaf: 1 };
    for (let i = 0; i < 300; i++) deep = { a: deep };
    const tooDeep = await call(s, 'POST', '/v1/claude/hook', { ...input, tool_input: deep });
    expect(verdict(tooDeep)).toBe('stop'); // the fail-closed answer: an exit-2 block is `continue: false` over HTTP [P12]
    expect(tooDeep.body).toMatch(/input refused: input\.tool_input\.a\.a.*more than 128 levels deep/);
    expect((await call(s, 'GET', '/v1/traces')).json().traces).toEqual([]);
    expect(readdirSync(join(state, 'sessions'))).toEqual([]); // no recording, no anchor
    // The allowed origin gets CORS headers; a preflight needs no token.
    const pre = await call(s, 'OPTIONS', '/v1/stream', undefined, { authorization: undefined, origin: 'http://127.0.0.1:4173' });
    expect(pre.status).toBe(204);
    expect(verdict(await call(s, 'POST', '/v1/claude/hook', input, { origin: 'http://127.0.0.1:4173' }))).toBe('allow');
    const api = (await call(s, 'GET', '/openapi.json')).json();
    for (const p of ['/health', '/metrics', '/v1/claude/hook', '/v1/agents', '/v1/agents/{agent}/hook', '/v1/traces', '/v1/traces/{trace_id}/events', '/v1/traces/{trace_id}/end', '/v1/stream', '/v1/pipeline']) expect(api.paths[p], p).toBeDefined();
    // The agent routes name every agent the server answers for, and the list it answers fits the described schema.
    expect(api.paths['/v1/agents/{agent}/hook'].post.parameters[0].schema.enum).toEqual([...AGENT_IDS]);
    const agents = (await call(s, 'GET', '/v1/agents')).json().agents as { id: string; name: string; events: unknown[] }[];
    expect(agents.map((a) => a.id)).toEqual([...AGENT_IDS]);
    for (const a of agents) for (const k of api.components.schemas.AgentList.properties.agents.items.required) expect(a, `${a.id}.${k}`).toHaveProperty(k);
  });
});

describe('hookwire serve: recordings survive kill -9; torn and bad lines', { timeout: 120_000 }, () => {
  it('[P17] kill -9 mid-stream, restart: every answered event is recorded with its answer, the state is what replay gives, and budgets continue exactly', async () => {
    const pipeline = budgetPipeline(12);
    const dir = workDir({ 'p.json': pipeline });
    const state = join(dir, 'state');
    const s = await serve(join(dir, 'p.json'), state);
    const answered = new Map<string, string>();
    const sessions = ['k0', 'k1', 'k2', 'k3', 'k4'];
    let n = 0;
    // Keep 40 calls in flight and kill the server after ~60 answers.
    await new Promise<void>((resolve) => {
      const fire = (): void => {
        const id = sessions[n % 5]!;
        const tu = `${id}-t${n++}`;
        claude(s, preToolUse(id, tu)).then(
          (r) => {
            answered.set(tu, verdict(r));
            if (answered.size === 60) {
              s.child.kill('SIGKILL');
              resolve();
            } else if (answered.size < 60) fire();
          },
          () => undefined,
        );
      };
      for (let i = 0; i < 40; i++) fire();
    });
    await new Promise((r) => s.child.once('exit', r));
    const s2 = await serve(join(dir, 'p.json'), state);
    const health = (await call(s2, 'GET', '/health')).json();
    expect(health.failed_sessions).toBe(0);
    expect(health.divergent_on_rebuild).toBe(0);
    // Every answered call is in a recording with the answer it got.
    const recorded = new Map<string, string>();
    for (const name of recordingsIn(join(state, 'sessions'))) {
      for (const e of readTrace(readFileSync(join(state, 'sessions', name), 'utf8')).events) {
        recorded.set(String(e.payload.tool_use_id), e.recorded!.decision === 'continue' ? 'allow' : 'deny');
      }
    }
    for (const [tu, v] of answered) expect(recorded.get(tu), tu).toBe(v);
    // Replay agrees, and each session's budget carries on from exactly where its recording left it.
    const replayed = replayRecordings(state, pipeline);
    for (const id of sessions) {
      const r = replayed.get(id)!;
      expect(r.replayed).toEqual(r.recorded);
      const allowedBefore = r.recorded.filter((d) => d === 'continue').length;
      const more = await Promise.all(Array.from({ length: 15 }, (_, i) => claude(s2, preToolUse(id, `${id}-after-${i}`))));
      expect(more.map(verdict).filter((v) => v === 'allow'), id).toHaveLength(Math.max(0, 12 - allowedBefore));
    }
  });

  it('[P17] a torn last line is cut (never glued to the next line); a bad or oversize line fails that session closed with a clear error', async () => {
    const pipeline = budgetPipeline(2);
    const dir = workDir({ 'p.json': pipeline });
    const state = join(dir, 'state');
    const s = await serve(join(dir, 'p.json'), state);
    for (const id of ['torn', 'bad', 'huge', 'fine']) expect(verdict(await claude(s, preToolUse(id, `${id}-1`)))).toBe('allow');
    await s.stop();
    const files = new Map(recordingsIn(join(state, 'sessions')).map((n) => [n.split('-')[0]!, join(state, 'sessions', n)]));
    const tornBefore = readFileSync(files.get('torn')!, 'utf8');
    appendFileSync(files.get('torn')!, '{"event_id":"cc:torn-2:before","type":"tool.bef');
    appendFileSync(files.get('bad')!, 'this is not json\n');
    appendFileSync(files.get('huge')!, `{"event_id":"x","type":"a.b","ts":"2026-01-01T00:00:00Z","payload":{"s":"${'x'.repeat(8 * 1024 * 1024 + 10)}"}}\n`);
    const s2 = await serve(join(dir, 'p.json'), state);
    expect(s2.stderr()).toMatch(/cut a torn last line of 47 bytes/);
    expect(readFileSync(files.get('torn')!, 'utf8')).toBe(tornBefore);
    const health = (await call(s2, 'GET', '/health')).json();
    expect(health).toMatchObject({ status: 'degraded', rebuilt: { sessions: 2, failed: 2, cut: 1 } });
    // torn: one call recorded, so one more passes and the third is over budget; the new line starts clean.
    expect([verdict(await claude(s2, preToolUse('torn', 'torn-2'))), verdict(await claude(s2, preToolUse('torn', 'torn-3')))]).toEqual(['allow', 'deny']);
    expect(readTrace(readFileSync(files.get('torn')!, 'utf8')).status).toBe('ok');
    for (const id of ['bad', 'huge']) {
      const r = await claude(s2, preToolUse(id, `${id}-2`));
      expect(verdict(r), id).toBe('stop');
      expect(r.json().hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.json().stopReason, id).toMatch(id === 'bad' ? /line 3: not_json/ : /line 3: line_too_long/);
      const api = await call(s2, 'GET', '/v1/traces');
      expect(api.json().traces.find((t: { trace_id: string }) => t.trace_id === id).failed).toMatch(/fails closed/);
    }
    expect(verdict(await claude(s2, preToolUse('fine', 'fine-2')))).toBe('allow');
  });
});

describe('hookwire serve: hot reload', { timeout: 90_000 }, () => {
  it('[P18] a broken pipeline file keeps the old pipeline (reported in /health and the log); the fixed file switches between events; each event names its pipeline version and a restart rebuilds with it', async () => {
    const v1 = budgetPipeline(100, 'v1');
    const dir = workDir({ 'p.json': v1 });
    const state = join(dir, 'state');
    const s = await serve(join(dir, 'p.json'), state);
    const health = async () => (await call(s, 'GET', '/health')).json();
    const first = (await health()).pipeline.version;
    expect(verdict(await claude(s, preToolUse('hr', 'a', 'halt')))).toBe('stop');
    writeFileSync(join(dir, 'p.json'), '{"format": "hookwire.pipeline", "version": 1, "nodes": [');
    await expect.poll(async () => (await health()).reload_error?.message ?? '', { timeout: 10_000 }).toMatch(/not_json|JSON/);
    expect((await health()).pipeline.version).toBe(first);
    expect(s.stderr()).toMatch(/refused; still serving/);
    expect(verdict(await claude(s, preToolUse('hr2', 'b', 'halt')))).toBe('stop');
    // Fixed: "halt" is no longer special and the budget is 1.
    const v2 = JSON.parse(budgetPipeline(1, 'v2'));
    v2.nodes = v2.nodes.filter((n: { id: string }) => n.id !== 'stop-run');
    v2.wires = v2.wires.filter((w: { to: string }) => w.to !== 'stop-run');
    writeFileSync(join(dir, 'p.json'), JSON.stringify(v2));
    await expect.poll(async () => (await health()).pipeline.name, { timeout: 10_000 }).toBe('v2');
    expect((await health()).reload_error).toBeNull();
    // hr2 was terminated under v1, so it stays terminated under v2; a new session gets v2's rules.
    expect(verdict(await claude(s, preToolUse('hr2', 'c', 'halt')))).toBe('stop');
    expect([verdict(await claude(s, preToolUse('hr3', 'e', 'halt'))), verdict(await claude(s, preToolUse('hr3', 'f')))]).toEqual(['allow', 'deny']);
    const rec = readTrace((await call(s, 'GET', '/v1/traces/hr2/recording')).body);
    const second = (await health()).pipeline.version;
    expect(second).not.toBe(first);
    expect(rec.events.map((e) => [e.recorded?.decision, e.recorded?.pipeline])).toEqual([
      ['terminate', first],
      ['terminate', second],
    ]);
    await s.stop();
    const s2 = await serve(join(dir, 'p.json'), state);
    const h2 = (await call(s2, 'GET', '/health')).json();
    expect(h2).toMatchObject({ status: 'ok', divergent_on_rebuild: 0, rebuilt: { sessions: 3, events: 5 } });
    expect(verdict(await claude(s2, preToolUse('hr3', 'g')))).toBe('deny');
  });
});
