import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import { importTraceFile } from '../../../engine/node/readTraceFile.ts';
import { assembleOpenCodeSession } from '../../../engine/node/openCodeStorage.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { tempDir } from '../node/runCli.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

const NAME = 'opencode-export.json';

describe('OpenCode session (opencode export: opencode-export.json)', () => {
  it('[I18] counts by hand: 7 model calls (one per step), 5 tool calls, 2 prompts, 1 final answer, 1 API error', () => {
    const { trace, report } = loadFixture(NAME, 'opencode');
    expect(report).toMatchObject({ model_calls: 7, tool_calls: 5 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['The greeting test fails; fix it', 'now run the linter']);
    expect(ofType(trace, 'context.added')[0]?.payload.source).toBe('synthetic');
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['Fixed: the greeting now has a comma.']);
    expect(ofType(trace, 'agent.error')[0]?.payload.error).toBe('APIError: Overloaded');
    expect(trace.header).toMatchObject({ trace_id: 'ses_01jx0c2e9h7f3k5m8n0p2q4r6s', agent_id: 'opencode' });
    expect(trace.events.at(-1)?.payload.status).toBe('incomplete');
  });

  it('[I18] a step is one model call: provider/model, agent, reasoning, text and tool_use, the step-finish tokens', () => {
    const { trace } = loadFixture(NAME, 'opencode');
    const first = ofType(trace, 'model.after_call')[0]?.payload as JsonObject;
    expect(first).toMatchObject({ model: 'anthropic/claude-sonnet-4-5', agent: 'build' });
    expect(first.response).toEqual([
      { type: 'thinking', thinking: 'Run the tests first.' },
      { type: 'text', text: 'Running the tests.' },
      { type: 'tool_use', id: 'toolu_bash1', name: 'bash', input: { command: 'bun test', description: 'Run tests' } },
    ]);
    expect(first.usage).toEqual({ tokens: { input: 1500, output: 60, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0.004, reason: 'tool-calls' });
  });

  it('[I13][I18] tool calls with results: bash exit 1 and a status error are is_error; portable fields; the task\'s child session', () => {
    const { trace } = loadFixture(NAME, 'opencode');
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => [e.payload.tool_name, e.payload.tool, e.payload.command ?? e.payload.file_path ?? null, e.payload.is_error])).toEqual([
      ['bash', 'shell', 'bun test', true],
      ['read', 'read', '/w/src/greet.ts', false],
      ['edit', 'edit', '/w/src/greet.ts', true],
      ['task', 'task', null, false],
      ['edit', 'edit', '/w/src/greet.ts', false],
    ]);
    expect(after[0]?.payload.exit_code).toBe(1);
    expect(after[2]?.payload.tool_response).toBe('oldString not found in content');
    expect(after[3]?.payload.child_session_id).toBe('ses_01jx0c2e9h7f3k5m8n0p2q4zzz');
  });

  it('[I11] an unknown part kind is kept and listed; file and patch parts are annotations', () => {
    const { trace, problems, report } = loadFixture(NAME, 'opencode');
    expect(problems.map((p) => [p.code, p.severity])).toEqual([['unknown_record', 'warning']]);
    expect(problems[0]?.message).toMatch(/message 2: .*part future-part/);
    expect(report?.annotations).toMatchObject({ file: 1, patch: 1, 'unknown:part future-part': 1 });
    const kept = trace.events.flatMap((e) => ((e.meta?.annotations as JsonObject[] | undefined) ?? [])).find((a) => a.kind === 'unknown:part future-part');
    expect(kept?.record).toMatchObject({ id: 'prt_b09', note: 'a part kind this importer does not know' });
  });

  it('[I1][I11] a cut export keeps the messages before the cut and says where it ends; the wrong agent is named', () => {
    const text = readFormat(NAME);
    const cut = text.slice(0, text.lastIndexOf('\n    {') + 30);
    const r = importTrace(cut, { fileName: NAME });
    expect(r.format).toBe('opencode');
    expect(r.trace?.events.map((e) => e.type)).toEqual(expect.arrayContaining(['agent.start', 'input.received', 'tool.after_call', 'agent.end']));
    const problem = r.problems.find((p) => p.code === 'truncated');
    expect(problem).toMatchObject({ severity: 'error', line: cut.slice(0, cut.lastIndexOf('\n    {')).split('\n').length + 1 });
    expect(problem?.message).toMatch(/the file ends inside an element of "messages"/);
    expectWrongAgentNamed(text, 'cline', /OpenCode/);
    expectWrongAgentNamed(readFormat('aider.chat.history.md'), 'opencode', /aider/);
  });

  it('[I3] order and ids: well formed and stable', () => {
    expectWellFormed(readFormat(NAME), NAME);
  });

  it('[I1] detected by content, the export and a storage session file alike', () => {
    expect(detectTraceFormat(readFormat(NAME)).format).toBe('opencode');
    expect(detectTraceFormat(JSON.stringify({ id: 'ses_1', projectID: 'p', directory: '/w', title: 't', time: { created: 1, updated: 2 } })).format).toBe('opencode');
  });

  it('[I18] the storage folders (session, message, part files) are assembled by the Node reader; a broken part file is listed, the rest imports', async () => {
    const root = tempDir();
    const doc = JSON.parse(readFormat(NAME)) as { info: JsonObject; messages: { info: JsonObject; parts: JsonObject[] }[] };
    const sid = doc.info.id as string;
    mkdirSync(join(root, 'storage', 'session', 'proj1'), { recursive: true });
    const sessionFile = join(root, 'storage', 'session', 'proj1', `${sid}.json`);
    writeFileSync(sessionFile, JSON.stringify(doc.info));
    for (const m of doc.messages) {
      const mid = m.info.id as string;
      mkdirSync(join(root, 'storage', 'message', sid), { recursive: true });
      writeFileSync(join(root, 'storage', 'message', sid, `${mid}.json`), JSON.stringify(m.info));
      mkdirSync(join(root, 'storage', 'part', mid), { recursive: true });
      for (const p of m.parts) writeFileSync(join(root, 'storage', 'part', mid, `${p.id as string}.json`), JSON.stringify(p));
    }
    // Assembled a message at a time [I1]: the session's info, each message with its parts, the end.
    const pieces = [...(assembleOpenCodeSession(sessionFile) ?? [])];
    expect(pieces).toHaveLength(doc.messages.length + 2);
    const byId = (a: { id?: unknown }, b: { id?: unknown }) => (String(a.id) < String(b.id) ? -1 : 1);
    expect(JSON.parse(pieces.join(''))).toEqual({ info: doc.info, messages: [...doc.messages].sort((a, b) => byId(a.info, b.info)).map((m) => ({ info: m.info, parts: [...m.parts].sort(byId) })) });
    const whole = await importTraceFile(sessionFile);
    const fromExport = importTrace(readFormat(NAME), { fileName: NAME }).trace!;
    const shape = (e: TraceEvent) => [e.type, e.payload.tool_use_id ?? null];
    expect(whole.trace?.events.map(shape)).toEqual(fromExport.events.map(shape));
    // A cut part file: listed with its name (an error: the import is partial), everything else still there.
    writeFileSync(join(root, 'storage', 'part', doc.messages[1]!.info.id as string, 'prt_b17.json'), '{"id":"prt_b17","type":"to');
    const partial = await importTraceFile(sessionFile);
    expect(partial.problems.filter((p) => p.severity === 'error').map((p) => p.code)).toEqual(['unreadable_record']);
    expect(partial.problems.find((p) => p.code === 'unreadable_record')?.message).toMatch(/part file .*prt_b17\.json: not valid JSON/);
    expect(ofType(partial.trace!, 'tool.before_call')).toHaveLength(4);
  });
});
