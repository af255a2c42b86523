import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionsCommand } from '../../../engine/node/commands/sessionsCommand.ts';
import { importTraceFile } from '../../../engine/node/readTraceFile.ts';
import { openSqliteStore } from '../../../engine/node/sqliteSessions.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { importCursorWhole } from '../trace/cursorWhole.ts';

// #29 [I23]: Cursor's own store. A state.vscdb made here with sql.js, in the shape public readers of the store
// describe (michaeldhood/chatrxiv docs/cursor/storage-reference.md: ItemTable and cursorDiskKV, each
// `key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB`; rows composerData:<id> and bubbleId:<id>:<bubble>;
// kenn-io/agentsview internal/parser/cursor_vscdb.go: a bubble's toolFormerData). The chat is our own, synthetic.
const home = mkdtempSync(join(tmpdir(), 'hookwire-cursor-'));
const storeDir = join(home, '.config', 'Cursor', 'User', 'globalStorage');
const DB = join(storeDir, 'state.vscdb');
const T0 = Date.UTC(2026, 2, 3, 9);

const composer = {
  _v: 10,
  composerId: 'c-main',
  name: 'Tidy the build',
  createdAt: T0,
  lastUpdatedAt: T0 + 60_000,
  status: 'completed',
  unifiedMode: 'agent',
  modelConfig: { modelName: 'claude-4-sonnet', maxMode: false },
  subagentComposerIds: ['c-sub'],
  fullConversationHeadersOnly: [
    { bubbleId: 'u1', type: 1 },
    { bubbleId: 'a1', type: 2, serverBubbleId: 's1' },
    { bubbleId: 't1', type: 2 },
    { bubbleId: 't2', type: 2 },
    { bubbleId: 'a2', type: 2 },
    { bubbleId: 'x1', type: 2 },
    { bubbleId: 'gone', type: 2 },
    { bubbleId: 'bad', type: 2 },
    { bubbleId: 'u2', type: 1 },
    { bubbleId: 'a3', type: 2 },
  ],
};
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const bubbles: Record<string, unknown> = {
  u1: { _v: 3, type: 1, bubbleId: 'u1', text: 'Delete the build folder and check the config', createdAt: at(1), requestId: 'r1' },
  a1: { _v: 3, type: 2, bubbleId: 'a1', text: 'I will look first.', thinking: { text: 'List, then delete.' }, tokenCount: { inputTokens: 1200, outputTokens: 40 }, modelInfo: { modelName: 'claude-4-sonnet-thinking' } },
  t1: {
    _v: 3, type: 2, bubbleId: 't1', text: '', tokenCount: { inputTokens: 0, outputTokens: 12 },
    toolFormerData: { name: 'run_terminal_cmd', toolCallId: 'call-1', status: 'completed', params: JSON.stringify({ command: 'rm -rf build', is_background: false }), result: JSON.stringify({ output: '', exitCode: 0 }) },
  },
  t2: { _v: 3, type: 2, bubbleId: 't2', toolFormerData: { name: 'read_file', toolCallId: 'call-2', status: 'error', rawArgs: JSON.stringify({ target_file: 'config/missing.json' }), result: 'File not found' } },
  a2: { _v: 3, type: 2, bubbleId: 'a2', text: 'The build folder is gone; config/missing.json does not exist.', createdAt: at(5), tokenCount: { inputTokens: 1500, outputTokens: 30 } },
  x1: { _v: 3, type: 7, bubbleId: 'x1', text: 'a kind of bubble this importer does not know' },
  bad: '{"_v":3,"type":2,"bubbleId":"bad","text":"cut sho',
  u2: { _v: 3, type: 1, bubbleId: 'u2', text: 'Thanks', createdAt: at(9) },
  a3: { _v: 3, type: 2, bubbleId: 'a3', text: 'You are welcome.', createdAt: at(10) },
};

beforeAll(async () => {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  db.run('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  db.run("INSERT INTO ItemTable VALUES ('workbench.panel.aichat.view.aichat.chatdata', '{}')");
  const put = (key: string, value: unknown, blob = false) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    db.run('INSERT INTO cursorDiskKV VALUES (?, ?)', [key, blob ? new TextEncoder().encode(text) : text]);
  };
  // The main chat's composerData as a BLOB of UTF-8 JSON, its bubbles as text: both are read.
  put('composerData:c-main', composer, true);
  for (const [id, b] of Object.entries(bubbles)) put(`bubbleId:c-main:${id}`, b);
  // A bubble of another chat whose id starts like this one's: not read into it.
  put('bubbleId:c-main2:u1', { type: 1, bubbleId: 'u1', text: 'another chat' });
  put('composerData:c-main2', { _v: 10, composerId: 'c-main2', createdAt: T0 + 3_600_000, lastUpdatedAt: T0 + 3_600_000, fullConversationHeadersOnly: [{ bubbleId: 'u1', type: 1 }] });
  // A chat opened and never used: not listed.
  put('composerData:c-empty', { _v: 10, composerId: 'c-empty', createdAt: T0, fullConversationHeadersOnly: [], conversationMap: {} });
  mkdirSync(storeDir, { recursive: true });
  writeFileSync(DB, db.export());
  db.close();
});

const byType = (events: TraceEvent[], type: string) => events.filter((e) => e.type === type);

describe('Cursor\'s state.vscdb [I23]', () => {
  it('one chat as <db>#<composer id>: prompts, model calls with their model and summed tokens, tool calls with arguments, results and failures, the answer', async () => {
    const events: TraceEvent[] = [];
    const out = await importTraceFile(`${DB}#c-main`, { onEvent: (e) => events.push(e) });
    expect(out.format).toBe('cursor');
    expect(out.trace?.header.trace_id).toBe('c-main');
    expect(events.map((e) => e.type)).toEqual([
      'agent.start', 'input.received',
      'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call', 'tool.before_call', 'tool.after_call',
      'model.before_call', 'model.after_call', 'final_answer.before', 'final_answer.after',
      'input.received', 'model.before_call', 'model.after_call', 'final_answer.before', 'final_answer.after', 'agent.end',
    ]);
    expect(events[0]!.payload).toMatchObject({ session_id: 'c-main', title: 'Tidy the build', mode: 'agent', model: 'claude-4-sonnet', subagent_composer_ids: ['c-sub'] });
    expect(events[0]!.ts).toBe(new Date(T0).toISOString());
    expect(byType(events, 'input.received').map((e) => e.payload.prompt)).toEqual(['Delete the build folder and check the config', 'Thanks']);
    const [call1, , call3] = byType(events, 'model.after_call');
    // One model call: the thinking and text bubble and the tool bubbles that end it; its tokens summed.
    expect(call1!.payload).toMatchObject({ model: 'claude-4-sonnet-thinking', usage: { input_tokens: 1200, output_tokens: 52 } });
    expect(call1!.payload.response).toEqual([
      { type: 'thinking', thinking: 'List, then delete.' },
      { type: 'text', text: 'I will look first.' },
      { type: 'tool_use', id: 'call-1', name: 'run_terminal_cmd', input: { command: 'rm -rf build', is_background: false } },
      { type: 'tool_use', id: 'call-2', name: 'read_file', input: { target_file: 'config/missing.json' } },
    ]);
    expect(call3!.payload.model).toBe('claude-4-sonnet');
    expect(call3!.payload.usage).toBeUndefined();
    const [shell, read] = byType(events, 'tool.after_call');
    expect(byType(events, 'tool.before_call')[0]!.payload).toMatchObject({ tool_name: 'run_terminal_cmd', tool_use_id: 'call-1', tool: 'shell', command: 'rm -rf build' });
    expect(shell!.payload).toMatchObject({ is_error: false, tool_response: { output: '', exitCode: 0 }, tool: 'shell' });
    expect(read!.payload).toMatchObject({ tool_name: 'read_file', is_error: true, status: 'error', tool_response: 'File not found', tool: 'read', file_path: 'config/missing.json' });
    expect(byType(events, 'final_answer.after').map((e) => e.payload.text)).toEqual(['The build folder is gone; config/missing.json does not exist.', 'You are welcome.']);
    expect(events.at(-1)!.payload).toMatchObject({ status: 'completed' });
    // Nothing dropped silently: the missing and the cut bubble are errors (a partial import), the unknown kind a warning kept as an annotation.
    const errors = out.problems.filter((p) => p.severity === 'error').map((p) => p.message);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/bubble 7: bubble gone: no row bubbleId:c-main:gone/);
    expect(errors[1]).toMatch(/bubble 8: bubble bad: its value is not a JSON object/);
    expect(out.problems.filter((p) => p.code === 'unknown_record').map((p) => p.message)).toEqual([expect.stringMatching(/bubble 6: a record of unknown kind "bubble type 7"/)]);
    expect(JSON.stringify(events)).toContain('a kind of bubble this importer does not know');
  });

  it('a bare database path is refused with the chats it holds (an empty chat is not one); the assembled chat is detected as Cursor by content', async () => {
    const out = await importTraceFile(DB);
    expect(out.trace).toBeNull();
    expect(out.problems[0]!.message).toMatch(/holds 2 sessions: import one as .*state\.vscdb#<session id>/);
    expect(out.problems[0]!.message).toContain('c-main (Tidy the build)');
    expect(out.problems[0]!.message).toContain('c-main2');
    expect(out.problems[0]!.message).not.toContain('c-empty');
    const store = await openSqliteStore(DB);
    if ('error' in store) throw new Error(store.error);
    try {
      const text = [...store.assemble('c-main2')!].join('');
      expect(detectTraceFormat(text).format).toBe('cursor');
      // The other chat's bubble is its own, not c-main's u1.
      expect(JSON.parse(text).conversation).toEqual([{ type: 1, bubbleId: 'u1', text: 'another chat' }]);
      expect(store.assemble('nope')).toBeNull();
    } finally {
      store.close();
    }
  });

  it('[I1][I23] a composer is assembled a bubble at a time (each row read as it is taken) and imports as the whole composer did', async () => {
    const store = await openSqliteStore(DB);
    if ('error' in store) throw new Error(store.error);
    try {
      const pieces = [...store.assemble('c-main')!];
      // The head (composerId first, the start's members, null where the row has none), one piece a bubble, the close.
      expect(pieces).toHaveLength(composer.fullConversationHeadersOnly.length + 2);
      const doc = JSON.parse(pieces.join('')) as Record<string, unknown>;
      expect(Object.keys(doc)[0]).toBe('composerId');
      expect(doc.forceMode).toBeNull();
      const events: TraceEvent[] = [];
      const out = await importTraceFile(`${DB}#c-main`, { onEvent: (e) => events.push(e) });
      // The oracle: the importer as it was when the composer was read whole, on the composer without the added nulls.
      for (const k of Object.keys(doc)) if (doc[k] === null) delete doc[k];
      const whole = importCursorWhole(doc, { fileName: 'state.vscdb#c-main', fallbackTraceId: 'cursor-state.vscdb#c-main' });
      if (!whole.ok) throw new Error('the oracle refused the composer');
      expect(events).toEqual(whole.trace.events);
      expect(out.report).toEqual(whole.report);
      expect(out.problems).toEqual(whole.problems ?? []);
    } finally {
      store.close();
    }
  });

  it('hookwire sessions lists each chat of Cursor\'s store at its default place as state.vscdb#<composer id>, with its own time', async () => {
    let stdout = '';
    const io = { out: (t: string) => void (stdout += t), err: () => {} };
    await sessionsCommand({ agent: 'cursor', json: true }, io, { HOME: home });
    const rows = stdout.trim().split('\n').map((l) => JSON.parse(l) as { agent: string; path: string; modified: string; events: number; format: string; problems: number });
    expect(rows.map((r) => r.path).sort()).toEqual([`${DB}#c-main`, `${DB}#c-main2`]);
    const main = rows.find((r) => r.path.endsWith('#c-main'))!;
    expect(main).toMatchObject({ agent: 'cursor', format: 'cursor', modified: new Date(T0 + 60_000).toISOString(), events: 18, problems: 2 });
    stdout = '';
    await sessionsCommand({ agent: 'cursor', json: true, since: new Date(T0 + 1_800_000).toISOString() }, io, { HOME: home });
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l).path)).toEqual([`${DB}#c-main2`]);
  });
});
