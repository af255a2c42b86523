import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/readTraceFile.ts';
import { findSessions, sessionLocations } from '../../../engine/node/sessionLocations.ts';

/*
 * [I4][I11] Claude Code 2.1.233 and later keeps a subagent's records in <project>/<session id>/subagents/
 * agent-<id>.jsonl, no longer in the session's transcript (agent-top-core src/harness/claude.rs, verified on 2.1.259;
 * blavka/agents-tree providers/claude.py). Importing the transcript alone left the subagents' calls out without a
 * word, and `hookwire sessions` did not list them. The lines below are our own, written from those descriptions.
 */
const home = mkdtempSync(join(tmpdir(), 'hw-cc-sub-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const rec = (o: object) => JSON.stringify({ sessionId: 's-main', cwd: '/w', version: '2.1.259', timestamp: '2026-09-01T10:00:01.000Z', ...o });
const MAIN = [
  rec({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Find the flaky test' } }),
  rec({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'tool_use', id: 't1', name: 'Agent', input: { subagent_type: 'Explore', prompt: 'Which test is flaky?' } }] } }),
  rec({ type: 'user', uuid: 'u2', parentUuid: 'a1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'retry.test.ts' }] } }),
].join('\n');
const SUB = [
  rec({ type: 'user', uuid: 'su1', parentUuid: null, isSidechain: true, agentId: 'ab12', message: { role: 'user', content: 'Which test is flaky?' } }),
  rec({ type: 'assistant', uuid: 'sa1', parentUuid: 'su1', isSidechain: true, agentId: 'ab12', message: { id: 'msg_s1', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'tool_use', id: 'ts1', name: 'Bash', input: { command: 'npx vitest run --reporter=verbose' } }] } }),
].join('\n');

const projects = join(home, '.claude', 'projects');
const project = join(projects, '-w');
mkdirSync(join(project, 's-main', 'subagents'), { recursive: true });
writeFileSync(join(project, 's-main.jsonl'), `${MAIN}\n`);
writeFileSync(join(project, 's-main', 'subagents', 'agent-ab12.jsonl'), `${SUB}\n`);
writeFileSync(join(project, 's-main', 'subagents', 'agent-ab12.meta.json'), JSON.stringify({ agentType: 'Explore', toolUseId: 't1' }));
// An older version's sidechain file at the project's level, and a transcript without subagents.
writeFileSync(join(project, 'agent-old1.jsonl'), `${SUB}\n`);
writeFileSync(join(project, 's-other.jsonl'), `${MAIN.replaceAll('s-main', 's-other')}\n`);

describe('Claude Code subagent transcripts beside the session [I4][I11]', () => {
  it('importing the session says which subagent transcripts are beside it, not in it (a warning, with their paths)', async () => {
    const r = await importTraceFile(join(project, 's-main.jsonl'));
    expect(r.format).toBe('claude-code');
    const said = r.problems.filter((p) => p.severity === 'warning' && /subagent transcript/.test(p.message));
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toContain(join(project, 's-main', 'subagents', 'agent-ab12.jsonl'));
    const other = await importTraceFile(join(project, 's-other.jsonl'));
    expect(other.problems.filter((p) => /subagent/.test(p.message))).toEqual([]);
  });

  it('a subagent transcript imports on its own, its calls under the sidechain agent with their portable fields', async () => {
    const r = await importTraceFile(join(project, 's-main', 'subagents', 'agent-ab12.jsonl'));
    const call = r.trace?.events.find((e) => e.type === 'tool.before_call');
    expect(call).toMatchObject({ agent_id: 'claude-code:sidechain', payload: { tool: 'shell', command: 'npx vitest run --reporter=verbose' } });
  });

  it('hookwire sessions lists the subagent transcripts once each, beside the sessions and the older project-level files', () => {
    const found = findSessions(sessionLocations({ HOME: home }, 'linux', '/nowhere'), { agent: 'claude-code' }).map((f) => f.path.slice(projects.length + 1)).sort();
    expect(found).toEqual(['-w/agent-old1.jsonl', '-w/s-main.jsonl', '-w/s-main/subagents/agent-ab12.jsonl', '-w/s-other.jsonl']);
  });
});
