import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionsCommand } from '../../../engine/node/commands/sessionsCommand.ts';
import { importTraceFile } from '../../../engine/node/readTraceFile.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';

// #29 [I24]: the chats older Cursor versions kept in each workspace's own state.vscdb, under ItemTable keys.
// The databases are made here with sql.js, in the shapes public readers of the store describe
// (thomas-pedersen/cursor-chat-browser 97e04a6 src/types/workspace.ts and tabs/route.ts: the chat panel's
// `{tabs: [{tabId, chatTitle, lastSendTime, bubbles: [{type: "user" | "ai", …}]}]}` and `composer.composerData`
// `{allComposers: [{composerId, conversation: [{type: 1 | 2, bubbleId, text, timestamp}]}]}`;
// somogyijanos/cursor-chat-export src/export.py: `rawText`, `modelType`, `delegate.a`, Lexical `initText`,
// `selections`; S2thend/cursor-history src/core/parser.ts: aiService.generations `{unixMs, generationUUID, type,
// textDescription}`; mishanefedov/agentwatch#2: aiService.prompts `{text, commandType}`). The chats are our own.
const home = mkdtempSync(join(tmpdir(), 'hookwire-cursor-ws-'));
const wsDir = join(home, '.config', 'Cursor', 'User', 'workspaceStorage', '3f2a9c');
const DB = join(wsDir, 'state.vscdb');
const HEADS_DB = join(home, 'heads.vscdb');
const BROKEN_DB = join(home, 'broken.vscdb');
const PLAIN_DB = join(home, 'plain.vscdb');
const T0 = Date.UTC(2024, 8, 2, 14);

const lexical = (text: string) => JSON.stringify({ root: { children: [{ type: 'paragraph', children: [{ type: 'text', text }] }], type: 'root' } });
const chatData = {
  tabs: [
    {
      tabId: 'tab-a', chatTitle: 'Clean the cache\nmore lines of the title', lastSendTime: T0 + 120_000,
      bubbles: [
        { type: 'user', id: 'ua1', text: 'How do I clear the build cache?', selections: [{ text: 'rm -rf .cache' }], image: { path: '/tmp/shot.png' } },
        { type: 'ai', id: 'aa1', rawText: 'Run `rm -rf .cache` from the project root.', modelType: 'gpt-4' },
        { type: 'user', id: 'ua2', delegate: { a: 'And the dist folder?' } },
        { type: 'ai', id: 'aa2', text: 'The same: `rm -rf dist`.', modelType: 'claude-3.5-sonnet' },
        { type: 'user', id: 'ua3', initText: lexical('Thanks') },
        { type: 'ai', id: 'aa3', rawText: 'Glad to help.' },
        { type: 'note', id: 'n1', text: 'a kind of bubble this importer does not know' },
      ],
    },
    { tabId: 'tab-empty', chatTitle: 'never used', bubbles: [] },
    'a tab that is not an object',
    { chatTitle: 'no id', bubbles: [{ type: 'user', text: 'Untitled question' }] },
  ],
};
const composerData = {
  allComposers: [
    {
      composerId: 'comp-1', name: 'Rename the module', createdAt: T0, lastUpdatedAt: T0 + 60_000, status: 'completed',
      conversation: [
        { type: 1, bubbleId: 'cb1', text: 'Rename utils to helpers', timestamp: T0 + 1000 },
        { type: 2, bubbleId: 'cb2', text: 'Renamed utils.ts to helpers.ts.', timestamp: T0 + 5000 },
      ],
    },
    { composerId: 'comp-heads', name: 'kept in the global store', createdAt: T0, lastUpdatedAt: T0 },
    { name: 'a composer without an id', conversation: [] },
  ],
  selectedComposerId: 'comp-1',
  composerDataVersion: 1,
};
const prompts = [{ text: 'How do I clear the build cache?', commandType: 4 }, { text: 'Rename utils to helpers', commandType: 2 }, 'not a prompt object'];
const generations = [
  { unixMs: T0 + 1000, generationUUID: 'g-1', type: 'composer', textDescription: 'Rename utils to helpers' },
  { unixMs: T0 + 90_000, generationUUID: 'g-2', type: 'cmdk', textDescription: 'add a docstring' },
];

async function writeDb(path: string, items: Record<string, unknown>): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  // The workspace store has VS Code's ItemTable only (no cursorDiskKV).
  db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  for (const [key, value] of Object.entries(items)) db.run('INSERT INTO ItemTable VALUES (?, ?)', [key, typeof value === 'string' ? value : JSON.stringify(value)]);
  writeFileSync(path, db.export());
  db.close();
}

beforeAll(async () => {
  mkdirSync(wsDir, { recursive: true });
  await writeDb(DB, {
    'workbench.panel.aichat.view.aichat.chatdata': chatData,
    'composer.composerData': composerData,
    'aiService.prompts': prompts,
    'aiService.generations': generations,
    'workbench.explorer.treeViewState': { expanded: [] },
  });
  await writeDb(HEADS_DB, { 'composer.composerData': { allComposers: [{ composerId: 'comp-heads', name: 'x', createdAt: T0 }] } });
  await writeDb(BROKEN_DB, { 'workbench.panel.aichat.view.aichat.chatdata': '{"tabs": [{"tabId": "t", "bubb' });
  await writeDb(PLAIN_DB, { 'workbench.explorer.treeViewState': { expanded: [] } });
  // Another workspace where no chat was kept: VS Code's ItemTable without Cursor's keys.
  mkdirSync(join(wsDir, '..', '77ab01'), { recursive: true });
  await writeDb(join(wsDir, '..', '77ab01', 'state.vscdb'), { 'workbench.explorer.treeViewState': { expanded: [] } });
});

async function load(path: string) {
  const events: TraceEvent[] = [];
  const out = await importTraceFile(path, { onEvent: (e) => events.push(e) });
  return { out, events, types: events.map((e) => e.type) };
}

describe('Cursor\'s older per-workspace store [I24]', () => {
  it('a chat panel tab as state.vscdb#<tabId>: prompts from text, delegate and Lexical initText, with their selections; model calls with modelType; the answers', async () => {
    const { out, events, types } = await load(`${DB}#tab-a`);
    expect(out.format).toBe('cursor');
    expect(out.trace?.header.trace_id).toBe('tab-a');
    expect(types).toEqual([
      'agent.start',
      'input.received', 'model.before_call', 'model.after_call',
      'final_answer.before', 'final_answer.after', 'input.received', 'model.before_call', 'model.after_call',
      'final_answer.before', 'final_answer.after', 'input.received', 'model.before_call', 'model.after_call',
      'final_answer.before', 'final_answer.after', 'agent.end',
    ]);
    expect(events[0]!.payload).toMatchObject({ session_id: 'tab-a', title: 'Clean the cache' });
    const inputs = events.filter((e) => e.type === 'input.received');
    expect(inputs.map((e) => e.payload.prompt)).toEqual(['How do I clear the build cache?', 'And the dist folder?', 'Thanks']);
    expect(inputs[0]!.payload).toMatchObject({ selections: ['rm -rf .cache'], image_path: '/tmp/shot.png' });
    const calls = events.filter((e) => e.type === 'model.after_call');
    expect(calls.map((e) => e.payload.model)).toEqual(['gpt-4', 'claude-3.5-sonnet', undefined]);
    expect(calls[0]!.payload.response).toEqual([{ type: 'text', text: 'Run `rm -rf .cache` from the project root.' }]);
    expect(events.filter((e) => e.type === 'final_answer.after').map((e) => e.payload.text)).toEqual(['Run `rm -rf .cache` from the project root.', 'The same: `rm -rf dist`.', 'Glad to help.']);
    // The last send time ends the chat; the source names the key it came from.
    expect(events.at(-1)!.ts).toBe(new Date(T0 + 120_000).toISOString());
    expect(out.trace?.header.source).toMatchObject({ kind: 'cursor', store_key: 'workbench.panel.aichat.view.aichat.chatdata' });
    // The unknown bubble kind is kept and counted, not dropped.
    expect(out.problems.map((p) => [p.code, p.severity])).toContainEqual(['unknown_record', 'warning']);
    expect(JSON.stringify(events)).toContain('a kind of bubble this importer does not know');
  });

  it('a composer of a version before 0.43, which holds its bubbles inline, with their times', async () => {
    const { out, events, types } = await load(`${DB}#comp-1`);
    expect(out.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(types).toEqual(['agent.start', 'input.received', 'model.before_call', 'model.after_call', 'final_answer.before', 'final_answer.after', 'agent.end']);
    expect(events[1]!).toMatchObject({ ts: new Date(T0 + 1000).toISOString(), payload: { prompt: 'Rename utils to helpers' } });
    expect(events[2]!.ts).toBe(new Date(T0 + 5000).toISOString());
    expect(events.at(-1)!.payload).toMatchObject({ status: 'completed' });
    expect(out.trace?.header.source).toMatchObject({ store_key: 'composer.composerData' });
  });

  it('the prompt history and the generations are sessions of prompts; a prompt that is not an object is listed and makes the import partial', async () => {
    const p = await load(`${DB}#prompts`);
    const promptsIn = p.events.filter((e) => e.type === 'input.received');
    expect(promptsIn.map((e) => [e.payload.prompt, e.payload.command_type])).toEqual([['How do I clear the build cache?', 4], ['Rename utils to helpers', 2]]);
    const errors = p.out.problems.filter((x) => x.severity === 'error');
    expect(errors.map((x) => x.message)).toEqual([expect.stringMatching(/bubble 3: .*not an object/)]);
    const g = await load(`${DB}#generations`);
    const asked = g.events.filter((e) => e.type === 'input.received');
    expect(asked.map((e) => [e.ts, e.payload.prompt, e.payload.generation_type])).toEqual([
      [new Date(T0 + 1000).toISOString(), 'Rename utils to helpers', 'composer'],
      [new Date(T0 + 90_000).toISOString(), 'add a docstring', 'cmdk'],
    ]);
    expect(g.out.problems.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('a bare path is refused with the sessions it holds; what is not a session here is said, not passed over', async () => {
    const bare = await importTraceFile(DB);
    expect(bare.trace).toBeNull();
    const msg = bare.problems[0]!.message;
    expect(msg).toMatch(/holds 5 sessions/);
    for (const id of ['tab-a', 'tab-4', 'comp-1', 'prompts', 'generations']) expect(msg).toContain(id);
    expect(msg).not.toContain('tab-empty');
    const heads = await importTraceFile(HEADS_DB);
    expect(heads.problems[0]!.message).toMatch(/holds no session; not read: 1 composer of composer\.composerData keep.*global store.*globalStorage\/state\.vscdb#<composer id> \(comp-heads\)/);
    const broken = await importTraceFile(BROKEN_DB);
    expect(broken.problems[0]!.message).toMatch(/holds no session; not read: ItemTable workbench\.panel\.aichat\.view\.aichat\.chatdata: not JSON/);
    const plain = await importTraceFile(PLAIN_DB);
    expect(plain.problems[0]!.message).toMatch(/not a goose .* or Cursor \(cursorDiskKV, or an ItemTable with workbench\.panel\.aichat\.view\.aichat\.chatdata, composer\.composerData, aiService\.prompts, aiService\.generations\) session store; its tables: ItemTable/);
  });

  it('hookwire sessions finds the workspace store and lists each session, and what it could not read with why', async () => {
    let stdout = '';
    await sessionsCommand({ agent: 'cursor', json: true }, { out: (t) => void (stdout += t), err: () => {} }, { HOME: home });
    const rows = stdout.trim().split('\n').map((l) => JSON.parse(l) as { path: string; format: string | null; events: number; reason?: string; modified: string });
    const listed = rows.filter((r) => r.format === 'cursor').map((r) => r.path).sort();
    expect(listed).toEqual(['comp-1', 'generations', 'prompts', 'tab-4', 'tab-a'].map((id) => `${DB}#${id}`));
    expect(rows.find((r) => r.path === `${DB}#tab-a`)).toMatchObject({ events: 17, modified: new Date(T0 + 120_000).toISOString() });
    const reasons = rows.filter((r) => r.format === null).map((r) => r.reason);
    expect(reasons).toEqual(expect.arrayContaining([
      'ItemTable workbench.panel.aichat.view.aichat.chatdata: tab 3 is not an object',
      'ItemTable composer.composerData: composer 3 has no composerId',
      expect.stringMatching(/^1 composer of composer\.composerData keep their messages in Cursor's global store .*\(comp-heads\)$/),
    ]));
    expect(reasons).toHaveLength(3);
    // The workspace without chats is not a line: it holds nothing to import.
    expect(rows.some((r) => r.path.includes('77ab01'))).toBe(false);
  });

  it('the note that a composer is in the global store is left out when hookwire sessions lists that store too, where the chat is', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    db.run('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    db.run('INSERT INTO cursorDiskKV VALUES (?, ?)', ['composerData:comp-heads', JSON.stringify({ _v: 10, composerId: 'comp-heads', createdAt: T0, lastUpdatedAt: T0, fullConversationHeadersOnly: [{ bubbleId: 'u1', type: 1 }] })]);
    db.run('INSERT INTO cursorDiskKV VALUES (?, ?)', ['bubbleId:comp-heads:u1', JSON.stringify({ _v: 3, type: 1, bubbleId: 'u1', text: 'kept in the global store' })]);
    const globalDir = join(home, '.config', 'Cursor', 'User', 'globalStorage');
    mkdirSync(globalDir, { recursive: true });
    writeFileSync(join(globalDir, 'state.vscdb'), db.export());
    db.close();
    let stdout = '';
    await sessionsCommand({ agent: 'cursor', json: true }, { out: (t) => void (stdout += t), err: () => {} }, { HOME: home });
    const rows = stdout.trim().split('\n').map((l) => JSON.parse(l) as { path: string; format: string | null; reason?: string });
    expect(rows.map((r) => r.path)).toContain(`${join(globalDir, 'state.vscdb')}#comp-heads`);
    expect(rows.filter((r) => r.format === null).map((r) => r.reason)).toEqual(expect.arrayContaining([expect.stringMatching(/tab 3 is not an object/), expect.stringMatching(/composer 3 has no composerId/)]));
    expect(rows.filter((r) => r.format === null)).toHaveLength(2);
  });
});
