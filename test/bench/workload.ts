// The generated workload of the dispatch benchmark (issue 2): the 11 lifecycle types; handlers with about
// 40% eq/in on a field, 20% regex, 20% numeric compares, 20% nested any/all of 2–3 clauses; 30% of handlers
// on a prefix pattern; events with ~10 payload fields; 5% of handlers block. Deterministic (seeded).
// Conditions are selective, as real guards are (each passes a few percent of events); the benchmark prints
// how many handlers fire per event so the figures can be read against that.
import { LIFECYCLE_EVENT_TYPES, type HookEvent, type JsonObject, type PipelineInput } from '../../engine/index.ts';

export function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

export const TOOLS = Array.from({ length: 40 }, (_, i) => `tool_${i}`);
const MODELS = ['opus', 'sonnet', 'haiku', 'gpt-5', 'gpt-5-mini', 'o4', 'o4-mini', 'gemini-pro', 'gemini-flash', 'llama', 'mistral', 'qwen'];
const TIERS = ['free', 'pro', 'team', 'enterprise', 'edu', 'trial', 'partner', 'internal'];
const WORDS = ['rm', 'ls', 'cat', 'sudo', 'git', 'push', 'curl', 'wget', 'chmod', 'echo', 'secret', 'token', 'prod', 'deploy', 'drop', 'table'];
const PREFIXES = ['tool.*', 'model.*', 'agent.*', 'final_answer.*'];

/** A condition clause of the requested kind. */
function clause(r: ReturnType<typeof rng>, kind: 'eq' | 'regex' | 'num'): JsonObject {
  if (kind === 'eq') {
    const field = r.pick(['tool_name', 'model', 'tier']);
    const domain = field === 'tool_name' ? TOOLS : field === 'model' ? MODELS : TIERS;
    return r.next() < 0.5 ? { [`payload.${field}`]: r.pick(domain) } : { [`payload.${field}`]: { in: [r.pick(domain), r.pick(domain)] } };
  }
  if (kind === 'regex') {
    const w1 = r.pick(WORDS);
    const w2 = r.pick(WORDS);
    const pattern = r.pick([`\\b${w1}\\s+${w2}\\b`, `${w1}[0-9]+`, `^${w1}\\b`, `${w1}.*${w2}`]);
    return { [`payload.${r.pick(['command', 'path'])}`]: { regex: pattern } };
  }
  // Thresholds in the tails, as guards are: "more than 4,700 tokens", "latency under 40 ms".
  const field = r.pick(['tokens', 'cost', 'latency_ms']);
  const max = field === 'tokens' ? 5000 : field === 'cost' ? 10 : 1000;
  const tail = max * (0.9 + r.next() * 0.1);
  const op = r.pick(['gt', 'gte', 'lt', 'lte']);
  const bound = op.startsWith('g') ? tail : max - tail;
  return { [`payload.${field}`]: { [op]: Math.round(bound * 100) / 100 } };
}

function condition(r: ReturnType<typeof rng>): JsonObject {
  const x = r.next();
  if (x < 0.4) return clause(r, 'eq');
  if (x < 0.6) return clause(r, 'regex');
  if (x < 0.8) return clause(r, 'num');
  const parts = Array.from({ length: 2 + r.int(2) }, () => clause(r, r.pick(['eq', 'regex', 'num'] as const)));
  return { [r.next() < 0.5 ? 'any' : 'all']: parts };
}

/** A pipeline of `n` handlers, each behind its own matcher, fed by shared event nodes. */
export function makePipeline(n: number, seed = 1): PipelineInput {
  const r = rng(seed);
  const patterns = [...LIFECYCLE_EVENT_TYPES, ...PREFIXES];
  const nodes: PipelineInput['nodes'] = patterns.map((p, i) => ({ id: `e${i}`, kind: 'event' as const, pattern: p }));
  const wires: PipelineInput['wires'] = [];
  for (let i = 0; i < n; i++) {
    const pattern = r.next() < 0.3 ? r.pick(PREFIXES) : r.pick(LIFECYCLE_EVENT_TYPES);
    const blocks = r.next() < 0.05;
    nodes.push({ id: `m${i}`, kind: 'matcher', when: condition(r) });
    nodes.push({ id: `h${i}`, kind: 'handler', name: `h${i}`, order: r.int(1000), action: blocks ? { type: 'block', reason: `blocked by h${i}` } : { type: 'audit' } });
    wires.push({ from: `e${patterns.indexOf(pattern)}`, to: `m${i}` }, { from: `m${i}`, to: `h${i}` });
  }
  // Every type sync: the seed and the libraries have no async events, so all must be able to block.
  const event_types = LIFECYCLE_EVENT_TYPES.map((type) => ({ type, mode: 'sync' as const }));
  return { format: 'hookwire.pipeline', version: 1, name: `bench-${n}`, event_types, nodes, wires };
}

/** `count` events with ten payload fields each. */
export function makeEvents(count: number, seed = 2): HookEvent[] {
  const r = rng(seed);
  const sentence = () => Array.from({ length: 2 + r.int(4) }, () => r.pick(WORDS) + (r.next() < 0.2 ? String(r.int(10)) : '')).join(' ');
  return Array.from({ length: count }, (_, i) => ({
    event_id: `ev${i}`,
    trace_id: 'bench',
    agent_id: 'agent',
    type: r.pick(LIFECYCLE_EVENT_TYPES),
    ts: '2026-01-01T00:00:00.000Z',
    payload: {
      tool_name: r.pick(TOOLS),
      model: r.pick(MODELS),
      tier: r.pick(TIERS),
      command: sentence(),
      path: `/srv/${r.pick(WORDS)}/${r.pick(WORDS)}.txt`,
      tokens: r.int(5000),
      cost: Math.round(r.next() * 1000) / 100,
      latency_ms: r.int(1000),
      retries: r.int(4),
      streaming: r.next() < 0.5,
    },
  }));
}
