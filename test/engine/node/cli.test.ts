import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTrace } from '../../../engine/trace/index.ts';
import { FIXTURE, FIXTURES_DIR } from '../../shared/fixtures.ts';
import { FORMAT_DIR, FORMAT_FIXTURES } from '../../shared/formatFixtures.ts';
import { FIXTURES, GUARD, ROOT, hookwire, hookwireInProcess, tempDir } from './runCli.ts';

const GOLDEN = join(FIXTURES, 'golden');
const SESSION = join(GOLDEN, 'session.jsonl');
const CLAUDE_FIXTURE = join(FIXTURES_DIR, FIXTURE.ccShort);
const guardDoc = () => JSON.parse(readFileSync(GUARD, 'utf8'));

/** A variant of the guard pipeline: a lower token budget and `cat .env` blocked. */
function stricter(): string {
  const doc = guardDoc();
  doc.name = 'guard-strict';
  doc.nodes.find((n: { id: string }) => n.id === 'budget').action.limit = 500;
  doc.nodes.push({ id: 'env', kind: 'matcher', when: { 'payload.tool_input.command': { contains: '.env' } } });
  doc.nodes.push({ id: 'block-env', kind: 'handler', name: 'No .env', action: { type: 'block', reason: 'reads secrets' } });
  doc.wires.push({ from: 'before', to: 'env' }, { from: 'env', to: 'block-env' });
  return JSON.stringify(doc);
}

// Tests run one after another; each starts its subprocesses together (two run at a time, see runCli.ts).
describe('hookwire CLI (real binary)', { timeout: 120_000 }, () => {
  it('[P9] --help lists every command with exit 0; no command or an unknown one is a usage error (exit 2)', async () => {
    const [help, none, unknown, missingArg] = await Promise.all([hookwire(['--help']), hookwire([]), hookwire(['frobnicate']), hookwire(['replay', GUARD])]);
    expect(help.code).toBe(0);
    for (const c of ['validate', 'replay', 'diff', 'test', 'import', 'schema', 'claude-hook']) expect(help.stdout).toContain(c);
    expect(help.stdout).toContain('Exit codes');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: hookwire');
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'frobnicate'") });
    expect(missingArg).toMatchObject({ code: 2, stderr: expect.stringContaining("missing required argument 'trace'") });
  });

  it('[P9] the prebuilt bundle and the TypeScript sources answer alike', async () => {
    const fromBundle = await hookwire(['validate', GUARD]);
    const fromSource = await hookwire(['validate', GUARD], { env: { HOOKWIRE_FROM_SOURCE: '1' } });
    expect(fromSource).toEqual(fromBundle);
    expect(fromBundle.code).toBe(0);
  });

  it('[P9][V2] validate: a good pipeline exits 0; a bad one lists every problem with its path and its node (label and id) and exits 1; a missing file exits 2', async () => {
    const doc = guardDoc();
    doc.nodes[7].when['payload.tool_input.command'].regex = '(unclosed';
    doc.nodes.push({ id: 'm2', kind: 'matcher', when: { 'payload.x': { between: [1, 2] }, 'paylod.y': 1 } });
    doc.wires.push({ from: 'before', to: 'm2' }, { from: 'm2', to: 'block-rm' });
    const code = { format: 'hookwire.pipeline', version: 1, name: 'c', nodes: [{ id: 'e', kind: 'event', pattern: '*' }, { id: 'h', kind: 'handler', name: 'H', action: { type: 'code', language: 'ts', source: "export default function (ctx) {\n  return block('x' +;\n}" } }], wires: [{ from: 'e', to: 'h' }] };
    const dir = tempDir({ 'bad.json': JSON.stringify(doc), 'broken.json': '{\n  "format": "hookwire.pipeline",\n  oops\n}', 'code.json': JSON.stringify(code) });
    const [good, bad, broken, missing, badCode] = await Promise.all([
      hookwire(['validate', GUARD]),
      hookwire(['validate', join(dir, 'bad.json')]),
      hookwire(['validate', join(dir, 'broken.json')]),
      hookwire(['validate', join(dir, 'nope.json')]),
      hookwire(['validate', join(dir, 'code.json')]),
    ]);
    expect(good).toMatchObject({ code: 0, stdout: expect.stringContaining('valid (pipeline "guard": 20 nodes, 8 handlers, 13 wires); 0 errors, 0 warnings') });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^error +nodes\[7\]\.when\["payload\.tool_input\.command"\]\.regex \[node "rm -rf" \(rm\)\]: .*\(bad_regex\)$/m);
    expect(bad.stdout).toMatch(/^error +nodes\[20\]\.when\["payload\.x"\]\.between \[node m2\]: unknown operator "between".*\(unknown_operator\)$/m);
    expect(bad.stdout).toMatch(/^error +nodes\[20\]\.when\["paylod\.y"\] \[node m2\]: .*\(bad_path\)$/m);
    expect(bad.stdout).toContain('invalid; 3 errors, 0 warnings');
    expect(broken).toMatchObject({ code: 1, stdout: expect.stringMatching(/not valid JSON at line 3, column 3.*\(not_json\)/) });
    expect(missing).toMatchObject({ code: 2, stdout: '', stderr: `hookwire validate: cannot read pipeline ${join(dir, 'nope.json')}: no such file\n` });
    // Code is compiled in a real QuickJS sandbox, and its error points into the user's source.
    expect(badCode).toMatchObject({ code: 1, stdout: expect.stringMatching(/^error +nodes\[1\]\.action\.source \[node "H" \(h\)\]: .*line 2, column \d+.*\(code_error\)$/m) });
  });

  it('[P10] replay: a table by default; --json gives one stable object per event', async () => {
    const [table, json] = await Promise.all([hookwire(['replay', GUARD, SESSION]), hookwire(['replay', '--json', GUARD, SESSION])]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^#\s+event\s+type\s+decision\s+decided by\s+notes\s+reason$/m);
    expect(table.stdout).toMatch(/^4\s+e4\s+tool\.before_call\s+block_action\s+block-rm\s+destructive command: rm -rf \/$/m);
    expect(table.stdout).toMatch(/^5\s+e5\s+tool\.before_call\s+continue\s+-\s+rewritten$/m);
    expect(table.stdout).toMatch(/^9\s+e9\s+final_answer\.before\s+terminate\s+budget\s+not reached \(run ended at #8\)\s+token budget exceeded: 1200 > 1000$/m);
    expect(table.stdout).toContain('9 events: 5 continue, 2 block_action, 1 terminate, 1 not_reached\nSteps after #2 are counterfactual');
    expect(json.code).toBe(0);
    const lines = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(9);
    for (const l of lines) expect(Object.keys(l)).toEqual(['event_id', 'type', 'decision', 'reason', 'decided_by', 'payload']);
    expect(lines[4]).toEqual({ event_id: 'e5', type: 'tool.before_call', decision: 'continue', reason: '', decided_by: null, payload: { tool_name: 'Bash', tool_input: { command: 'deploy --token=[REDACTED] now' }, tool_use_id: 'u2' } });
    expect(lines[7]).toMatchObject({ event_id: 'e8', decision: 'terminate', reason: 'token budget exceeded: 1200 > 1000', decided_by: 'budget' });
    // meta.expect annotations are plain metadata to replay: they change nothing.
    expect(lines.map((l) => l.decision)).toEqual(['continue', 'block_action', 'continue', 'block_action', 'continue', 'continue', 'continue', 'terminate', 'terminate']);
  });

  it('[P9][I1] replay reads any importable format; a bad line is reported and the rest replayed; unreadable traces and refused pipelines exit 2', async () => {
    const lines = readFileSync(SESSION, 'utf8').split('\n');
    lines.splice(3, 0, '{"event_id": "bad", "type": "tool.before_call"');
    const dir = tempDir({ 'partial.jsonl': lines.join('\n'), 'junk.txt': 'hello\nworld\n', 'refused.json': JSON.stringify({ ...guardDoc(), nodes: [] }) });
    const [partial, junk, refused, claude] = await Promise.all([
      hookwire(['replay', '--json', GUARD, join(dir, 'partial.jsonl')]),
      hookwire(['replay', GUARD, join(dir, 'junk.txt')]),
      hookwire(['replay', join(dir, 'refused.json'), SESSION]),
      existsSync(CLAUDE_FIXTURE) ? hookwire(['replay', '--json', GUARD, CLAUDE_FIXTURE]) : Promise.resolve(null),
    ]);
    expect(partial.code).toBe(1); // a dropped line: the replay is of a partial trace [P9]
    expect(partial.stdout.trimEnd().split('\n')).toHaveLength(9);
    expect(partial.stderr).toMatch(/partial\.jsonl: error: line 4: .*(JSON|truncated)/);
    expect(junk).toMatchObject({ code: 2, stdout: '' });
    expect(junk.stderr).toContain(`hookwire replay: cannot read trace ${join(dir, 'junk.txt')}:\n  cannot import junk.txt: the content is not a recording Hookwire reads (it is `);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/pipeline .*refused\.json is refused \(\d+ errors?\):\nerror +wires\[0\]/);
    if (claude === null) return console.warn(`skipped the Claude Code transcript case: ${CLAUDE_FIXTURE} is absent`);
    expect(claude.code).toBe(0);
    const events = claude.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(events[0]).toMatchObject({ type: 'agent.start', decision: 'continue' });
    expect(events.at(-1)).toMatchObject({ type: 'agent.end' });
  });

  it('[P9] diff: the events two pipelines decide differently, exit 1; identical decisions exit 0', async () => {
    const dir = tempDir({ 'strict.json': stricter() });
    const [differ, same, json] = await Promise.all([
      hookwire(['diff', GUARD, join(dir, 'strict.json'), SESSION]),
      hookwire(['diff', GUARD, GUARD, SESSION]),
      hookwire(['diff', '--json', GUARD, join(dir, 'strict.json'), SESSION]),
    ]);
    expect(differ.code).toBe(1);
    expect(differ.stdout).toMatch(/^7\s+e7\s+model\.after_call\s+outcome\s+continue \(-\)\s+terminate \(budget\)$/m);
    expect(differ.stdout).toContain('3 of 9 events differ:\n  1 event continued before now terminates the run\n');
    expect(same).toMatchObject({ code: 0, stdout: '0 of 9 events differ:\n  No event changes: both pipelines decide the same on all 9 events\n' });
    const rows = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.event_id, r.changes, r.a.outcome, r.b.outcome])).toEqual([
      ['e7', ['outcome'], 'continue', 'terminate'],
      ['e8', ['outcome'], 'terminate', 'not_reached'],
      ['e9', ['reason'], 'not_reached', 'not_reached'],
    ]);
    expect(Object.keys(rows[0])).toEqual(['event_id', 'type', 'changes', 'a', 'b']);
  });

  it('[P11] test: pass/fail per event, a summary line, exit 1 on any failure', async () => {
    const dir = tempDir({ 'strict.json': stricter(), 'empty.jsonl': readFileSync(SESSION, 'utf8').replace(/,"meta":\{"expect":\{[^}]*\}\}/g, '').replace(/,"meta":\{"expect":\{.*\}\}\}/g, '') });
    const [pass, fail, nothing] = await Promise.all([
      hookwire(['test', GUARD, GOLDEN]),
      hookwire(['test', join(dir, 'strict.json'), SESSION]),
      hookwire(['test', GUARD, join(dir, 'empty.jsonl'), join(dir, 'missing.jsonl')]),
    ]);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain(`pass ${join(GOLDEN, 'session.jsonl')} e4 tool.before_call → block_action`);
    expect(pass.stdout.trimEnd().split('\n').at(-1)).toBe('1 file: 8 passed, 0 failed');
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain(`FAIL ${SESSION} e7 model.after_call → terminate\n     decision: expected continue, got terminate\n`);
    expect(fail.stdout).toContain('     reason: expected "token budget exceeded: 1200 > 1000", got "token budget exceeded: 600 > 1000"');
    expect(fail.stdout.trimEnd().split('\n').at(-1)).toBe('1 file: 6 passed, 2 failed');
    expect(nothing).toMatchObject({ code: 2, stderr: expect.stringContaining('missing.jsonl: no such file') });
  });

  it('[P9][I1] import writes trace v1 JSON Lines (stdout or -o) with a report on stderr; a bad --from is a usage error', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    const [toFile, badFrom, notATrace] = await Promise.all([
      existsSync(CLAUDE_FIXTURE) ? hookwire(['import', CLAUDE_FIXTURE, '-o', out]) : Promise.resolve(null),
      hookwire(['import', '--from', 'word-doc', SESSION]),
      hookwire(['import', '--from', 'swe-agent', SESSION]),
    ]);
    expect(badFrom).toMatchObject({ code: 2, stderr: expect.stringContaining("argument 'word-doc' is invalid. Allowed choices are hookwire-trace, claude-code, codex-rollout, otel-genai, otlp-json, otel-spans-jsonl, otel-console, swe-agent, mini-swe-agent, openhands") });
    expect(notATrace.code).toBe(2);
    expect(notATrace.stderr).toMatch(/^hookwire import: cannot read trace .*session\.jsonl:\n {2}\S/);
    if (toFile === null) return console.warn(`skipped the import case: ${CLAUDE_FIXTURE} is absent`);
    expect(toFile).toMatchObject({ code: 0, stdout: '', stderr: `imported Claude Code session transcript (JSONL): 9 events to ${out}\n` });
    const read = readTrace(readFileSync(out, 'utf8'));
    expect(read.status).toBe('ok');
    expect(read.header?.source.kind).toBe('claude-code');
    expect(read.events).toHaveLength(9);
  });

  it('[P9][I1] import --from a format the file is not: exit 2, saying what the file looks like; the same file auto-detected imports', async () => {
    const codex = join(FORMAT_DIR, FORMAT_FIXTURES.codex);
    const [forced, auto] = await Promise.all([hookwire(['import', '--from', 'openhands', codex]), hookwire(['import', codex])]);
    expect(forced).toMatchObject({ code: 2, stdout: '' });
    expect(forced.stderr).toMatch(/cannot read trace .*codex-rollout\.jsonl:\n {2}this is not OpenHands event stream \(JSON\): it looks like Codex CLI session rollout \(JSONL\)/);
    expect(auto.code).toBe(0);
    expect(auto.stderr).toBe('imported Codex CLI session rollout (JSONL): 16 events\n');
    expect(readTrace(auto.stdout).events.filter((e) => e.type === 'tool.before_call')).toHaveLength(2);
  });

  it('schema prints the pipeline JSON Schema (and a trace line\'s with --trace)', async () => {
    const [pipeline, trace] = await Promise.all([hookwire(['schema']), hookwire(['schema', '--trace'])]);
    expect(pipeline.code).toBe(0);
    expect(pipeline.stdout).toBe(readFileSync(join(ROOT, 'engine', 'schema', 'pipeline.v1.schema.json'), 'utf8'));
    expect(JSON.parse(trace.stdout).$id).toBe('https://unpkg.com/hookwire/dist/schema/trace.v1.schema.json');
  });
});

describe('hookwire CLI --help of each command (in-process)', () => {
  it('[P9] every command has --help with its arguments and options', async () => {
    const expected: Record<string, string[]> = {
      validate: ['<pipeline>', '--json'],
      replay: ['<pipeline>', '<trace>', '--json', '--from <format>'],
      diff: ['<a>', '<b>', '<trace>', '--json'],
      backtest: ['<old>', '<new>', '<traces...>', '--json', '--fail-on <what>', '--report <file>', '--workers <n>'],
      test: ['<pipeline>', '<tests...>', 'meta.expect'],
      import: ['<file>', '--from <format>', '-o, --output <file>'],
      schema: ['--trace'],
      'claude-hook': ['[pipeline]', '--record <trace>', '--audit <file>', '--lock-timeout <ms>', '--server <url>', '--deadline <ms>', 'Fails closed'],
      serve: ['<pipeline>', '--port <port>', '--state-dir <dir>', '--flush <policy>', '--max-body <bytes>', '--allow-origin <origin...>', 'Bearer'],
    };
    for (const [command, parts] of Object.entries(expected)) {
      const r = await hookwireInProcess([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout).toContain(`Usage: hookwire ${command}`);
      for (const p of parts) expect(r.stdout, `${command} --help`).toContain(p);
    }
  });

  it('[P10] replay runs code handlers in a QuickJS sandbox made for the pipeline', async () => {
    const code = {
      format: 'hookwire.pipeline', version: 1, name: 'code',
      nodes: [
        { id: 'tools', kind: 'event', pattern: 'tool.before_call' },
        { id: 'h', kind: 'handler', name: 'Code', action: { type: 'code', language: 'ts', source: "export default (ctx: HandlerContext) => ctx.payload.tool_name === 'Bash' ? block('no shell at ' + new Date().toISOString()) : null" } },
      ],
      wires: [{ from: 'tools', to: 'h' }],
    };
    const dir = tempDir({ 'code.json': JSON.stringify(code) });
    const r = await hookwireInProcess(['replay', '--json', join(dir, 'code.json'), SESSION]);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(rows.filter((x) => x.decided_by === 'h').map((x) => [x.event_id, x.reason])).toEqual([
      ['e4', 'no shell at 2026-03-01T10:00:03.000Z'],
      ['e5', 'no shell at 2026-03-01T10:00:04.000Z'],
    ]);
  });
});
