import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BacktestReportSchema } from '../../../engine/node/backtest/backtestSchema.ts';
import { FIXTURES_DIR, HAVE_FIXTURES, NO_FIXTURES_MESSAGE } from '../../shared/fixtures.ts';
import { FIXTURES, GUARD, hookwire, hookwireInProcess, ROOT, tempDir } from './runCli.ts';

/** Steps of the golden session labelled with an expected decision. */
const LABELS = readFileSync(join(FIXTURES, 'golden', 'session.jsonl'), 'utf8').split('"expect"').length - 1;
const guardDoc = () => JSON.parse(readFileSync(GUARD, 'utf8'));

/** The guard pipeline with known changes: a lower token budget, `.env` reads blocked, git commands asked, rm no longer blocked. */
function changed(): string {
  const doc = guardDoc();
  doc.name = 'guard-changed';
  doc.nodes.find((n: { id: string }) => n.id === 'budget').action.limit = 500;
  doc.nodes.push({ id: 'env', kind: 'matcher', when: { 'payload.tool_input.command': { contains: '.env' } } });
  doc.nodes.push({ id: 'block-env', kind: 'handler', name: 'No .env', action: { type: 'block', reason: 'reads secrets' } });
  doc.nodes.push({ id: 'git', kind: 'matcher', when: { 'payload.tool_input.command': { regex: '^git ' } } });
  doc.nodes.push({ id: 'ask-git', kind: 'handler', name: 'Ask before git', action: { type: 'ask', reason: 'git: {{payload.tool_input.command}}' } });
  doc.wires.push({ from: 'before', to: 'env' }, { from: 'env', to: 'block-env' }, { from: 'before', to: 'git' }, { from: 'git', to: 'ask-git' });
  doc.nodes.find((n: { id: string }) => n.id === 'block-rm').enabled = false;
  return JSON.stringify(doc);
}

/** A session of our own (trace v1) with an rm, a git command, a .env read and a long model answer. */
const SESSION = [
  { format: 'hookwire.trace', version: 1, trace_id: 't-own', agent_id: 'dev', source: { kind: 'test' }, created: '2026-03-01T10:00:00.000Z' },
  { event_id: 'o1', type: 'tool.before_call', ts: '2026-03-01T10:00:01.000Z', payload: { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } } },
  { event_id: 'o2', type: 'tool.before_call', ts: '2026-03-01T10:00:02.000Z', payload: { tool_name: 'Bash', tool_input: { command: 'git push' } } },
  { event_id: 'o3', type: 'tool.before_call', ts: '2026-03-01T10:00:03.000Z', payload: { tool_name: 'Bash', tool_input: { command: 'cat .env' } } },
  { event_id: 'o4', type: 'model.after_call', ts: '2026-03-01T10:00:04.000Z', payload: { usage: { output_tokens: 700 } } },
  { event_id: 'o5', type: 'tool.before_call', ts: '2026-03-01T10:00:05.000Z', payload: { tool_name: 'Read', tool_input: { file_path: 'a' } } },
].map((l) => JSON.stringify(l)).join('\n');

/** One folder: traces of several importers (ours, the synthetic format fixtures, the real recordings when present) and files that are not traces. */
function corpus(): { dir: string; notTraces: string[] } {
  const dir = tempDir({ 'changed.json': changed() });
  const root = join(dir, 'sessions');
  mkdirSync(join(root, 'formats'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  cpSync(join(FIXTURES, 'golden', 'session.jsonl'), join(root, 'golden.jsonl'));
  writeFileSync(join(root, 'own.hwtrace.jsonl'), `${SESSION}\n`);
  cpSync(join(ROOT, 'test', 'fixtures', 'formats'), join(root, 'formats'), { recursive: true });
  if (HAVE_FIXTURES) {
    for (const sub of readdirSync(FIXTURES_DIR, { withFileTypes: true })) if (sub.isDirectory()) cpSync(join(FIXTURES_DIR, sub.name), join(root, 'recorded', sub.name), { recursive: true });
  } else console.warn(`backtest CLI test: ${NO_FIXTURES_MESSAGE}; using our synthetic fixtures only`);
  writeFileSync(join(root, 'README.md'), '# our sessions\n');
  writeFileSync(join(root, 'empty.jsonl'), '');
  writeFileSync(join(root, 'blob.bin'), Buffer.from([0, 1, 2, 255, 0, 0, 7]));
  cpSync(GUARD, join(root, 'policy.pipeline.json'));
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return { dir, notTraces: ['README.md', 'empty.jsonl', 'blob.bin', 'policy.pipeline.json'].map((f) => join(root, f)) };
}

describe('hookwire backtest', { timeout: 300_000 }, () => {
  it('[B1][B3] over a folder of several agents\' traces: per-file counts are what `diff` says, skipped files are named, the document fits its schema', async () => {
    const { dir, notTraces } = corpus();
    const next = join(dir, 'changed.json');
    const r = await hookwire(['backtest', '--json', GUARD, next, join(dir, 'sessions')]);
    expect(r.code).toBe(1); // new blocks, the default --fail-on
    const doc = BacktestReportSchema.parse(JSON.parse(r.stdout));
    expect(doc.skipped.map((s) => s.file).sort()).toEqual([...notTraces].sort());
    expect(doc.skipped.find((s) => s.file.endsWith('policy.pipeline.json'))!.reason).toMatch(/pipeline/);
    expect([...doc.files, ...doc.skipped].some((f) => f.file.includes('.git'))).toBe(false);
    const formats = new Set(doc.files.map((f) => f.format));
    expect(formats.size).toBeGreaterThanOrEqual(5);
    for (const f of doc.files) {
      // The same question asked of `hookwire diff`, one file at a time.
      const d = await hookwireInProcess(['diff', '--json', GUARD, next, f.file]);
      const lines = d.stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(f.changed, f.file).toBe(lines.length);
      expect(f.differences.map((x) => ({ event_id: x.event_id, changes: x.changes, a: x.a, b: x.b })), f.file).toEqual(lines.map((l) => ({ event_id: l.event_id, changes: l.changes, a: l.a, b: l.b })));
    }
    const own = doc.files.find((f) => f.file.endsWith('own.hwtrace.jsonl'))!;
    expect(own.differences.map((x) => [x.event_id, x.category])).toEqual([
      ['o1', 'lifted_block'],
      ['o2', 'new_ask'],
      ['o3', 'new_block'],
      ['o4', 'new_block'],
      ['o5', 'new_block'], // not reached after the terminate: blocked
    ]);
    // [B7] The golden session's labels (meta.expect) are checked against the new pipeline; a label the old one met is new.
    const golden = doc.files.find((f) => f.file.endsWith('golden.jsonl'))!;
    expect(golden.labels).toBe(LABELS);
    expect(golden.violated_labels.map((v) => [v.event_id, v.violated_before])).toEqual([
      ['e4', false],
      ['e7', false],
      ['e8', false],
    ]);
    expect(golden.violated_labels[0]!.failures).toEqual(['decision: expected block_action, got continue', 'reason: expected it to include "rm -rf /", got ""']);
    expect(golden.violated_labels[1]!.failures).toEqual(['decision: expected continue, got terminate']);
    expect(doc.total).toMatchObject({ labels: LABELS, labels_violated: 3 });
    expect(doc.total.changed).toBe(doc.files.reduce((n, f) => n + f.changed, 0));
    expect(doc.total).toMatchObject({ files: doc.files.length, skipped: 4 });
    expect(doc.unguarded.some((u) => u.agent === 'dev' && u.tool === 'Bash' && u.count === 1)).toBe(true);
    expect(doc.never_matched.map((m) => m.matcher_id)).toContain('banned');
  });

  it('[B5] exit codes follow --fail-on; 2 when it could not run', async () => {
    const { dir } = corpus();
    const next = join(dir, 'changed.json');
    const own = join(dir, 'sessions', 'own.hwtrace.jsonl');
    const onlyLifts = join(dir, 'lifts.json');
    const doc = guardDoc();
    doc.nodes.find((n: { id: string }) => n.id === 'block-rm').enabled = false;
    writeFileSync(onlyLifts, JSON.stringify(doc));
    const notTraces = join(dir, 'not-traces');
    mkdirSync(notTraces);
    writeFileSync(join(notTraces, 'notes.txt'), 'hello\n');
    const code = async (args: string[]) => (await hookwireInProcess(['backtest', ...args])).code;
    expect(await code([GUARD, next, own])).toBe(1);
    expect(await code(['--fail-on', 'changed', GUARD, next, own])).toBe(1);
    expect(await code(['--fail-on', 'none', GUARD, next, own])).toBe(0);
    expect(await code([GUARD, onlyLifts, own])).toBe(0);
    expect(await code(['--fail-on', 'changed', GUARD, onlyLifts, own])).toBe(1);
    expect(await code(['--fail-on', 'changed', GUARD, GUARD, own])).toBe(0);
    const missing = await hookwireInProcess(['backtest', GUARD, next, join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const nothing = await hookwireInProcess(['backtest', GUARD, next, notTraces]);
    expect(nothing.code).toBe(2);
    expect(nothing.stdout).toContain('skipped');
    expect(nothing.stderr).toContain('nothing to backtest');
    expect(await code([GUARD, join(dir, 'sessions', 'README.md'), own])).toBe(2);
    expect(await code(['--fail-on', 'sometimes', GUARD, next, own])).toBe(2);
    expect(await code(['--report', join(dir, 'r.txt'), GUARD, next, own])).toBe(2);
  });

  it('[B3] writes the markdown and the HTML report; the text summary names the files that differ', async () => {
    const { dir } = corpus();
    const next = join(dir, 'changed.json');
    const md = join(dir, 'report.md');
    const html = join(dir, 'report.html');
    const [a, b] = [await hookwireInProcess(['backtest', '--report', md, GUARD, next, join(dir, 'sessions')]), await hookwireInProcess(['backtest', '--report', html, GUARD, next, join(dir, 'sessions')])];
    expect(a.code).toBe(1);
    expect(a.stdout).toMatch(/own\.hwtrace\.jsonl\s+5\s+5\s+3\s+1\s+1\s+0\s+0/);
    expect(a.stdout).toMatch(/^skipped .*README\.md: /m);
    const mdText = readFileSync(md, 'utf8');
    expect(mdText).toMatch(/^### Hookwire backtest/);
    // [B7] Violated labels come first, before the top differences.
    expect(mdText.indexOf('#### Violated labels (3 of')).toBeGreaterThan(0);
    expect(mdText.indexOf('#### Violated labels')).toBeLessThan(mdText.indexOf('#### Top differences'));
    expect(a.stdout).toMatch(/^violated label .*golden\.jsonl step 4 \(e4\): decision: expected block_action, got continue; reason: /m);
    expect(mdText).toMatch(/\| new block \| .*own\\\.hwtrace\\\.jsonl \| 3 \|/);
    expect(existsSync(html)).toBe(true);
    expect(b.code).toBe(1);
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/<script|<link|src=/i);
  });

  it('[B6] every difference reaches the JSON through the run\'s temporary file, which is gone afterwards; the report keeps a bounded number', async () => {
    const dir = tempDir({});
    const lifts = guardDoc();
    lifts.nodes.find((n: { id: string }) => n.id === 'block-rm').enabled = false;
    writeFileSync(join(dir, 'lifts.json'), JSON.stringify(lifts));
    const header = { format: 'hookwire.trace', version: 1, trace_id: 't-many', agent_id: 'dev', source: { kind: 'test' }, created: '2026-03-01T10:00:00.000Z' };
    const lines = [header, ...Array.from({ length: 450 }, (_, i) => ({ event_id: `r${i}`, type: 'tool.before_call', ts: '2026-03-01T10:00:01.000Z', payload: { tool_name: 'Bash', tool_input: { command: `rm -rf build${i} «ü»` } } }))];
    writeFileSync(join(dir, 'many.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const ours = () => readdirSync(tmpdir()).filter((n) => n.startsWith('hookwire-backtest-')).length;
    const before = ours();
    const md = join(dir, 'r.md');
    const r = await hookwireInProcess(['backtest', '--json', '--report', md, GUARD, join(dir, 'lifts.json'), join(dir, 'many.jsonl')]);
    expect(r.code).toBe(0);
    const doc = BacktestReportSchema.parse(JSON.parse(r.stdout));
    expect(doc.files[0]!.lifted_blocks).toBe(450);
    expect(doc.files[0]!.differences.map((d) => d.event_id)).toEqual(lines.slice(1).map((l) => (l as { event_id: string }).event_id));
    expect(doc.files[0]!.differences[449]!.a.reason).toBe('destructive command: rm -rf build449 «ü»');
    expect(ours()).toBe(before);
    const report = readFileSync(md, 'utf8');
    expect(report).toContain('Top differences (20 of 450)');
  });

  it('[B1] worker threads give the same document as one thread', async () => {
    const { dir } = corpus();
    const next = join(dir, 'changed.json');
    const [one, two] = await Promise.all([
      hookwire(['backtest', '--json', '--workers', '0', '--progress', 'never', GUARD, next, join(dir, 'sessions')]),
      hookwire(['backtest', '--json', '--workers', '2', '--progress', 'never', GUARD, next, join(dir, 'sessions')]),
    ]);
    expect(two.stderr).toBe(one.stderr);
    expect(two.code).toBe(one.code);
    expect(JSON.parse(two.stdout)).toEqual(JSON.parse(one.stdout));
  });

  it('[B1] `none` as the old pipeline: a first pipeline over sessions that had no hooks, as a diff against the empty pipeline says; the same in worker threads', async () => {
    const { dir } = corpus();
    const own = join(dir, 'sessions', 'own.hwtrace.jsonl');
    const empty = join(dir, 'empty.pipeline.json');
    writeFileSync(empty, JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'none', event_types: [], nodes: [], wires: [], layout: { nodes: [] } }));
    const r = await hookwire(['backtest', '--json', '--workers', '0', 'none', GUARD, own]);
    expect(r.code, r.stderr).toBe(1); // the guard blocks what ran without hooks: new blocks
    const doc = BacktestReportSchema.parse(JSON.parse(r.stdout));
    expect(doc.old).toBe('none');
    const file = doc.files[0]!;
    // Nothing was blocked without hooks, so every difference is one the guard makes: no lifted block.
    expect(file.lifted_blocks).toBe(0);
    expect(file.new_blocks).toBeGreaterThan(0);
    expect(file.differences.map((x) => [x.event_id, x.category])).toContainEqual(['o1', 'new_block']);
    // The empty pipeline written as a file gives the same differences: `none` is that pipeline, nothing else.
    const d = await hookwireInProcess(['diff', '--json', empty, GUARD, own]);
    const lines = d.stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(file.differences.map((x) => ({ event_id: x.event_id, changes: x.changes, a: x.a, b: x.b }))).toEqual(lines.map((l) => ({ event_id: l.event_id, changes: l.changes, a: l.a, b: l.b })));
    const two = await hookwire(['backtest', '--json', '--workers', '2', '--progress', 'never', 'none', GUARD, own, join(dir, 'sessions', 'golden.jsonl')]);
    const twoDoc = JSON.parse(two.stdout);
    expect(twoDoc.old).toBe('none');
    expect(twoDoc.files[0].differences).toEqual(JSON.parse(JSON.stringify(file.differences)));
  });
});
