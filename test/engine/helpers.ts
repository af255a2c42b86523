import type { HookEvent, JsonObject, PipelineInput, DispatchEnv } from '../../engine/index.ts';
import { compilePipeline } from '../../engine/index.ts';

type NodeIn = PipelineInput['nodes'][number];

/** A pipeline document from nodes and wires given as "a->b" strings. */
export function pipeline(nodes: NodeIn[], wires: string[] = [], extra: Partial<PipelineInput> = {}): PipelineInput {
  return {
    format: 'hookwire.pipeline',
    version: 1,
    name: 'test',
    nodes,
    wires: wires.map((w) => {
      const [from, to] = w.split('->') as [string, string];
      return { from, to };
    }),
    ...extra,
  };
}

export const ev = (id: string, pattern: string): NodeIn => ({ id, kind: 'event', pattern });
export const match = (id: string, when: JsonObject, extra: Partial<Extract<NodeIn, { kind: 'matcher' }>> = {}): NodeIn => ({ id, kind: 'matcher', when, ...extra });
export function handler(id: string, action: Extract<NodeIn, { kind: 'handler' }>['action'], extra: Partial<Extract<NodeIn, { kind: 'handler' }>> = {}): NodeIn {
  return { id, kind: 'handler', name: extra.name ?? id, action, ...extra };
}
export const block = (reason = 'blocked') => ({ type: 'block' as const, reason });
export const terminate = (reason = 'terminated') => ({ type: 'terminate' as const, reason });
export const stop = (reason = 'stopped') => ({ type: 'stop' as const, reason });
export const audit = () => ({ type: 'audit' as const });

let seq = 0;
/** An event with defaults; `ts` is fixed so results are reproducible. */
export function event(type: string, payload: JsonObject = {}, extra: Partial<HookEvent> = {}): HookEvent {
  return { event_id: extra.event_id ?? `e${++seq}`, trace_id: 't1', agent_id: 'agent-1', type, ts: '2026-01-01T00:00:00.000Z', payload, ...extra };
}

/** A clock that stays where it is set. */
export function fixedClock(now = Date.parse('2026-01-01T00:00:00.000Z')) {
  const clock = { t: now, now: () => clock.t };
  return clock;
}

export const env = (clock = fixedClock()): DispatchEnv => ({ clock });

/** Compiles or fails the test with the problems. */
export function compile(doc: unknown, sandbox?: Parameters<typeof compilePipeline>[1]) {
  const r = compilePipeline(doc, sandbox);
  if (!r.ok) throw new Error(`pipeline did not compile: ${JSON.stringify(r.problems, null, 1)}`);
  return r.compiled;
}
