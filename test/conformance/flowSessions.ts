// The sessions that the flow-rule conformance tests [F3][F5][F6] send through every place that decides: for each of
// the five worked examples (web/demo/flowExamples.ts), two sessions A and B interleaved, with explicit event ids
// and times, so the runtime, `hookwire serve`, the CLI's replay and the browser all see the same events.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type JsonObject, type Pipeline } from '../../engine/index.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'engine', 'node', 'bin.mjs');

export type Session = 'A' | 'B';
export interface Call {
  session: Session;
  type: string;
  payload: JsonObject;
  event_id: string;
  ts: string;
}
/** What a place decided for one call. */
export interface Decided {
  decision: string;
  reason: string;
}

type Raw = [session: Session, type: string, payload: JsonObject];
const before = (s: Session, payload: JsonObject): Raw => [s, 'tool.before_call', payload];
const after = (s: Session, payload: JsonObject): Raw => [s, 'tool.after_call', payload];

// Each example's session A sets its rule off; session B, interleaved, does the same later steps without the setup.
// `restartAt`: where a server restart falls — after the events that set the memory up, before the ones it decides.
const SESSIONS: Record<string, { calls: Raw[]; restartAt: number }> = {
  'Flow: no egress after a secret read': {
    calls: [before('A', { tool: 'read', file_path: '/repo/.env' }), before('B', { tool: 'fetch', url: 'https://x.example' }), before('A', { tool: 'fetch', url: 'https://x.example' }), before('B', { tool: 'shell', command: 'curl https://y.example' })],
    restartAt: 2,
  },
  'Flow: untrusted content needs approval': {
    calls: [after('A', { tool: 'fetch', url: 'https://x' }), before('B', { tool: 'shell', command: 'ls' }), before('A', { tool: 'shell', command: 'ls' })],
    restartAt: 1,
  },
  'Flow: stop retrying a failing command': {
    calls: [
      ...[1, 2, 3].flatMap((): Raw[] => [after('A', { tool: 'shell', command: 'make', exit_code: 1 }), after('B', { tool: 'shell', command: 'make', exit_code: 1 })]),
      after('B', { tool: 'shell', command: 'make', exit_code: 0 }), before('A', { tool: 'shell', command: 'make' }), before('B', { tool: 'shell', command: 'make' }),
    ],
    restartAt: 3,
  },
  'Flow: at most 20 writes in 5 minutes': {
    calls: Array.from({ length: 26 }, (_, i): Raw => before(i % 8 === 7 ? 'B' : 'A', { tool: 'write', file_path: `f${i}.ts` })),
    restartAt: 13,
  },
  'Flow: push only after green tests': {
    calls: [before('A', { tool: 'shell', command: 'git push' }), after('A', { tool: 'shell', command: 'npm test', exit_code: 0 }), before('B', { tool: 'shell', command: 'git push' }), before('A', { tool: 'shell', command: 'git push' }), before('A', { tool: 'edit', file_path: 'a.ts' }), before('A', { tool: 'shell', command: 'git push' })],
    restartAt: 2,
  },
};

/**
 * The calls of one example, one second apart, each with its own id. With `redeliver`, the first call is sent again
 * (same id, same body) right at the restart point: re-delivery must give the first answer and count once [F6].
 */
export function flowCalls(name: string, redeliver = false): { calls: Call[]; restartAt: number } {
  const spec = SESSIONS[name];
  if (spec === undefined) throw new Error(`no conformance session for ${name}`);
  const t0 = Date.parse('2026-03-06T09:00:00.000Z');
  const calls = spec.calls.map(([session, type, payload], i): Call => ({ session, type, payload, event_id: `${session}-${i}`, ts: new Date(t0 + (i + 1) * 1000).toISOString() }));
  if (!redeliver) return { calls, restartAt: spec.restartAt };
  const again = { ...calls[0]! };
  return { calls: [...calls.slice(0, spec.restartAt), again, ...calls.slice(spec.restartAt)], restartAt: spec.restartAt };
}

/** The runtime deciding live (createRuntime), one recording per session: its answers and the recordings' text. */
export async function runtimeDecides(doc: Pipeline, calls: readonly Call[]): Promise<{ decided: Decided[]; recordings: Map<Session, string> }> {
  const lines = new Map<Session, string[]>();
  const r = createRuntime(doc, {
    clock: { now: () => Date.parse('2026-03-06T09:00:00.000Z') },
    record: (header) => {
      const mine: string[] = [];
      lines.set(header.trace_id as Session, mine);
      return (line) => void mine.push(line);
    },
  });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const traces = { A: r.runtime.startTrace({ trace_id: 'A' }), B: r.runtime.startTrace({ trace_id: 'B' }) };
  const decided = calls.map((c) => {
    const out = traces[c.session].emit(c.type, c.payload, { event_id: c.event_id, ts: c.ts });
    return { decision: out.decision, reason: out.reason ?? '' };
  });
  await traces.A.flush();
  await traces.B.flush();
  return { decided, recordings: new Map([...lines].map(([k, v]) => [k, v.join('')])) };
}

/** `hookwire replay <pipeline> <trace> --json` (a real subprocess): the decision and reason of each tool event. */
export function cliReplay(pipelineFile: string, traceFile: string): Decided[] {
  const out = execFileSync(process.execPath, [BIN, 'replay', pipelineFile, traceFile, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  const steps = out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { type: string; decision: string; reason: string | null });
  return steps.filter((x) => x.type.startsWith('tool.')).map((x) => ({ decision: x.decision, reason: x.reason ?? '' }));
}

/** Per-session lists put back in the order the calls happened. */
export function inCallOrder(calls: readonly Call[], bySession: ReadonlyMap<Session, readonly Decided[]>): (Decided | undefined)[] {
  const next = new Map<Session, number>();
  return calls.map((c) => {
    const k = next.get(c.session) ?? 0;
    next.set(c.session, k + 1);
    return bySession.get(c.session)?.[k];
  });
}
