import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { FORMAT_DIR, readFormat } from '../../shared/formatFixtures.ts';
import { GUARD, hookwire } from './runCli.ts';

// #29: each new agent's session file through the real `hookwire import` and `hookwire replay` processes: the
// events are the engine's import of the same bytes; a partial import (a cut last line) exits 1 with its
// problems on stderr, a clean one exits 0.
const CASES: { file: string; label: RegExp; code: number }[] = [
  { file: 'copilot-cli-events.jsonl', label: /GitHub Copilot CLI/, code: 1 },
  { file: 'specstory-cursor.md', label: /SpecStory/, code: 1 },
  { file: 'specstory-legacy.md', label: /SpecStory/, code: 0 },
  { file: 'aider.chat.history.md', label: /aider chat history/, code: 1 },
  { file: 'opencode-export.json', label: /OpenCode/, code: 0 },
  { file: 'qwen-code-session.jsonl', label: /Qwen Code/, code: 1 },
  { file: 'goose-session.jsonl', label: /goose session/, code: 1 },
  { file: 'goose-export.json', label: /goose session/, code: 0 },
];

describe('hookwire import and replay of the new agents\' session files (real processes)', { timeout: 300_000 }, () => {
  it('import: the engine\'s events, the format named, exit 1 for a partial import and 0 for a whole one', async () => {
    const runs = await Promise.all(CASES.map((c) => hookwire(['import', join(FORMAT_DIR, c.file)])));
    CASES.forEach((c, i) => {
      const r = runs[i]!;
      const expected = importTrace(readFormat(c.file), { fileName: c.file }).trace!;
      expect(r.code, c.file).toBe(c.code);
      expect(r.stderr, c.file).toMatch(c.label);
      const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines[0].trace_id, c.file).toBe(expected.header.trace_id);
      expect(lines.slice(1).map((e) => e.event_id), c.file).toEqual(expected.events.map((e) => e.event_id));
      if (c.code === 1) expect(r.stderr, c.file).toMatch(/error: line \d+: .*(ends in the middle of this line|ends too early)/);
    });
  });

  it('replay --json: one step per event of each file, with a decision', async () => {
    const runs = await Promise.all(CASES.map((c) => hookwire(['replay', '--json', GUARD, join(FORMAT_DIR, c.file)])));
    CASES.forEach((c, i) => {
      const r = runs[i]!;
      const expected = importTrace(readFormat(c.file), { fileName: c.file }).trace!;
      const steps = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { event_id: string; decision: unknown });
      expect(steps.map((s) => s.event_id), `${c.file}: ${r.stderr}`).toEqual(expected.events.map((e) => e.event_id));
      expect(steps.every((s) => typeof s.decision === 'string'), c.file).toBe(true);
    });
  });
});
