import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_DIR } from '../../shared/formatFixtures.ts';
import { GUARD, hookwire, tempDir } from './runCli.ts';

// #29: `claude-hook --record` given a file that is not a Hookwire recording — another agent's transcript, or a
// recording whose header was cut off — refuses it: exit 2 (Claude Code's block, fail closed) and the file is
// byte for byte what it was. Before, a cut file had its "torn last line" cut off and a new header written.
const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1', transcript_path: '/tmp/t', cwd: '/tmp' });

describe('claude-hook --record refuses a file that is not a Hookwire recording (real process)', { timeout: 120_000 }, () => {
  it('another agent\'s transcript, the same cut mid-line, and a cut-off header: exit 2, named, file unchanged; a new file records', async () => {
    const claude = readFileSync(join(FORMAT_DIR, 'claude-meta-and-compact.jsonl'), 'utf8');
    const dir = tempDir({
      'transcript.jsonl': claude,
      'transcript-cut.jsonl': claude.slice(0, claude.indexOf('\n', 400) + 120),
      'torn-header.hwtrace.jsonl': '{"format":"hookwire.trace","version":1,"trace_id":"s1","agent_id":"claude-code","sour',
      'gemini.jsonl': readFileSync(join(FORMAT_DIR, 'gemini-cli-session.jsonl'), 'utf8'),
    });
    const cases: [string, RegExp][] = [
      ['transcript.jsonl', /is not a Hookwire trace: it is Claude Code session transcript/],
      ['transcript-cut.jsonl', /is not a Hookwire trace: it is Claude Code session transcript/],
      ['torn-header.hwtrace.jsonl', /has a cut-off header/],
      ['gemini.jsonl', /is not a Hookwire trace: it is Gemini CLI chat recording/],
    ];
    for (const [name, why] of cases) {
      const path = join(dir, name);
      const before = readFileSync(path);
      const r = await hookwire(['claude-hook', GUARD, '--record', path], { stdin: input });
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(why);
      expect(r.stderr, name).toMatch(/failing closed/);
      expect(readFileSync(path).equals(before), `${name} unchanged`).toBe(true);
    }
    const fresh = join(dir, 'new.hwtrace.jsonl');
    const ok = await hookwire(['claude-hook', GUARD, '--record', fresh], { stdin: input });
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(fresh, 'utf8').split('\n')[0] as string).format).toBe('hookwire.trace');
  });
});
