import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime, type JsonObject } from '../../engine/index.ts';
import { flowExamples } from '../../web/demo/flowExamples.ts';
import { exportPipelineText } from '../../web/model/exportPipeline.ts';

// Conformance of flow rules [F3] across places: the runtime deciding live (createRuntime, the events of two
// sessions interleaved, one recording per session) and `hookwire replay --json` (the CLI, a real subprocess) over
// each recording give the same decision and reason for every event, for each of the five worked examples.
// Not covered here: serve with a restart mid-session, and the browser.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'engine', 'node', 'bin.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hookwire-flow-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Call = [session: 'A' | 'B', type: string, payload: JsonObject];
const before = (s: 'A' | 'B', payload: JsonObject): Call => [s, 'tool.before_call', payload];
const after = (s: 'A' | 'B', payload: JsonObject): Call => [s, 'tool.after_call', payload];

// Each example's session A sets its rule off; session B, interleaved, does the same later steps without the setup.
const SESSIONS: Record<string, Call[]> = {
  'Flow: no egress after a secret read': [before('A', { tool: 'read', file_path: '/repo/.env' }), before('B', { tool: 'fetch', url: 'https://x.example' }), before('A', { tool: 'fetch', url: 'https://x.example' }), before('B', { tool: 'shell', command: 'curl https://y.example' })],
  'Flow: untrusted content needs approval': [after('A', { tool: 'fetch', url: 'https://x' }), before('B', { tool: 'shell', command: 'ls' }), before('A', { tool: 'shell', command: 'ls' })],
  'Flow: stop retrying a failing command': [
    ...[1, 2, 3].flatMap((): Call[] => [after('A', { tool: 'shell', command: 'make', exit_code: 1 }), after('B', { tool: 'shell', command: 'make', exit_code: 1 })]),
    after('B', { tool: 'shell', command: 'make', exit_code: 0 }), before('A', { tool: 'shell', command: 'make' }), before('B', { tool: 'shell', command: 'make' }),
  ],
  'Flow: at most 20 writes in 5 minutes': Array.from({ length: 26 }, (_, i): Call => before(i % 8 === 7 ? 'B' : 'A', { tool: 'write', file_path: `f${i}.ts` })),
  'Flow: push only after green tests': [before('A', { tool: 'shell', command: 'git push' }), after('A', { tool: 'shell', command: 'npm test', exit_code: 0 }), before('B', { tool: 'shell', command: 'git push' }), before('A', { tool: 'shell', command: 'git push' }), before('A', { tool: 'edit', file_path: 'a.ts' }), before('A', { tool: 'shell', command: 'git push' })],
};

describe('flow rules: the runtime and the CLI decide alike [F3][F5]', () => {
  for (const doc of flowExamples()) {
    it(`${doc.name}`, async () => {
      const calls = SESSIONS[doc.name]!;
      expect(calls, `no session for ${doc.name}`).toBeDefined();
      const lines = new Map<string, string[]>();
      let t = Date.parse('2026-03-06T09:00:00.000Z');
      const r = createRuntime(doc, {
        clock: { now: () => (t += 1000) },
        record: (header) => {
          const mine: string[] = [];
          lines.set(header.trace_id, mine);
          return (line) => void mine.push(line);
        },
      });
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      const traces = { A: r.runtime.startTrace({ trace_id: 'A' }), B: r.runtime.startTrace({ trace_id: 'B' }) };
      const live = calls.map(([s, type, payload]) => {
        const out = traces[s].emit(type, payload);
        return { decision: out.decision, reason: out.reason ?? '' };
      });
      await traces.A.flush();
      await traces.B.flush();
      expect(live.some((x) => x.decision !== 'continue'), 'the session sets the rule off').toBe(true);

      const pipelineFile = join(dir, 'p.json');
      writeFileSync(pipelineFile, exportPipelineText(doc, { layout: false }));
      // Each session is its own recording (a trace is one session); each is replayed by the CLI on its own.
      const replayed = new Map<string, { decision: string; reason: string }[]>();
      for (const [id, recorded] of lines) {
        const traceFile = join(dir, `${id}.jsonl`);
        writeFileSync(traceFile, recorded.join(''));
        const out = execFileSync(process.execPath, [BIN, 'replay', pipelineFile, traceFile, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
        const steps = out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { type: string; decision: string; reason: string });
        replayed.set(id, steps.filter((x) => x.type.startsWith('tool.')).map((x) => ({ decision: x.decision, reason: x.reason ?? '' })));
      }
      // Put the replayed decisions back in the order the calls happened, and compare event by event.
      const next = new Map<string, number>();
      const cli = calls.map(([s]) => {
        const k = next.get(s) ?? 0;
        next.set(s, k + 1);
        return replayed.get(s)?.[k];
      });
      expect(cli).toEqual(live);
    });
  }
});
