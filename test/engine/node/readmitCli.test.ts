// [K6][K4] `claude-hook --record` refuses a recording that lost answered lines (cut below its anchor) or whose hash
// chain is broken; `hookwire readmit <recording> --reason …` takes it back as it now is, deliberately, with the
// reason and the overridden error kept beside it — the same re-admission as hookwire serve's (serve/integrity.ts).
// The real binary, real files.
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUARD, hookwire, tempDir } from './runCli.ts';

const call = (n: number, command = `echo ${n}`) => JSON.stringify({ session_id: 'ra', transcript_path: '/tmp/t', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: `t${n}` });
const hook = (record: string, n: number, command?: string) => hookwire(['claude-hook', GUARD, '--record', record], { stdin: call(n, command) });

describe('[K6] hookwire readmit: a refused claude-hook recording, taken back deliberately', { timeout: 180_000 }, () => {
  it('[K6] lines cut off: refused (exit 2, naming readmit); readmit --reason takes it as it is; the next call goes on', async () => {
    const dir = tempDir({});
    const record = join(dir, 'session.hwtrace.jsonl');
    for (const n of [1, 2, 3]) expect((await hook(record, n)).code).toBe(0);
    const lines = readFileSync(record, 'utf8').split('\n');
    // Cut the last answered line off (the header and two calls stay).
    truncateSync(record, Buffer.byteLength(lines.slice(0, 3).join('\n') + '\n'));
    const refused = await hook(record, 4);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('integrity error');
    expect(refused.stderr).toContain(`hookwire readmit ${record} --reason`);

    const noReason = await hookwire(['readmit', record]);
    expect(noReason.code).toBe(2);
    const done = await hookwire(['readmit', record, '--reason', 'cut back by hand on purpose']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`re-admitted ${record}: it was refused with: integrity error`);
    const kept = readFileSync(`${record}.readmissions.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(kept).toEqual([expect.objectContaining({ trace_id: 'ra', file: 'session.hwtrace.jsonl', reason: 'cut back by hand on purpose', broken_line: null, problem: expect.stringContaining('integrity error') })]);

    const after = await hook(record, 4);
    expect(after.code, after.stderr).toBe(0);
    expect((await hookwire(['verify', record])).code).toBe(0);
    // Nothing left to re-admit: exit 1, and nothing is added.
    const again = await hookwire(['readmit', record, '--reason', 'again']);
    expect([again.code, again.stderr.includes('nothing to re-admit')]).toEqual([1, true]);
    expect(readFileSync(`${record}.readmissions.jsonl`, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('[K4] a line changed by hand: refused until re-admitted; after readmit the calls go on over the accepted break', async () => {
    const dir = tempDir({});
    const record = join(dir, 'session.hwtrace.jsonl');
    for (const n of [1, 2]) expect((await hook(record, n)).code).toBe(0);
    const text = readFileSync(record, 'utf8');
    writeFileSync(record, text.replace('"echo 1"', '"echo one"'));
    const refused = await hook(record, 3);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('was changed after it was written');
    expect(refused.stderr).toContain(`hookwire readmit ${record}`);

    const done = await hookwire(['readmit', record, '--reason', 'fixed a typo in line 2 by hand']);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(readFileSync(`${record}.readmissions.jsonl`, 'utf8'))).toMatchObject({ broken_line: 2, reason: 'fixed a typo in line 2 by hand' });
    const after = await hook(record, 3);
    expect(after.code, after.stderr).toBe(0);
    // The block still decides (the recording's state is read), and verify still names the accepted break.
    expect((await hook(record, 4, 'rm -rf /')).stdout).toContain('"permissionDecision":"deny"');
    const verify = await hookwire(['verify', record]);
    expect(verify.code).toBe(1);
  });
});
