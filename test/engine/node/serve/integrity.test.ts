// `hookwire serve` restarted on recordings edited by hand: a forged line or a truncation is refused fail-closed
// with an integrity error naming the file and line (never served from the edited state), `hookwire verify` says
// the same, and an operator re-admits the recording deliberately (recorded). The real binary, real HTTP.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookwire } from '../runCli.ts';
import { budgetPipeline, call, claudeHook, preToolUse, serverPool, verdict, workDir } from './serveHelpers.ts';

const { serve } = serverPool();
const claude = claudeHook;

/** A server whose session `id` has spent its whole budget of 4; stopped cleanly. Returns the recording's path. */
async function spent(dir: string, id: string): Promise<string> {
  const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
  const got = [];
  for (let k = 1; k <= 5; k++) got.push(verdict(await claude(s, preToolUse(id, `${id}-${k}`))));
  expect(got).toEqual(['allow', 'allow', 'allow', 'allow', 'deny']);
  await s.stop();
  return join(dir, 'state', 'sessions', readdirSync(join(dir, 'state', 'sessions')).find((n) => n.startsWith(`${id}-`))!);
}

describe('hookwire serve: integrity of recordings on restart [SV8]', { timeout: 120_000 }, () => {
  it('[SV8] a forged decision line is refused fail-closed with the file and line; hookwire verify names the same line; other sessions go on', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(4) });
    const file = await spent(dir, 'forged');
    const lines = readFileSync(file, 'utf8').split('\n');
    // Line 6 (header + 5 events) is the denied call: make it look allowed.
    expect(lines[5]).toContain('"decision":"block_action"');
    lines[5] = lines[5]!.replace('"decision":"block_action"', '"decision":"continue"');
    writeFileSync(file, lines.join('\n'));
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const r = await claude(s, preToolUse('forged', 'forged-6'));
    expect(verdict(r)).toBe('stop');
    expect(r.json().stopReason).toContain(file);
    expect(r.json().stopReason).toMatch(/integrity error: .* changed at line 6/);
    const api = await call(s, 'POST', '/v1/traces', { trace_id: 'forged' });
    expect(api.status).toBe(503);
    expect((await call(s, 'GET', '/health')).json()).toMatchObject({ status: 'degraded', rebuilt: { failed: 1 } });
    expect(verdict(await claude(s, preToolUse('other', 'other-1')))).toBe('allow');
    const v = await hookwire(['verify', file]);
    expect(v.code).toBe(1);
    expect(v.stdout + v.stderr).toMatch(/line 6/);
  });

  it('[SV8] a truncated recording does not give back a spent budget: refused with the lines cut off; re-admitted deliberately, recorded, it serves from the file as it is', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(4) });
    const file = await spent(dir, 'cut');
    const lines = readFileSync(file, 'utf8').split('\n');
    // Keep the header and two events: budget 4 would pass two more calls.
    writeFileSync(file, `${lines.slice(0, 3).join('\n')}\n`);
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const r = await claude(s, preToolUse('cut', 'cut-6'));
    expect(verdict(r)).toBe('stop');
    expect(r.json().stopReason).toMatch(/integrity error: the recording .*cut-.* has 3 lines but 6 were written and answered .*: lines 4 to 6 were cut off/);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
    expect((await call(s, 'POST', '/v1/traces/cut/readmit', {})).status).toBe(400);
    const re = await call(s, 'POST', '/v1/traces/cut/readmit', { reason: 'restored from backup by ops' });
    expect(re.status).toBe(200);
    expect(re.json().problem).toMatch(/cut off/);
    const log = readFileSync(join(dir, 'state', 'readmissions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(log).toEqual([expect.objectContaining({ trace_id: 'cut', reason: 'restored from backup by ops', problem: expect.stringMatching(/cut off/), broken_line: null })]);
    expect((await call(s, 'POST', '/v1/traces/cut/readmit', { reason: 'again' })).status).toBe(409);
    expect([verdict(await claude(s, preToolUse('cut', 'cut-6'))), verdict(await claude(s, preToolUse('cut', 'cut-7'))), verdict(await claude(s, preToolUse('cut', 'cut-8')))]).toEqual(['allow', 'allow', 'deny']);
  });

  it('[SV8] a forged line re-admitted deliberately stays admitted across restarts; the chain continues from the file', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(4) });
    const file = await spent(dir, 'fx');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"command":"ls"', '"command":"ls -la"'));
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    expect(verdict(await claude(s, preToolUse('fx', 'fx-6')))).toBe('stop');
    expect((await call(s, 'POST', '/v1/traces/fx/readmit', { reason: 'known edit' })).json()).toMatchObject({ readmitted: true, problem: expect.stringMatching(/changed at line 2/) });
    expect(verdict(await claude(s, preToolUse('fx', 'fx-6')))).toBe('deny');
    await s.stop();
    const s2 = await serve(join(dir, 'p.json'), join(dir, 'state'));
    expect(verdict(await claude(s2, preToolUse('fx', 'fx-7')))).toBe('deny');
    const v = await hookwire(['verify', file]);
    expect(v.stdout + v.stderr).toMatch(/line 2/);
  });
});
