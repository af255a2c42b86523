// [K6][SV8] Lines cut off the end of a recording are seen: a hash chain cannot see a removed tail, so every append
// is followed by the recording's anchor (`<file>.head`), and only then is the call answered. Against a real
// `hookwire serve` killed with kill -9 (no clean shutdown, so nothing but the anchor knows how far it wrote) and
// the real `claude-hook --record`: a recording cut by hand is refused fail-closed with an integrity error naming
// the file and lines, `hookwire verify` names the same line, the operator's re-admission still works (recorded);
// a torn last line past the anchor (a crash mid-write: never answered) is cut as before and serving goes on.
import { describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { anchorPathOf, anchorText, parseAnchor } from '../../../../engine/node/serve/recordingAnchor.ts';
import { hookwire } from '../runCli.ts';
import { budgetPipeline, call, claudeHook, preToolUse, serverPool, verdict, workDir, type ServerProcess } from './serveHelpers.ts';
import { HOOK_INPUTS } from '../../runtime/claudeHookInputs.ts';

const { serve } = serverPool();

/** Kills the server with SIGKILL and waits for it to be gone. */
async function kill9(s: ServerProcess): Promise<void> {
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGKILL');
  await gone;
}

/** A server whose session `id` spent its budget of 4 (4 allowed, 1 denied), then killed with kill -9. Returns the recording. */
async function spentThenKilled(dir: string, id: string): Promise<string> {
  const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
  const got = [];
  for (let k = 1; k <= 5; k++) got.push(verdict(await claudeHook(s, preToolUse(id, `${id}-${k}`))));
  expect(got).toEqual(['allow', 'allow', 'allow', 'allow', 'deny']);
  await kill9(s);
  const sessions = join(dir, 'state', 'sessions');
  return join(sessions, readdirSync(sessions).find((n) => n.startsWith(`${id}-`) && n.endsWith('.hwtrace.jsonl'))!);
}

/** The byte offset where line `n` (1-based) of a file starts. */
function offsetOfLine(file: string, n: number): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  return Buffer.byteLength(lines.slice(0, n - 1).map((l) => `${l}\n`).join(''), 'utf8');
}

describe('[K6] the anchor: its text', () => {
  it('[K6] an anchor reads back as written, has one fixed size whatever its numbers (so a rewrite in place leaves no old bytes), and anything else is not an anchor', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), hex, (lines, bytes, head) => {
        const text = anchorText({ lines, bytes, head });
        expect(Buffer.byteLength(text)).toBe(192);
        expect(text.endsWith('\n')).toBe(true);
        expect(parseAnchor(text)).toEqual({ lines, bytes, head });
      }),
    );
    for (const bad of ['', '{}', 'null', '{"format":"hookwire.head","version":1,"lines":0,"bytes":5,"head":"' + 'a'.repeat(64) + '"}', '{"format":"hookwire.head","version":1,"lines":2,"bytes":5,"head":"xyz"}', '{"format":"other","lines":2,"bytes":5,"head":"' + 'a'.repeat(64) + '"}']) {
      expect(parseAnchor(bad), bad).toBeNull();
    }
  });
});

describe('hookwire serve: lines cut off after a kill -9 are refused [K6][SV8]', { timeout: 180_000 }, () => {
  it('[K6][SV8] killed with kill -9 after a spent budget, the recording cut by hand back to two calls: refused with the file and lines (never a budget given back), verify names the same line; re-admitted deliberately, recorded, it serves from the file as it is', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(4) });
    const file = await spentThenKilled(dir, 'cut');
    expect(existsSync(anchorPathOf(file))).toBe(true);
    // Header and two events kept: budget 4 would pass two more calls.
    truncateSync(file, offsetOfLine(file, 4));
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const r = await claudeHook(s, preToolUse('cut', 'cut-6'));
    expect(verdict(r)).toBe('stop');
    expect(r.json().stopReason).toContain(file);
    expect(r.json().stopReason).toMatch(/integrity error: the recording .* has 3 lines but 6 were written and answered .*: lines 4 to 6 were cut off/);
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'cut' })).status).toBe(503);
    expect((await call(s, 'GET', '/health')).json()).toMatchObject({ status: 'degraded' });
    // The file is left as it is.
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    const v = await hookwire(['verify', file]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/line 4: integrity error: .* lines 4 to 6 were cut off/);
    const json = await hookwire(['verify', file, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, status: 'cut', cut: { line: 4 } });
    // Re-admitted deliberately: recorded, and served from the file as it now is (two more calls pass).
    const re = await call(s, 'POST', '/v1/traces/cut/readmit', { reason: 'restored from backup by ops' });
    expect(re.status, re.body).toBe(200);
    expect(re.json().problem).toMatch(/lines 4 to 6 were cut off/);
    const log = readFileSync(join(dir, 'state', 'readmissions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(log).toEqual([expect.objectContaining({ trace_id: 'cut', reason: 'restored from backup by ops', broken_line: null })]);
    expect([verdict(await claudeHook(s, preToolUse('cut', 'cut-6'))), verdict(await claudeHook(s, preToolUse('cut', 'cut-7'))), verdict(await claudeHook(s, preToolUse('cut', 'cut-8')))]).toEqual(['allow', 'allow', 'deny']);
    expect((await hookwire(['verify', file])).code).toBe(0);
  });

  it('[K6][P17] a torn last line past the anchor (a crash mid-write: never answered) is cut and the session goes on; a cut into an answered line is refused, the file left as it is', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(4) });
    const torn = await spentThenKilled(dir, 'torn');
    appendFileSync(torn, '{"event_id":"torn-6:before","type":"tool.bef');
    const mid = await (async () => {
      const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
      for (let k = 1; k <= 2; k++) expect(verdict(await claudeHook(s, preToolUse('mid', `mid-${k}`)))).toBe('allow');
      await kill9(s);
      return join(dir, 'state', 'sessions', readdirSync(join(dir, 'state', 'sessions')).find((n) => n.startsWith('mid-') && n.endsWith('.hwtrace.jsonl'))!);
    })();
    // Cut in the middle of the last answered line (line 3): what is left of it looks torn, but it was answered.
    const size = statSync(mid).size;
    truncateSync(mid, size - 20);
    const before = readFileSync(mid);
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    // The torn line is cut; the budget is still spent (the sixth call is denied).
    expect(verdict(await claudeHook(s, preToolUse('torn', 'torn-6')))).toBe('deny');
    expect(readFileSync(torn, 'utf8')).not.toContain('tool.bef"');
    expect((await hookwire(['verify', torn])).code).toBe(0);
    const r = await claudeHook(s, preToolUse('mid', 'mid-3'));
    expect(verdict(r)).toBe('stop');
    expect(r.json().stopReason).toMatch(/has 2 lines but 3 were written and answered .*: lines 3 to 3 were cut off/);
    expect(readFileSync(mid).equals(before)).toBe(true);
  });

  it('[K6] a recording removed whole, its anchor kept, is refused too (never a new session over it)', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(4) });
    const file = await spentThenKilled(dir, 'gone');
    writeFileSync(file, '');
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const r = await claudeHook(s, preToolUse('gone', 'gone-6'));
    expect(verdict(r)).toBe('stop');
    expect(r.json().stopReason).toMatch(/has 0 lines but 6 were written and answered/);
  });
});

describe('claude-hook --record: lines cut off are refused [K6]', { timeout: 120_000 }, () => {
  const input = (id: string) => JSON.stringify({ ...HOOK_INPUTS.PreToolUse, session_id: 'rec', tool_input: { command: 'ls' }, tool_use_id: id });

  it('[K6] a recording cut back by hand after a spent budget fails the next call closed (exit 2, file and lines), verify says the same; a torn tail past the anchor is cut and the call decides', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(2) });
    const rec = join(dir, 'r.hwtrace.jsonl');
    const got = [];
    for (let k = 1; k <= 3; k++) got.push((await hookwire(['claude-hook', join(dir, 'p.json'), '--record', rec], { stdin: input(`c${k}`) })).stdout.includes('"deny"'));
    expect(got).toEqual([false, false, true]);
    const whole = readFileSync(rec);
    // A torn line past the anchor: cut, and the budget still holds.
    appendFileSync(rec, '{"event_id":"cc:c4:bef');
    const torn = await hookwire(['claude-hook', join(dir, 'p.json'), '--record', rec], { stdin: input('c4') });
    expect(torn.code, torn.stderr).toBe(0);
    expect(torn.stdout).toContain('"deny"');
    // Cut back to the header and one call: the budget of 2 would pass a call again.
    writeFileSync(rec, whole.subarray(0, offsetOfLine(rec, 3)));
    const cut = readFileSync(rec);
    const r = await hookwire(['claude-hook', join(dir, 'p.json'), '--record', rec], { stdin: input('c5') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(rec);
    expect(r.stderr).toMatch(/integrity error: the recording .* has 2 lines but 5 were written and answered .*: lines 3 to 5 were cut off, so its session fails closed/);
    expect(readFileSync(rec).equals(cut)).toBe(true);
    const v = await hookwire(['verify', rec]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/line 3: integrity error: .* lines 3 to 5 were cut off/);
  });
});
