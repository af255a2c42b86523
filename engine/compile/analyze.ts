import type { EventMode } from '../model/event.ts';
import { eventModes } from '../model/eventModes.ts';
import { buildGraph, pathsTo, type PipelineGraph } from '../model/graph.ts';
import type { HandlerNode, Pipeline, PipelineNode } from '../model/pipelineTypes.ts';
import type { ParseResult } from '../model/parsePipeline.ts';
import type { Problem } from '../model/problem.ts';
import { parseEventPattern, type EventPattern } from '../model/eventPattern.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { compileAction } from './actions.ts';
import type { CompiledAction } from './types.ts';
import { compileMatcher, type CompiledMatcher } from './compileMatcher.ts';

/** A handler with its paths resolved and everything compiled, in execution order [H1]. */
export interface AnalyzedHandler {
  node: HandlerNode;
  /** Position in the `nodes` array: the tie rule for equal `order`. */
  docIndex: number;
  /** Position in execution order. */
  rank: number;
  paths: AnalyzedPath[];
  action: CompiledAction | null;
}

export interface AnalyzedPath {
  nodes: string[];
  eventNodeId: string;
  pattern: EventPattern;
  /** Matcher ids along the path, in wire order. */
  matchers: string[];
}

export interface Analysis {
  graph: PipelineGraph;
  handlers: AnalyzedHandler[];
  matchers: Map<string, CompiledMatcher>;
  modeOf: (type: string) => EventMode;
  /** Event types named anywhere (catalogue, declarations, exact patterns): used by lint. */
  knownTypes: Map<string, EventMode>;
}

/**
 * Loads a document as far as it goes [V2], from its structural parse (`parsePipeline`): either the full
 * analysis, or, when the structure is refused, the conditions and actions of the nodes that are well-formed,
 * so that every problem is reported at once. Shared by `loadPipeline` and `compilePipeline`. It takes the
 * parse rather than making it so that a caller holding an already validated document (the CLI's pipeline
 * cache, engine/node/pipelineCache.ts) compiles without loading the schema library at all.
 */
export function analyzeDocument(parsed: ParseResult, options: AnalyzeOptions): { doc: Pipeline; analysis: Analysis; problems: Problem[] } | { doc: null; problems: Problem[] } {
  if (!parsed.doc) {
    if (parsed.partial) checkNodeContents(parsed.partial.nodes, parsed.partial.indexes, parsed.problems, options);
    return { doc: null, problems: parsed.problems };
  }
  const problems: Problem[] = [];
  const analysis = analyzePipeline(parsed.doc, problems, options);
  if (problems.length > 0) return { doc: null, problems };
  return { doc: parsed.doc, analysis, problems };
}

/** Compiles the conditions and actions of nodes on their own (no wiring), for their problems only. */
function checkNodeContents(nodes: readonly PipelineNode[], indexes: readonly number[], problems: Problem[], options: AnalyzeOptions): void {
  nodes.forEach((node, k) => {
    const at = ['nodes', indexes[k]!];
    if (node.kind === 'matcher') compileMatcher(node, at, problems, options.sandbox, false);
    if (node.kind === 'handler') compileAction(node, at, problems, { ...options, requireSandbox: false });
  });
}

export interface AnalyzeOptions {
  sandbox: Sandbox | null;
  requireSandbox: boolean;
}

/**
 * Compiles every node of a structurally valid pipeline: matchers, actions, paths and the execution order.
 * Problems (bad conditions, regexes, templates, code) are pushed with their JSON paths [V5].
 */
export function analyzePipeline(doc: Pipeline, problems: Problem[], options: AnalyzeOptions): Analysis {
  const graph = buildGraph(doc);
  const matchers = new Map<string, CompiledMatcher>();
  const patterns = new Map<string, EventPattern>();
  doc.nodes.forEach((node, i) => {
    if (node.kind === 'matcher') matchers.set(node.id, compileMatcher(node, ['nodes', i], problems, options.sandbox, options.requireSandbox));
    if (node.kind === 'event') {
      const p = parseEventPattern(node.pattern);
      if (p.ok) patterns.set(node.id, p.pattern);
    }
  });

  const unordered: Omit<AnalyzedHandler, 'rank'>[] = [];
  doc.nodes.forEach((node, i) => {
    if (node.kind !== 'handler') return;
    const action = compileAction(node, ['nodes', i], problems, options);
    const paths = pathsTo(graph, node.id).map((chain) => ({
      nodes: chain,
      eventNodeId: chain[0]!,
      pattern: patterns.get(chain[0]!)!,
      matchers: chain.slice(1, -1),
    })).filter((p) => p.pattern !== undefined);
    unordered.push({ node, docIndex: i, paths, action });
  });
  // [H1] ascending order; equal orders keep document order (Array.prototype.sort is stable).
  const handlers = unordered
    .sort((a, b) => a.node.order - b.node.order || a.docIndex - b.docIndex)
    .map((h, rank) => ({ ...h, rank }));

  // [D8] declared mode, else the catalogue's, else sync (model/eventModes.ts).
  const modes = eventModes(doc);
  const knownTypes = new Map<string, EventMode>(modes.known);
  for (const p of patterns.values()) if (p.kind === 'exact' && !knownTypes.has(p.text)) knownTypes.set(p.text, 'sync');
  return { graph, handlers, matchers, modeOf: modes.modeOf, knownTypes };
}
