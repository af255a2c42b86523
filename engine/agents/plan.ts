import { buildGraph, pathsTo } from '../model/graph.ts';
import { parseEventPattern } from '../model/eventPattern.ts';
import { isJsonObject, ownGet, type JsonValue } from '../model/json.ts';
import type { ActionInput, PipelineNodeInput, Wire } from '../model/pipelineTypes.ts';
import { PORTABLE_TOOLS, type PortableTool } from '../model/portableTool.ts';
import type { AgentContract, AgentEventSpec } from './types.ts';

/*
 * What a pipeline needs from an agent [AG6]: for every handler, the paths that reach it, the native events each
 * path listens to and the tools it is narrowed to. The loss report (loss.ts) and the generated configuration
 * (install.ts) both read this one analysis, so a hook is installed exactly where a loss is reported.
 */

/** A pipeline as far as this analysis reads it (as written or as loaded). */
export interface PipelineShape {
  nodes: readonly PipelineNodeInput[];
  wires: readonly Wire[];
}

/** Which tools a path is narrowed to: portable kinds and/or the agent's own names; null: any tool. */
export interface ToolNarrowing {
  kinds: ReadonlySet<PortableTool> | null;
  names: ReadonlySet<string> | null;
  /** The matcher whose clause names the tools (the last to narrow `names`): the loss report marks that node. */
  namedBy?: string;
}

/** One handler reached on one native event through one path. */
export interface Reach {
  handler: string;
  action: ActionInput;
  eventNode: string;
  matchers: readonly string[];
  event: AgentEventSpec;
  tools: ToolNarrowing;
}

/** Literal strings of a clause operand: `"x"`, `{eq: "x"}`, `{in: ["x", "y"]}`; null when not a plain list of strings. */
function literals(operand: JsonValue | undefined): string[] | null {
  if (typeof operand === 'string') return [operand];
  if (!isJsonObject(operand)) return null;
  const keys = Object.keys(operand);
  if (keys.length !== 1) return null;
  const v = ownGet(operand, keys[0]!);
  if (keys[0] === 'eq' && typeof v === 'string') return [v];
  if (keys[0] === 'in' && Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return null;
}

function intersect<T>(a: ReadonlySet<T> | null, b: readonly T[] | null): ReadonlySet<T> | null {
  if (b === null) return a;
  return a === null ? new Set(b) : new Set(b.filter((x) => a.has(x)));
}

/** The narrowing a chain of matchers puts on the tool: top-level clauses on `payload.tool`, `payload.tool_name`, and `tools`. */
export function narrowing(matchers: readonly PipelineNodeInput[]): ToolNarrowing {
  let kinds: ReadonlySet<PortableTool> | null = null;
  let names: ReadonlySet<string> | null = null;
  let namedBy: string | undefined;
  for (const m of matchers) {
    if (m.kind !== 'matcher') continue;
    const when = isJsonObject(m.when) ? m.when : null;
    const byName = when ? literals(ownGet(when, 'payload.tool_name')) : null;
    if (m.tools) names = intersect(names, m.tools);
    names = intersect(names, byName);
    if (m.tools || byName) namedBy = m.id;
    const k = when ? literals(ownGet(when, 'payload.tool')) : null;
    if (k) kinds = intersect(kinds, k.filter((x): x is PortableTool => (PORTABLE_TOOLS as readonly string[]).includes(x)));
  }
  return { kinds, names, ...(namedBy !== undefined ? { namedBy } : {}) };
}

/** Whether a per-kind event (Cursor's, Windsurf's) can carry a call the path is narrowed to. */
function eventFits(event: AgentEventSpec, tools: ToolNarrowing): boolean {
  if (!event.tool || tools.kinds === null) return true;
  // Windsurf's pre_write_code carries writes and edits alike.
  return tools.kinds.has(event.tool) || (event.tool === 'edit' && tools.kinds.has('write'));
}

/**
 * Native events installed in place of others: Cursor's generic preToolUse/postToolUse cover its per-kind events
 * (routing both would decide one call twice), so the per-kind ones are neither installed nor reported.
 */
export const COVERED_BY: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['cursor', new Map([['beforeShellExecution', 'preToolUse'], ['beforeMCPExecution', 'preToolUse'], ['beforeReadFile', 'preToolUse'], ['afterShellExecution', 'postToolUse'], ['afterMCPExecution', 'postToolUse'], ['afterFileEdit', 'postToolUse']])],
]);

/** One path from an event node to a handler, with the tools it is narrowed to. */
export interface PathNarrowing {
  handler: string;
  pattern: string;
  tools: ToolNarrowing;
}

/** Every (handler, native event) a pipeline reaches in an agent; also the event nodes no native event matches. */
export function reaches(doc: PipelineShape, contract: AgentContract): { reaches: Reach[]; unmatched: { node: string; pattern: string }[]; paths: PathNarrowing[] } {
  const covered = COVERED_BY.get(contract.id);
  const paths: PathNarrowing[] = [];
  const graph = buildGraph({ nodes: doc.nodes as never, wires: doc.wires });
  const out: Reach[] = [];
  const unmatched = new Map<string, string>();
  for (const n of doc.nodes) {
    if (n.kind !== 'handler' || n.enabled === false || n.shadow === true) continue;
    for (const path of pathsTo(graph, n.id)) {
      const ev = graph.nodes.get(path[0]!);
      if (!ev || ev.kind !== 'event') continue;
      const p = parseEventPattern(ev.pattern);
      if (!p.ok) continue;
      const matcherNodes = path.slice(1, -1).map((id) => graph.nodes.get(id)!).filter(Boolean) as PipelineNodeInput[];
      const tools = narrowing(matcherNodes);
      paths.push({ handler: n.id, pattern: ev.pattern, tools });
      const events = [...contract.events.values()].filter((e) => p.pattern.matches(e.type) && !covered?.has(e.name));
      if (events.length === 0) unmatched.set(ev.id, ev.pattern);
      for (const event of events) {
        if (!eventFits(event, tools)) continue;
        out.push({ handler: n.id, action: n.action, eventNode: ev.id, matchers: path.slice(1, -1), event, tools });
      }
    }
  }
  return { reaches: out, unmatched: [...unmatched].map(([node, pattern]) => ({ node, pattern })), paths };
}
