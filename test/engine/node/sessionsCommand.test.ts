import { copyFileSync, mkdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_DIR } from '../../shared/formatFixtures.ts';
import { hookwire, tempDir } from './runCli.ts';

/** A fake home with one Gemini CLI recording and one Cline task at their default places. */
function fakeHome(): { home: string; gemini: string; cline: string } {
  const home = tempDir();
  const chats = join(home, '.gemini', 'tmp', 'abc123', 'chats');
  const task = join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'tasks', '1772528400000');
  mkdirSync(chats, { recursive: true });
  mkdirSync(task, { recursive: true });
  const gemini = join(chats, 'session-2026-03-02T10-00-5b0c2f1e.jsonl');
  const cline = join(task, 'api_conversation_history.json');
  copyFileSync(join(FORMAT_DIR, 'gemini-cli-session.jsonl'), gemini);
  copyFileSync(join(FORMAT_DIR, 'cline-xml-task.json'), cline);
  utimesSync(cline, new Date('2026-01-05T00:00:00Z'), new Date('2026-01-05T00:00:00Z'));
  return { home, gemini, cline };
}

// Each case starts several real processes (~1 s of CPU each on a shared 2-core machine): a generous timeout.
describe('hookwire sessions (real process, HOME pointed at a temp dir)', { timeout: 60_000 }, () => {
  it('lists each file with agent, date, size, events and path; --agent and --since filter; nothing is written', async () => {
    const { home, gemini, cline } = fakeHome();
    const before = readFileSync(gemini, 'utf8');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const all = await hookwire(['sessions', '--json'], { env });
    expect(all.code).toBe(0);
    const rows = all.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.agent, r.path, r.format, r.events])).toEqual([
      ['gemini-cli', gemini, 'gemini-cli', 21],
      ['cline', cline, 'cline', 29],
    ]);
    expect(rows[1].modified).toBe('2026-01-05T00:00:00.000Z');
    expect(rows[0].size).toBe(before.length);
    const since = await hookwire(['sessions', '--since', '2026-02-01', '--json'], { env });
    expect(since.stdout.trim().split('\n').map((l) => JSON.parse(l).agent)).toEqual(['gemini-cli']);
    const onlyCline = await hookwire(['sessions', '--agent', 'cline'], { env });
    expect(onlyCline.stdout).toMatch(/^cline\s+2026-01-05 00:00\s+\S+ KB\s+29 events\s+\S+api_conversation_history\.json\n$/);
    expect(readFileSync(gemini, 'utf8')).toBe(before);
    // What it lists, import accepts.
    const imported = await hookwire(['import', cline], { env });
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout.split('\n')[0] as string).trace_id).toBe('1772528400000');
  });
  it('a bad --since or an unknown --agent is refused (exit 2); an empty home says where it looked (exit 0)', async () => {
    const home = tempDir();
    expect((await hookwire(['sessions', '--since', 'yesterday-ish'], { env: { HOME: home } })).code).toBe(2);
    expect((await hookwire(['sessions', '--agent', 'emacs'], { env: { HOME: home } })).code).toBe(2);
    const none = await hookwire(['sessions'], { env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain(join(home, '.gemini', 'tmp'));
  });
});
