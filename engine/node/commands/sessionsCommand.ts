// `hookwire sessions [--agent <id>] [--since <date>] [--json]`: the session files at each agent's default location (#29).
import { CliError, EXIT, type Io } from '../cliIo.ts';
import { importStoreSession, importTraceFile } from '../readTraceFile.ts';
import { findSessions, sessionLocations, type FoundSession } from '../sessionLocations.ts';
import { isSqliteFile, openSqliteStore } from '../sqliteSessions.ts';

export interface SessionsOptions {
  agent?: string;
  since?: string;
  json?: boolean;
}

/**
 * Lists session files (read-only): agent, date, size, events (each file is imported, events counted and not
 * kept) and path, which `hookwire import` and `backtest` accept. Exit 0, also when none is found.
 */
export async function sessionsCommand(options: SessionsOptions, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const locations = sessionLocations(env);
  if (options.agent && !locations.some((l) => l.agent === options.agent)) {
    throw new CliError(`--agent ${options.agent}: not one of ${locations.map((l) => l.agent).join(', ')}`);
  }
  let since: Date | undefined;
  if (options.since !== undefined) {
    since = new Date(options.since);
    if (Number.isNaN(since.getTime())) throw new CliError(`--since ${options.since}: not a date (use e.g. 2026-03-01)`);
  }
  const found = findSessions(locations, { ...(options.agent ? { agent: options.agent } : {}), ...(since ? { since } : {}) });
  const rows = [];
  // Chats a workspace store says are in Cursor's global store are listed from that store when it is found here.
  const globalCursor = found.some((f) => f.agent === 'cursor' && /[\\/]globalStorage[\\/]state\.vscdb$/.test(f.path));
  for (const f of found) {
    if (isSqliteFile(f.path)) {
      rows.push(...(await storeRows(f, since, globalCursor)));
      continue;
    }
    let events = 0;
    const r = await importTraceFile(f.path, { onEvent: () => void events++ });
    rows.push({ ...f, events, format: r.format, problems: r.problems.filter((p) => p.severity === 'error').length });
  }
  rows.sort((a, b) => (a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : a.path < b.path ? -1 : 1));
  if (options.json) {
    for (const r of rows) io.out(`${JSON.stringify(r)}\n`);
    return EXIT.ok;
  }
  if (rows.length === 0) {
    io.err(`no session files found${options.agent ? ` for ${options.agent}` : ''}; looked in:\n${locations.filter((l) => !options.agent || l.agent === options.agent).map((l) => `  ${l.agent}: ${l.root}`).join('\n')}\n`);
    return EXIT.ok;
  }
  for (const r of rows) {
    const note = r.format === null ? `  (not importable${'reason' in r && r.reason ? `: ${r.reason}` : ''})` : r.problems > 0 ? `  (${r.problems} problems)` : '';
    io.out(`${r.agent.padEnd(12)} ${r.modified.slice(0, 16).replace('T', ' ')}  ${formatSize(r.size).padStart(8)}  ${String(r.events).padStart(6)} events  ${r.path}${note}\n`);
  }
  return EXIT.ok;
}

/**
 * One row per session of an SQLite store (`<db>#<session id>`, which import and backtest accept [I22]): its own
 * last change, the size of the session as imported text, its events. A database that cannot be read is one row
 * with no format, as an unimportable file is.
 */
async function storeRows(f: FoundSession, since: Date | undefined, globalCursor: boolean) {
  const store = await openSqliteStore(f.path);
  // A workspace's state.vscdb without Cursor's chat keys is a workspace where no chat was kept: nothing to list.
  if ('error' in store) return store.noStore && /[\\/]workspaceStorage[\\/]/.test(f.path) ? [] : [{ ...f, events: 0, format: null, problems: 1, reason: store.error }];
  try {
    // What the store holds that is no session here is a row of its own, with why (nothing passed over silently).
    const out: { agent: string; path: string; size: number; modified: string; events: number; format: string | null; problems: number; reason?: string }[] =
      store.skipped().filter((x) => !(x.elsewhere && globalCursor)).map(({ reason }) => ({ ...f, events: 0, format: null, problems: 1, reason }));
    for (const s of store.sessions()) {
      if (since && s.updated !== '' && new Date(s.updated) < since) continue;
      let size = 0;
      for (const piece of store.assemble(s.id) ?? []) size += piece.length;
      let events = 0;
      const r = importStoreSession(store, f.path, s.id, { onEvent: () => void events++ });
      out.push({ agent: f.agent, path: `${f.path}#${s.id}`, size, modified: s.updated || f.modified, events, format: r.format, problems: r.problems.filter((p) => p.severity === 'error').length });
    }
    return out;
  } finally {
    store.close();
  }
}

function formatSize(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}
