// [K1]-[K5] tamper-evident records through the real binary: claude-hook's recording and audit log carry the hash
// chain, `hookwire verify` names the first line that breaks it, replay warns, and claude-hook fails closed.
import { describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_INPUTS } from '../runtime/claudeHookInputs.ts';
import { GUARD, hookwire, tempDir } from './runCli.ts';
import { createRuntime } from '../../../engine/runtime/createRuntime.ts';
import { verifyChain } from '../../../engine/trace/hashChain.ts';

const pre = (command: string, id: string) => JSON.stringify({ ...HOOK_INPUTS.PreToolUse, tool_input: { command }, tool_use_id: id });

describe('hash-chained records (real binary)', { timeout: 120_000 }, () => {
  it('[K4][K5] claude-hook chains its recording and its audit log; verify passes them and names an edited line (exit 1)', async () => {
    const dir = tempDir();
    const rec = join(dir, 'session.hwtrace.jsonl');
    const audit = join(dir, 'audit.jsonl');
    for (const [i, command] of ['ls', 'rm -rf /', 'echo hi'].entries()) {
      const r = await hookwire(['claude-hook', GUARD, '--record', rec, '--audit', audit], { stdin: pre(command, `toolu_${i}`) });
      expect(r.code).toBe(0);
    }
    const lines = readFileSync(rec, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(l).toMatch(/,"chain":"[0-9a-f]{64}"\}$/);
    expect(verifyChain(readFileSync(audit, 'utf8'))).toMatchObject({ status: 'intact', lines: 3 });

    const [okRec, okAudit] = await Promise.all([hookwire(['verify', rec]), hookwire(['verify', audit, '--json'])]);
    expect(okRec.code).toBe(0);
    expect(okRec.stdout).toMatch(/hash chain intact over 4 lines/);
    expect(okAudit.code).toBe(0);
    expect(JSON.parse(okAudit.stdout)).toMatchObject({ ok: true, status: 'intact', lines: 3 });

    // The blocked rm -rf recorded as allowed: the kind of hand edit a chain must catch.
    const edited = lines.map((l, i) => (i === 2 ? l.replace('"decision":"block_action"', '"decision":"continue"') : l));
    expect(edited[2]).not.toBe(lines[2]);
    writeFileSync(rec, `${edited.join('\n')}\n`);
    const bad = await hookwire(['verify', rec]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`${rec}: line 3: hash chain broken at line 3`);

    // Replay warns on stderr and still replays; claude-hook refuses to continue the session (fails closed).
    const [replay, hook] = await Promise.all([
      hookwire(['replay', GUARD, rec]),
      hookwire(['claude-hook', GUARD, '--record', rec], { stdin: pre('ls', 'toolu_9') }),
    ]);
    expect(replay.stderr).toContain('warning: line 3: the hash chain breaks here');
    expect(replay.stdout).toContain('3 events');
    expect(hook.code).toBe(2);
    expect(hook.stderr).toContain('was changed after it was written');
    expect(hook.stderr).toContain('line 3');
  });

  it('[K3] an old recording without a chain still works: claude-hook appends unchained lines, verify says unchained (exit 1, or 0 with --allow-unchained)', async () => {
    const dir = tempDir();
    const rec = join(dir, 'old.hwtrace.jsonl');
    writeFileSync(rec, '{"format":"hookwire.trace","version":1,"trace_id":"sess-1","agent_id":"claude-code","source":{"kind":"claude-code-hook"},"created":"2026-01-01T00:00:00.000Z"}\n');
    const r = await hookwire(['claude-hook', GUARD, '--record', rec], { stdin: JSON.stringify({ ...JSON.parse(pre('ls', 'toolu_1')), session_id: 'sess-1' }) });
    expect(r.code).toBe(0);
    expect(readFileSync(rec, 'utf8')).not.toContain('"chain"');
    const [strict, lax] = await Promise.all([hookwire(['verify', rec]), hookwire(['verify', rec, '--allow-unchained'])]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('no hash chain');
    expect(lax.code).toBe(0);
    // An appended hand-written line in a chained file breaks it at that line.
    const fresh = join(dir, 'new.hwtrace.jsonl');
    expect((await hookwire(['claude-hook', GUARD, '--record', fresh], { stdin: pre('ls', 'toolu_2') })).code).toBe(0);
    appendFileSync(fresh, '{"event_id":"forged","type":"tool.before_call","ts":"2026-01-01T00:00:00.000Z","payload":{}}\n');
    const forged = await hookwire(['verify', fresh]);
    expect(forged.code).toBe(1);
    expect(forged.stdout).toContain('line 3: hash chain broken at line 3: this line carries no chain hash');
  });

  it('[K1] the runtime\'s recordings carry the chain', async () => {
    const lines: string[] = [];
    const rt = createRuntime(JSON.parse(readFileSync(GUARD, 'utf8')), { record: () => (l) => void lines.push(l) });
    if (!rt.ok) throw new Error('pipeline refused');
    const t = rt.runtime.startTrace({ trace_id: 'r1', agent_id: 'a' });
    t.emit('tool.before_call', { tool: 'Bash', input: { command: 'rm -rf /' } });
    t.emit('tool.before_call', { tool: 'Bash', input: { command: 'ls' } });
    await t.end({});
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(verifyChain(lines.join(''))).toMatchObject({ status: 'intact', lines: lines.length });
  });
});
