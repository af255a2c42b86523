// The synthetic trace file the backtest benches replay (backtestMemory, backtestWorkers): a mix of tool calls
// (one in forty an `rm -rf`), tool results, model calls and prompts, written as a stream.
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes a trace of `n` events to `path`, its ids and trace id made distinct by `seed`. */
export async function writeTrace(path: string, n: number, seed: number): Promise<void> {
  const out = createWriteStream(path);
  const line = (o: unknown) => (out.write(`${JSON.stringify(o)}\n`) ? null : once(out, 'drain'));
  await line({ format: 'hookwire.trace', version: 1, trace_id: `t${seed}`, agent_id: 'bench', source: { kind: 'bench' }, created: '2026-03-01T10:00:00.000Z' });
  const t0 = Date.parse('2026-03-01T10:00:00.000Z');
  for (let i = 0; i < n; i++) {
    const ts = new Date(t0 + i * 1000).toISOString();
    const k = i % 4;
    const payload =
      k === 0 ? { tool_name: 'Bash', tool_input: { command: i % 40 === 0 ? 'rm -rf build' : `ls -la dir${i}` } }
        : k === 1 ? { tool_name: 'Bash', tool_response: `output of call ${i} with some text to make it realistic`, tool_input: { command: `ls dir${i}` } }
          : k === 2 ? { usage: { input_tokens: 1200, output_tokens: 120 }, model: 'bench-model' }
            : { prompt: `step ${i}: carry on with the task` };
    const type = ['tool.before_call', 'tool.after_call', 'model.after_call', 'input.received'][k]!;
    const wait = line({ event_id: `e${seed}-${i}`, type, ts, payload });
    if (wait) await wait;
  }
  out.end();
  await once(out, 'finish');
}

/**
 * `count` sessions of `events` events each (seeds 1…count), named session-000.jsonl, session-001.jsonl, …, as
 * files a page's file picker takes (Playwright's setInputFiles): the app at a team's scale (e2e library-scale,
 * backtest-scale, e2e/measure).
 */
export async function sessionFiles(count: number, events: number): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  const work = mkdtempSync(join(tmpdir(), 'hookwire-sessions-'));
  try {
    const files = [];
    for (let i = 0; i < count; i++) {
      const name = `session-${String(i).padStart(3, '0')}.jsonl`;
      await writeTrace(join(work, name), events, i + 1);
      files.push({ name, mimeType: 'application/x-ndjson', buffer: readFileSync(join(work, name)) });
    }
    return files;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
