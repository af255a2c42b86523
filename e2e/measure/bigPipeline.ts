import { PIPELINE_FORMAT, PIPELINE_VERSION, type Pipeline, type PipelineNode, type Wire } from '../../engine/model/pipelineTypes.ts';
import { LIFECYCLE_EVENT_TYPES } from '../../engine/model/event.ts';
import { HANDLER_ACTION_TYPES } from '../../engine/model/pipelineTypes.ts';
import { defaultAction } from '../../web/model/nodeFactory.ts';
import { autoLayout } from '../../web/model/autoLayout.ts';

/** A deterministic pseudo-random sequence (mulberry32), so every run measures the same graph. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A valid pipeline of `events + matchers + handlers` nodes and exactly `wires` wires, laid out with the
 * editor's own auto-layout: 30 + 120 + 150 nodes and 400 wires by default.
 */
export function bigPipeline(events = 30, matchers = 120, handlers = 150, wireCount = 400): Pipeline {
  const random = rng(42);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const nodes: PipelineNode[] = [];
  for (let i = 0; i < events; i++) nodes.push({ id: `ev-${i}`, kind: 'event', pattern: LIFECYCLE_EVENT_TYPES[i % LIFECYCLE_EVENT_TYPES.length] as string });
  for (let i = 0; i < matchers; i++) {
    nodes.push({ id: `m-${i}`, kind: 'matcher', label: `Matcher ${i}`, when: { 'payload.tool_name': { in: [`tool_${i}`, `tool_${i + 1}`] } } });
  }
  for (let i = 0; i < handlers; i++) {
    const type = HANDLER_ACTION_TYPES[i % (HANDLER_ACTION_TYPES.length - 1)] as (typeof HANDLER_ACTION_TYPES)[number]; // no code nodes
    nodes.push({ id: `h-${i}`, kind: 'handler', name: `Handler ${i}`, order: i, enabled: true, shadow: false, on_error: 'block', action: defaultAction(type) });
  }
  const wires: Wire[] = [];
  const seen = new Set<string>();
  const add = (from: string, to: string) => {
    const key = `${from}>${to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    wires.push({ from, to });
    return true;
  };
  // Every matcher fed by an event or an earlier matcher (acyclic by index), every handler by something.
  for (let i = 0; i < matchers; i++) add(i > 0 && random() < 0.4 ? `m-${Math.floor(random() * i)}` : `ev-${Math.floor(random() * events)}`, `m-${i}`);
  for (let i = 0; i < handlers; i++) add(random() < 0.7 ? `m-${Math.floor(random() * matchers)}` : `ev-${Math.floor(random() * events)}`, `h-${i}`);
  while (wires.length < wireCount) {
    add(random() < 0.5 ? pick(nodes.filter((n) => n.kind === 'event')).id : `m-${Math.floor(random() * matchers)}`, `h-${Math.floor(random() * handlers)}`);
  }
  const doc: Pipeline = { format: PIPELINE_FORMAT, version: PIPELINE_VERSION, name: 'Benchmark: 300 nodes, 400 wires', event_types: [], nodes, wires };
  return { ...doc, layout: { nodes: autoLayout(doc) } };
}
