// [P17] A trace answered 201 exists on disk at once: its header is written before the answer, so a `kill -9`
// before its first event loses nothing. Real `hookwire serve` processes, killed with SIGKILL.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookwire } from '../runCli.ts';
import { budgetPipeline, call, serverPool, workDir, type ServerProcess } from './serveHelpers.ts';

const { serve } = serverPool();

async function kill9(s: ServerProcess): Promise<void> {
  s.child.kill('SIGKILL');
  await new Promise((r) => (s.child.exitCode !== null || s.child.signalCode !== null ? r(null) : s.child.once('exit', r)));
}

describe('hookwire serve: a created trace survives kill -9 before its first event [P17]', { timeout: 120_000 }, () => {
  it('[P17] POST /v1/traces → 201, SIGKILL, restart: the trace is known (200, not created again), listed with 0 events, keeps its title and agent, and takes events with its state', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(1) });
    const state = join(dir, 'state');
    let s = await serve(join(dir, 'p.json'), state);
    const created = await call(s, 'POST', '/v1/traces', { trace_id: 'empty-1', agent_id: 'bot-7', title: 'a trace with no event yet' });
    expect(created.status, created.body).toBe(201);
    // The answer came after the header was on disk: the file holds exactly the header, chained.
    const files = readdirSync(join(state, 'sessions')).filter((n) => n.endsWith('.hwtrace.jsonl'));
    expect(files).toHaveLength(1);
    const file = join(state, 'sessions', files[0]!);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'hookwire.trace', trace_id: 'empty-1', agent_id: 'bot-7', title: 'a trace with no event yet' });

    await kill9(s);
    s = await serve(join(dir, 'p.json'), state);
    const health = (await call(s, 'GET', '/health')).json();
    expect(health.failed_sessions).toBe(0);
    const listed = (await call(s, 'GET', '/v1/traces')).json().traces as { trace_id: string; events: number }[];
    expect(listed.find((t) => t.trace_id === 'empty-1')).toMatchObject({ events: 0 });
    const again = await call(s, 'POST', '/v1/traces', { trace_id: 'empty-1' });
    expect(again.status, again.body).toBe(200);
    expect(again.json()).toEqual({ trace_id: 'empty-1', created: false });
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ agent_id: 'bot-7', title: 'a trace with no event yet' });

    // Events go on the same file, after the header; the budget of 1 tool call counts from there.
    const first = await call(s, 'POST', '/v1/traces/empty-1/events', { type: 'tool.before_call', payload: { tool_name: 'Bash', tool_input: { command: 'ls' } } });
    expect(first.status, first.body).toBe(200);
    expect(first.json().decision).toBe('continue');
    await kill9(s);
    s = await serve(join(dir, 'p.json'), state);
    const second = await call(s, 'POST', '/v1/traces/empty-1/events', { type: 'tool.before_call', payload: { tool_name: 'Bash', tool_input: { command: 'pwd' } } });
    expect(second.json().decision).toBe('block_action');
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    // The chain holds from the header through both events.
    const verified = await hookwire(['verify', file]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});
