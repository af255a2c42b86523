// [R17] `hookwire replay` checks by default only the decisions recorded by the replayed pipeline file's own
// version. The recordings are made by the real CLI (claude-hook, hook --agent codex, serve's Claude route) with
// one pipeline file that is changed halfway; the version each line names is computed here with node:crypto,
// independently of engine/trace/pipelineVersion.ts.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_INPUTS } from '../runtime/claudeHookInputs.ts';
import { NATIVE } from '../agents/nativeInputs.ts';
import { GUARD, hookwire, hookwireInProcess, tempDir } from './runCli.ts';
import { claudeHook, serverPool, until, health, verdict } from './serve/serveHelpers.ts';

const guardText = readFileSync(GUARD, 'utf8');
const guard = JSON.parse(guardText) as { nodes: { id: string }[]; wires: { from: string; to: string }[] };
/** The guard without its rm -rf block: the changed pipeline lets rm -rf through. */
const looseText = `${JSON.stringify({ ...guard, nodes: guard.nodes.filter((n) => n.id !== 'block-rm'), wires: guard.wires.filter((w) => w.to !== 'block-rm') }, null, 2)}\n`;
const versionOf = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}`;
const V1 = versionOf(guardText);
const V2 = versionOf(looseText);

const pre = (command: string, id: string) => ({ ...HOOK_INPUTS.PreToolUse, session_id: 'sess-r17', tool_input: { command }, tool_use_id: id });
const recordedVersions = (file: string) =>
  readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => (JSON.parse(l) as { recorded?: { pipeline?: string; decision: string } }).recorded);

describe('[R17] replay checks the decisions of its own pipeline version', { timeout: 240_000 }, () => {
  it('[R17] claude-hook recordings across a pipeline change: each side checks its own decisions and exits 0; --check compares all and exits 1; an edited decision of the same version still fails', async () => {
    const dir = tempDir({ 'p.json': guardText });
    const p = join(dir, 'p.json');
    const rec = join(dir, 'rec.jsonl');
    const call = async (command: string, id: string) => {
      const r = await hookwire(['claude-hook', p, '--record', rec], { stdin: JSON.stringify(pre(command, id)) });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.includes('"deny"') ? 'deny' : 'allow';
    };
    // One at a time: the recording is one session, in order.
    expect([await call('ls', 't1'), await call('rm -rf /tmp/x', 't2'), await call('echo hi', 't3')]).toEqual(['allow', 'deny', 'allow']);
    writeFileSync(p, looseText); // the same file, changed: a new version
    expect([await call('rm -rf /tmp/y', 't4'), await call('pwd', 't5')]).toEqual(['allow', 'allow']);

    // Every recorded decision names the version of the file that made it.
    expect(recordedVersions(rec).map((r) => r?.pipeline)).toEqual([V1, V1, V1, V2, V2]);
    writeFileSync(join(dir, 'v1.json'), guardText);
    writeFileSync(join(dir, 'v2.json'), looseText);

    // The new pipeline over the whole recording: its own 2 decisions are checked and match; the old version's 3
    // (one of which it now decides differently) are named and not checked.
    const v2 = await hookwireInProcess(['replay', join(dir, 'v2.json'), rec]);
    expect(v2.code, v2.stdout + v2.stderr).toBe(0);
    expect(v2.stdout).toContain(`Check: all 2 recorded decisions of this pipeline (${V2}) match the replay (3 decisions recorded by another pipeline version (${V1}) not checked: --check compares them too).`);
    // The old pipeline: its 3 are checked; the new version's rm -rf (CONTINUE then, BLOCK now) is not.
    const v1 = await hookwireInProcess(['replay', join(dir, 'v1.json'), rec]);
    expect(v1.code, v1.stdout).toBe(0);
    expect(v1.stdout).toContain(`Check: all 3 recorded decisions of this pipeline (${V1}) match the replay (2 decisions recorded by another pipeline version (${V2}) not checked`);

    // --check compares every recorded decision and names the version of the one that differs.
    const all = await hookwireInProcess(['replay', '--check', join(dir, 'v2.json'), rec]);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('Check failed: 1 of 5 recorded decisions differ from the replay:');
    expect(all.stdout).toContain(`#2 cc:t2:before (tool.before_call): recorded BLOCK_ACTION (destructive command: rm -rf /tmp/x) [by pipeline ${V1}]; replayed CONTINUE`);

    // A reformatted file is another version (any change is): none of the decisions is compared by default.
    writeFileSync(join(dir, 'v1-spaced.json'), `${guardText}\n`);
    const spaced = await hookwireInProcess(['replay', join(dir, 'v1-spaced.json'), rec]);
    expect(spaced.code).toBe(0);
    expect(spaced.stdout).toContain(`Check: no recorded decision was made by this pipeline (${versionOf(`${guardText}\n`)}), so none was compared (5 decisions recorded by another pipeline version (${V1}, ${V2}) not checked: --check compares them too).`);

    // The default still catches a decision of its own version that differs (here: edited by hand afterwards).
    const text = readFileSync(rec, 'utf8');
    const edited = text.replace('"recorded":{"decision":"block_action"', '"recorded":{"decision":"continue"');
    expect(edited).not.toBe(text);
    writeFileSync(join(dir, 'edited.jsonl'), edited);
    const caught = await hookwireInProcess(['replay', join(dir, 'v1.json'), join(dir, 'edited.jsonl')]);
    expect(caught.code).toBe(1);
    expect(caught.stdout).toContain(`Check failed: 1 of 3 recorded decisions of this pipeline (${V1}) differ from the replay`);
    expect(caught.stdout).toContain('#2 cc:t2:before (tool.before_call): recorded CONTINUE (destructive command: rm -rf /tmp/x); replayed BLOCK_ACTION (destructive command: rm -rf /tmp/x) by block-rm');
    expect(caught.stderr).toContain('the hash chain breaks here'); // and the edit is named [K4]

    // The real binary gives the same exit codes.
    const [bin2, binAll] = await Promise.all([hookwire(['replay', join(dir, 'v2.json'), rec]), hookwire(['replay', '--check', join(dir, 'v2.json'), rec])]);
    expect([bin2.code, binAll.code]).toEqual([0, 1]);
  });

  it('[R17] hook --agent codex records its version too; --json keeps stdout the stable lines and says the check on stderr', async () => {
    const portable = readFileSync(join(__dirname, '..', 'agents', 'fixtures', 'portable.pipeline.json'), 'utf8');
    const changed = portable.replace('"order": 10, "action": { "type": "block", "reason": "destructive command', '"order": 10, "enabled": false, "action": { "type": "block", "reason": "destructive command');
    expect(changed).not.toBe(portable);
    const dir = tempDir({ 'p.json': portable, 'old.json': portable, 'new.json': changed });
    const p = join(dir, 'p.json');
    const rec = join(dir, 'codex.jsonl');
    const call = async (command: string, id: string) => {
      const r = await hookwire(['hook', '--agent', 'codex', p, '--record', rec], { stdin: JSON.stringify({ ...NATIVE.codex({ kind: 'shell', command }), tool_use_id: id }) });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(await call('rm -rf /', 'c1')).toContain('deny');
    writeFileSync(p, changed);
    expect(await call('rm -rf /', 'c2')).not.toContain('deny');
    expect(recordedVersions(rec).map((r) => [r?.decision, r?.pipeline])).toEqual([['block_action', versionOf(portable)], ['continue', versionOf(changed)]]);

    const json = await hookwireInProcess(['replay', '--json', join(dir, 'new.json'), rec]);
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { decision: string }).decision)).toEqual(['continue', 'continue']);
    expect(json.stderr).toContain(`Check: the 1 recorded decision of this pipeline (${versionOf(changed)}) matches the replay (1 decision recorded by another pipeline version (${versionOf(portable)}) not checked`);
    const old = await hookwireInProcess(['replay', '--json', '--check', join(dir, 'old.json'), rec]);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain(`recorded CONTINUE [by pipeline ${versionOf(changed)}]; replayed BLOCK_ACTION`);
  });

  const { serve, stopAll } = serverPool();
  it('[R17] serve\'s recording across a hot reload: replay of either version checks its own decisions', async () => {
    const dir = tempDir({ 'p.json': guardText, 'v1.json': guardText, 'v2.json': looseText });
    const p = join(dir, 'p.json');
    const state = join(dir, 'state');
    const s = await serve(p, state);
    expect(verdict(await claudeHook(s, pre('rm -rf /tmp/a', 's1')))).toBe('deny');
    expect(verdict(await claudeHook(s, pre('ls', 's2')))).toBe('allow');
    writeFileSync(p, looseText);
    const h = await until(() => health(s), (j) => j.pipeline.version === V2);
    expect(h.pipeline.version).toBe(V2);
    expect(verdict(await claudeHook(s, pre('rm -rf /tmp/b', 's3')))).toBe('allow');
    await stopAll();
    const files = readdirSync(join(state, 'sessions')).filter((n) => n.endsWith('.hwtrace.jsonl'));
    expect(files).toHaveLength(1);
    const rec = join(state, 'sessions', files[0]!);
    expect(recordedVersions(rec).map((r) => r?.pipeline)).toEqual([V1, V1, V2]);
    const [a, b, all] = await Promise.all([
      hookwireInProcess(['replay', join(dir, 'v1.json'), rec]),
      hookwireInProcess(['replay', join(dir, 'v2.json'), rec]),
      hookwireInProcess(['replay', '--check', join(dir, 'v1.json'), rec]),
    ]);
    expect([a.code, b.code, all.code]).toEqual([0, 0, 1]);
    expect(a.stdout).toContain(`Check: all 2 recorded decisions of this pipeline (${V1}) match the replay (1 decision recorded by another pipeline version (${V2}) not checked`);
    expect(b.stdout).toContain(`Check: the 1 recorded decision of this pipeline (${V2}) matches the replay (2 decisions recorded by another pipeline version (${V1}) not checked`);
    expect(all.stdout).toContain(`recorded CONTINUE [by pipeline ${V2}]; replayed BLOCK_ACTION`);
  });
});
