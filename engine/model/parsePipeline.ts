import { z } from 'zod';
import { isJsonObject, tooDeepAt, tooDeepMessage } from './json.ts';
import { migrate, type Migration } from './migrate.ts';
import { EVENT_TYPE_RE } from './event.ts';
import { buildGraph, findCycle, wireAllowed } from './graph.ts';
import { NodeSchema, PipelineSchema, WireSchema } from './pipelineSchema.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION, type Pipeline, type PipelineNode } from './pipelineTypes.ts';
import type { JsonPath, Problem } from './problem.ts';
import { didYouMeanText } from './didYouMean.ts';
import { parseEventPattern } from './eventPattern.ts';

/** Migrations of pipeline documents: version n → n + 1. Version 1 is the first; the table grows with the format. */
export const PIPELINE_MIGRATIONS: ReadonlyMap<number, Migration> = new Map();

export type ParseResult = {
  doc: Pipeline | null;
  problems: Problem[];
  /** When the document is refused for its structure, the nodes that are well-formed on their own, with their
   *  positions in `nodes`, so that their conditions and actions can be checked too [V2]. */
  partial?: { nodes: PipelineNode[]; indexes: number[] };
};

/**
 * Structural half of loading [V1]-[V4]: format and version (with migration), the schema of the envelope and
 * of each node and wire on its own (so one bad node does not hide the others), ids, wires, cycles and
 * event patterns. Returns the document when nothing structural is wrong, and every problem found.
 */
export function parsePipeline(input: unknown, migrations: ReadonlyMap<number, Migration> = PIPELINE_MIGRATIONS): ParseResult {
  const problems: Problem[] = [];
  const err = (code: Problem['code'], path: JsonPath, message: string, node_id?: string) =>
    problems.push({ code, severity: 'error', path, message, ...(node_id !== undefined ? { node_id } : {}) });

  if (!isJsonObject(input) || input.format !== PIPELINE_FORMAT) {
    const got = isJsonObject(input) ? (input.format === undefined ? 'no "format" field' : `format ${JSON.stringify(input.format)}`) : input === null ? 'null' : `a ${Array.isArray(input) ? 'list' : typeof input}`;
    err('not_a_pipeline', isJsonObject(input) ? ['format'] : [], `not a Hookwire pipeline: expected "format": "${PIPELINE_FORMAT}", found ${got}`);
    return { doc: null, problems };
  }
  // Before migration and zod, which recurse: `all` nested 700 deep must be a problem, not a RangeError [V9].
  const deep = tooDeepAt(input);
  if (deep) {
    err('too_deep', deep, `${tooDeepMessage('the pipeline', deep)}; conditions this deep are refused`);
    return { doc: null, problems };
  }
  const migrated = migrate(input, PIPELINE_VERSION, migrations, 'This pipeline');
  if (!migrated.ok) {
    err(migrated.code, ['version'], migrated.message);
    return { doc: null, problems };
  }
  const raw = migrated.doc;

  // Envelope first, with nodes and wires checked one by one below.
  const envelope = PipelineSchema.extend({ nodes: z.array(z.unknown()), wires: z.array(z.unknown()) }).safeParse(raw);
  if (!envelope.success) addZodIssues(envelope.error, [], raw, problems);
  const nodes: PipelineNode[] = [];
  const indexes: number[] = [];
  const rawNodes = Array.isArray(raw.nodes) ? raw.nodes : [];
  rawNodes.forEach((n, i) => {
    const parsed = NodeSchema.safeParse(n);
    if (parsed.success) {
      nodes.push(parsed.data);
      indexes.push(i);
    } else addZodIssues(parsed.error, ['nodes', i], n, problems, idOf(n));
  });
  const wires = (Array.isArray(raw.wires) ? raw.wires : []).flatMap((w, i) => {
    const parsed = WireSchema.safeParse(w);
    if (parsed.success) return [{ wire: parsed.data, i }];
    addZodIssues(parsed.error, ['wires', i], w, problems);
    return [];
  });

  checkGraph(nodes, rawNodes, wires, err);
  if (envelope.success) {
    envelope.data.event_types.forEach((d, i) => {
      if (!EVENT_TYPE_RE.test(d.type)) err('bad_event_type', ['event_types', i, 'type'], `event type "${d.type}" must be a dotted name such as "billing.charge"`);
    });
  }
  if (problems.length > 0 || !envelope.success) return { doc: null, problems, partial: { nodes, indexes } };
  return { doc: { ...envelope.data, nodes, wires: wires.map((w) => w.wire) }, problems };
}

function checkGraph(nodes: PipelineNode[], rawNodes: unknown[], wires: { wire: { from: string; to: string }; i: number }[], err: (code: Problem['code'], path: JsonPath, message: string, node_id?: string) => void) {
  const seen = new Map<string, number>();
  rawNodes.forEach((n, i) => {
    const id = idOf(n);
    if (id === undefined) return;
    if (seen.has(id)) err('duplicate_id', ['nodes', i, 'id'], `node id "${id}" is already used by nodes[${seen.get(id)}]`, id);
    else seen.set(id, i);
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  nodes.forEach((n) => {
    if (n.kind !== 'event') return;
    const parsed = parseEventPattern(n.pattern);
    if (!parsed.ok) err('bad_pattern', ['nodes', seen.get(n.id) ?? 0, 'pattern'], parsed.message, n.id);
  });
  const pairs = new Set<string>();
  for (const { wire, i } of wires) {
    const from = byId.get(wire.from);
    const to = byId.get(wire.to);
    if (!from || !to) {
      const missing = !from ? wire.from : wire.to;
      // A node that exists but failed its schema is reported there; its wires are not "missing" too.
      if (seen.has(missing)) continue;
      err('missing_node', ['wires', i, !from ? 'from' : 'to'], `wire ${i} refers to node "${missing}", which does not exist`);
      continue;
    }
    const key = JSON.stringify([wire.from, wire.to]);
    if (pairs.has(key)) err('duplicate_wire', ['wires', i], `wire "${wire.from}" → "${wire.to}" appears twice`);
    pairs.add(key);
    if (!wireAllowed(from.kind, to.kind)) {
      err('bad_wire', ['wires', i], `a wire cannot go from ${from.kind} "${wire.from}" to ${to.kind} "${wire.to}": wires run event → matcher → handler`, wire.to);
    }
  }
  const cycle = findCycle(buildGraph({ nodes, wires: wires.map((w) => w.wire) }));
  if (cycle) err('cycle', ['wires'], `wires form a cycle: ${cycle.map((id) => `"${id}"`).join(' → ')}`, cycle[0]);
}

function idOf(n: unknown): string | undefined {
  return isJsonObject(n) && typeof n.id === 'string' ? n.id : undefined;
}

/** Turns zod issues into problems with readable messages and full JSON paths. */
function addZodIssues(error: z.ZodError, base: JsonPath, value: unknown, problems: Problem[], nodeId?: string): void {
  // The path is the problem's own field (shown beside the message), so messages do not repeat it.
  const push = (code: Problem['code'], path: JsonPath, message: string) => problems.push({ code, severity: 'error', path, message, ...(nodeId ? { node_id: nodeId } : {}) });
  for (const issue of error.issues) {
    const rel = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const path = [...base, ...rel];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) push('unknown_field', [...path, key], `unknown field "${key}"${didYouMeanText(key, fieldNames())}`);
      continue;
    }
    if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) {
      const options = (issue.options as unknown[]).map(String);
      const got = valueAt(value, rel);
      const what = rel.at(-1) === 'kind' ? 'node kind' : rel.at(-2) === 'action' ? 'handler action type' : `"${String(rel.at(-1))}"`;
      const found = got === undefined ? `no ${what} is given` : typeof got === 'string' ? `"${got}" is not a ${what}${didYouMeanText(got, options)}` : `the ${what} must be a string`;
      push('schema', path, `${found} (one of ${options.join(', ')})`);
      continue;
    }
    push('schema', path, issue.message);
  }
}

/** The value at a relative path inside `value`, own properties only. */
function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const seg of path) {
    if (typeof v !== 'object' || v === null || !Object.prototype.hasOwnProperty.call(v, seg)) return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

let names: string[] | null = null;
/** Every field name the pipeline format has, from its JSON Schema: what a misspelled key is compared with. */
function fieldNames(): string[] {
  if (names) return names;
  const out = new Set<string>();
  const stack: unknown[] = [z.toJSONSchema(PipelineSchema, { unrepresentable: 'any', io: 'input' })];
  while (stack.length > 0) {
    const s = stack.pop();
    if (typeof s !== 'object' || s === null) continue;
    const props = (s as { properties?: Record<string, unknown> }).properties;
    if (props) for (const k of Object.keys(props)) out.add(k);
    for (const v of Object.values(s)) if (typeof v === 'object' && v !== null) stack.push(v);
  }
  return (names = [...out]);
}
