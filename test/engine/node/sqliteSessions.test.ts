import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/readTraceFile.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import type { Trace } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { FORMAT_DIR } from '../../shared/formatFixtures.ts';
import { GUARD, hookwire, tempDir } from './runCli.ts';

// #29 [I22]: real SQLite files, made here with sql.js in the schemas the agents create (goose
// session_manager.rs `create`; OpenCode session.sql.ts), read back through the Node import path and the real
// CLI. Their sessions are the project's own synthetic fixtures: the goose export and the OpenCode export
// written into the tables, so the assembled session must import exactly as the export file does.
const dir = mkdtempSync(join(tmpdir(), 'hookwire-sqlite-'));
const GOOSE_DB = join(dir, 'sessions.db');
const OPENCODE_DB = join(dir, 'opencode.db');
const OTHER_DB = join(dir, 'other.db');
const ONE_DB = join(dir, 'one', 'sessions.db');

type Row = Record<string, unknown>;

beforeAll(async () => {
  const SQL = await initSqlJs();
  const gooseExport = JSON.parse(readFormat('goose-export.json')) as Row & { conversation: Row[] };
  const goose = new SQL.Database();
  goose.run(`CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT,
    provider_name TEXT, model_config_json TEXT)`);
  goose.run(`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
    content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT)`);
  const addSession = (db: typeof goose, s: Row & { conversation: Row[] }, stamp: string) => {
    db.run('INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at, extension_data, total_tokens, input_tokens, output_tokens, provider_name, model_config_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)', [
      s.id as string, s.name as string, s.session_type as string, s.working_dir as string, '2026-03-01 10:00:00', stamp, '{}', 800, 700, 100, 'anthropic', JSON.stringify(s.model_config),
    ]);
    s.conversation.forEach((m, i) => {
      db.run('INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp, tokens, metadata_json) VALUES (?,?,?,?,?,?,?)', [
        s.id as string, m.role as string, JSON.stringify(m.content), m.created as number, `2026-03-01 10:00:0${i}`, m.role === 'assistant' ? 120 + i : null, JSON.stringify(m.metadata),
      ]);
    });
  };
  addSession(goose, gooseExport, '2026-03-01 10:02:00');
  addSession(goose, { ...gooseExport, id: '20260302_1', name: 'second', session_type: 'user', conversation: gooseExport.conversation.slice(0, 1) }, '2026-03-02 09:00:00');
  // A row whose content cannot be parsed: listed, not skipped silently.
  goose.run("INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp) VALUES ('20260302_1', 'assistant', '[{\"type\": \"te', 1772442000, '2026-03-02 09:00:05')");
  writeFileSync(GOOSE_DB, goose.export());
  const one = new SQL.Database(goose.export());
  one.run("DELETE FROM messages WHERE session_id = '20260302_1'");
  one.run("DELETE FROM sessions WHERE id = '20260302_1'");
  mkdirSync(join(dir, 'one'));
  writeFileSync(ONE_DB, one.export());

  const oc = JSON.parse(readFormat('opencode-export.json')) as { info: Row & { time: Row }; messages: { info: Row; parts: Row[] }[] };
  const opencode = new SQL.Database();
  opencode.run(`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, workspace_id TEXT, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL,
    path TEXT, title TEXT NOT NULL, version TEXT NOT NULL, cost REAL NOT NULL DEFAULT 0, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL)`);
  opencode.run('CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)');
  opencode.run('CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)');
  const i = oc.info;
  opencode.run('INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?,?,?,?,?,?,?,?,?)', [
    i.id as string, i.projectID as string, (i.parentID as string | undefined) ?? null, 'slug', i.directory as string, i.title as string, i.version as string, i.time.created as number, (i.time.updated as number | undefined) ?? (i.time.created as number),
  ]);
  for (const m of oc.messages) {
    const { id, sessionID: _s, ...data } = m.info;
    const created = (m.info.time as Row).created as number;
    opencode.run('INSERT INTO message VALUES (?,?,?,?,?)', [id as string, i.id as string, created, created, JSON.stringify(data)]);
    for (const p of m.parts) {
      const { id: pid, sessionID: _ps, messageID: _pm, ...pdata } = p;
      opencode.run('INSERT INTO part VALUES (?,?,?,?,?,?)', [pid as string, id as string, i.id as string, created, created, JSON.stringify(pdata)]);
    }
  }
  writeFileSync(OPENCODE_DB, opencode.export());

  const other = new SQL.Database();
  other.run('CREATE TABLE notes (id INTEGER, body TEXT)');
  writeFileSync(OTHER_DB, other.export());
});

const events = (t: Trace | null) => (t?.events ?? []).map((e) => [e.type, e.agent_id, e.payload.tool_use_id ?? e.payload.prompt ?? e.payload.text ?? null]);

describe('SQLite session stores [I22]', () => {
  it('[I21][I22] a goose sessions.db session imports as its export does, with the per-message tokens of the table', async () => {
    const r = await importTraceFile(`${GOOSE_DB}#20260301_4`);
    expect(r.format).toBe('goose');
    expect(r.problems).toEqual([]);
    const fromExport = importTrace(readFormat('goose-export.json'), { fileName: 'goose-export.json' }).trace;
    expect(events(r.trace)).toEqual(events(fromExport));
    expect(r.trace?.header.trace_id).toBe('20260301_4');
    expect(r.trace?.events[0]).toMatchObject({ ts: '2026-03-01T10:00:00.000Z', payload: { model: 'claude-sonnet-4-5', session_type: 'sub_agent' } });
    expect(r.trace?.events.filter((e) => e.type === 'model.after_call').map((e) => e.payload.usage)).toEqual([{ tokens: 121 }, { tokens: 123 }]);
  });

  it('[I11][I22] a messages row whose content is not JSON is an unreadable record: the import is partial', async () => {
    const r = await importTraceFile(`${GOOSE_DB}#20260302_1`);
    expect(r.trace?.events.map((e) => e.type)).toEqual(['agent.start', 'input.received', 'agent.end']);
    expect(r.problems.map((p) => [p.code, p.severity])).toEqual([['unreadable_record', 'error']]);
    expect(r.problems[0]?.message).toMatch(/message 2: messages row 6: content_json is not valid JSON/);
  });

  it('[I22] a bare path imports the only session; with several it is refused with their ids; an unknown id is refused', async () => {
    const one = await importTraceFile(ONE_DB);
    expect(one.trace?.header.trace_id).toBe('20260301_4');
    const many = await importTraceFile(GOOSE_DB);
    expect(many.trace).toBeNull();
    expect(many.problems[0]?.message).toMatch(/holds 2 sessions: import one as .*sessions\.db#<session id>.*20260302_1 \(second\), 20260301_4 \(explore the repo\)|holds 2 sessions: .*20260301_4 \(explore the repo\), 20260302_1 \(second\)/);
    const none = await importTraceFile(`${GOOSE_DB}#nope`);
    expect(none.trace).toBeNull();
    expect(none.problems[0]?.message).toMatch(/has no session "nope"/);
  });

  it('[I18][I22] an OpenCode opencode.db session imports as its export does', async () => {
    const oc = JSON.parse(readFormat('opencode-export.json')) as { info: { id: string } };
    const r = await importTraceFile(OPENCODE_DB);
    expect(r.format).toBe('opencode');
    const fromExport = importTrace(readFormat('opencode-export.json'), { fileName: 'opencode-export.json' });
    expect(r.trace?.header.trace_id).toBe(oc.info.id);
    expect(events(r.trace)).toEqual(events(fromExport.trace));
    expect(r.trace?.events.map((e) => e.payload)).toEqual(fromExport.trace?.events.map((e) => e.payload));
  });

  it('[I22] a database of another kind is refused and named; a -wal file beside the database is a warning', async () => {
    const other = await importTraceFile(OTHER_DB);
    expect(other.trace).toBeNull();
    expect(other.problems[0]).toMatchObject({ code: 'bad_source', severity: 'error' });
    expect(other.problems[0]?.message).toMatch(/not a goose .*, OpenCode .* or Cursor .* session store; its tables: notes/);
    writeFileSync(`${ONE_DB}-wal`, Buffer.alloc(4096, 1));
    const r = await importTraceFile(ONE_DB);
    expect(r.trace).not.toBeNull();
    expect(r.problems.map((p) => [p.code, p.severity])).toEqual([['bad_source', 'warning']]);
    expect(r.problems[0]?.message).toMatch(/-wal holds 4096 bytes of changes not yet written/);
  });

  it('[I22] hookwire import (a real process) reads <file>#<id> and exits 0; the many-session path exits 2 with the ids', { timeout: 120_000 }, async () => {
    const [ok, refused] = await Promise.all([hookwire(['import', `${GOOSE_DB}#20260301_4`]), hookwire(['import', GOOSE_DB])]);
    expect(ok.code, ok.stderr).toBe(0);
    const lines = ok.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
    expect(lines[0]?.trace_id).toBe('20260301_4');
    expect(lines.slice(1).map((e) => e.type)).toContain('tool.after_call');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/holds 2 sessions/);
  });

  it('[I22][B1] hookwire backtest over a folder reads each session of a store in it as <db>#<id> (it skipped the many-session database before); the events are what import reads', { timeout: 180_000 }, async () => {
    const runs = tempDir();
    mkdirSync(join(runs, 'goose'));
    copyFileSync(GOOSE_DB, join(runs, 'goose', 'sessions.db'));
    copyFileSync(OPENCODE_DB, join(runs, 'opencode.db'));
    copyFileSync(OTHER_DB, join(runs, 'other.db'));
    const out = await hookwire(['backtest', GUARD, GUARD, runs, '--json', '--fail-on', 'none', '--workers', '0']);
    expect(out.code, out.stderr).toBe(0);
    const doc = JSON.parse(out.stdout) as { files: { file: string; events: number }[]; skipped: { file: string; reason: string }[] };
    const ocId = (JSON.parse(readFormat('opencode-export.json')) as { info: { id: string } }).info.id;
    const gooseDb = join(runs, 'goose', 'sessions.db');
    expect(doc.files.map((f) => f.file)).toEqual([`${gooseDb}#20260301_4`, `${gooseDb}#20260302_1`, `${join(runs, 'opencode.db')}#${ocId}`]);
    // Each session's events are those `import` reads of it, one session at a time.
    for (const f of doc.files) {
      const imported = await importTraceFile(f.file);
      expect(f.events, f.file).toBe(imported.report?.events);
      expect(f.events).toBeGreaterThan(0);
    }
    // A database that is no session store is still named as skipped, with why.
    expect(doc.skipped.map((s) => s.file)).toEqual([join(runs, 'other.db')]);
    expect(doc.skipped[0]?.reason).toMatch(/not a goose/);
  });

  it('[I22] hookwire sessions lists each session of goose\'s and OpenCode\'s databases as <db>#<id> (and goose\'s older .jsonl); --since reads each session\'s own time', { timeout: 120_000 }, async () => {
    const home = tempDir();
    const gooseDir = join(home, '.local', 'share', 'goose', 'sessions');
    const ocDir = join(home, '.local', 'share', 'opencode');
    mkdirSync(gooseDir, { recursive: true });
    mkdirSync(ocDir, { recursive: true });
    copyFileSync(GOOSE_DB, join(gooseDir, 'sessions.db'));
    copyFileSync(join(FORMAT_DIR, 'goose-session.jsonl'), join(gooseDir, '20251229_1.jsonl'));
    utimesSync(join(gooseDir, '20251229_1.jsonl'), new Date('2025-12-29T10:00:00Z'), new Date('2025-12-29T10:00:00Z'));
    copyFileSync(OPENCODE_DB, join(ocDir, 'opencode.db'));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const all = await hookwire(['sessions', '--json'], { env });
    expect(all.code, all.stderr).toBe(0);
    const rows = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
    const gooseRows = rows.filter((r) => r.agent === 'goose').map((r) => [String(r.path).slice(home.length), r.format, r.events, r.problems]);
    expect(gooseRows).toEqual(expect.arrayContaining([
      ['/.local/share/goose/sessions/sessions.db#20260302_1', 'goose', 3, 1],
      ['/.local/share/goose/sessions/sessions.db#20260301_4', 'goose', 11, 0],
      ['/.local/share/goose/sessions/20251229_1.jsonl', 'goose', 25, 1],
    ]));
    expect(gooseRows).toHaveLength(3);
    expect(rows.filter((r) => r.agent === 'opencode').map((r) => String(r.path).slice(home.length))).toEqual([`/.local/share/opencode/opencode.db#${(JSON.parse(readFormat('opencode-export.json')) as { info: { id: string } }).info.id}`]);
    expect(rows.find((r) => r.path === join(gooseDir, 'sessions.db#20260302_1'))?.modified).toBe('2026-03-02T09:00:00.000Z');
    const since = await hookwire(['sessions', '--agent', 'goose', '--since', '2026-03-02', '--json'], { env });
    expect(since.stdout.trim().split('\n').map((l) => String((JSON.parse(l) as Row).path).slice(home.length))).toEqual(['/.local/share/goose/sessions/sessions.db#20260302_1']);
    // What it lists, import and backtest accept.
    const imported = await hookwire(['import', join(gooseDir, 'sessions.db#20260301_4')], { env });
    expect(imported.code, imported.stderr).toBe(0);
  });
});
