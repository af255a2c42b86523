// `replay --json` keeps memory flat in the trace length [P10]: the reader's index of every id [T6] spills its
// records to a temporary file (engine/node/spillFile.ts) and replay keeps only its repeat window [E5][R5].
// Checked the way a user meets it: the real binary under a heap far smaller than the payloads a Map of final
// payloads held.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUARD, hookwire, tempDir } from './runCli.ts';

const HEADER = '{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"test"},"created":"2026-03-01T10:00:00.000Z"}\n';
const EVENTS = 6000;
const PAD = 'x'.repeat(16 * 1024);
const event = (id: string, command: string) => `${JSON.stringify({ event_id: id, type: 'tool.before_call', ts: '2026-03-01T10:00:00.000Z', payload: { tool_name: 'Bash', tool_input: { command } } })}\n`;

async function writeTrace(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write(HEADER);
  // Every command carries a token, so every final payload is a rewritten copy (16 KB each: ~96 MB in all).
  for (let i = 0; i < EVENTS; i++) out.write(event(`e${i}`, `deploy --token=s${i} ${PAD}`));
  // Repeats: from the start (6000 dispatches back, past the window [E5]: decided again) and from the end
  // (within it [R5]: the earlier final payload comes back, not this event's).
  out.write(event('e0', 'echo hi'));
  out.write(event(`e${EVENTS - 1}`, 'rm -rf /'));
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

describe('replay --json memory [P10][R5]', () => {
  it('[R5][E5] replays a trace whose final payloads are 96 MB under a 64 MB heap, repeats answered by the window', async () => {
    const dir = tempDir();
    const path = join(dir, 'big.jsonl');
    await writeTrace(path);
    const r = await hookwire(['replay', '--json', GUARD, path], { env: { NODE_OPTIONS: '--max-old-space-size=64' } });
    expect(r.stderr).not.toMatch(/heap out of memory/);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(EVENTS + 2);
    const first = JSON.parse(lines[0]!) as { payload: { tool_input: { command: string } } };
    expect(first.payload.tool_input.command).toBe(`deploy --token=[REDACTED] ${PAD}`);
    // e0 left the window long ago: its repeat is decided again on its own `echo hi`.
    expect(JSON.parse(lines[EVENTS]!)).toMatchObject({ event_id: 'e0', decision: 'continue', payload: { tool_name: 'Bash', tool_input: { command: 'echo hi' } } });
    // The repeat of the last id is not blocked although its own command is rm -rf: no handler runs.
    expect(JSON.parse(lines[EVENTS + 1]!)).toEqual(JSON.parse(lines[EVENTS - 1]!));
    // Both repeats are still named by the reader [T6].
    expect(r.stderr).toMatch(/already appeared on line 2\b/);
    expect(r.stderr).toMatch(new RegExp(`already appeared on line ${EVENTS + 1}\\b`));
  }, 60_000);
});
