// Conditions of a compiled pipeline as JavaScript expressions, for the Node-only generated dispatcher
// (engine/node/codegen/compileForNode.ts). Pipeline content is untrusted: a string from it enters the source
// only as a JSON.stringify'd literal (property keys and compared values); everything else (regexes, getters
// of inherited or index-like names, operators not inlined) is a constant the source names by number.
import { isJsonObject, type JsonValue } from '../../model/json.ts';
import type { ClauseOp } from '../../match/types.ts';
import { compileGetter, parsePath, type ParsedPath } from '../../match/path.ts';
import { compileOperator, isOperator } from '../../match/operators.ts';
import type { MatcherNode } from '../../model/pipelineTypes.ts';

/** What the generated source refers to by number: `K[i]`, bound to a local `k<i>` once per generated function. */
export class Constants {
  readonly values: unknown[] = [];
  /** A constant's local name in the generated source. */
  add(value: unknown): string {
    this.values.push(value);
    return `k${this.values.length - 1}`;
  }
}

/** Temporaries of one generated function (`let t0, t1, …`). */
export class Temps {
  count = 0;
  next(): string {
    return `t${this.count++}`;
  }
  declaration(): string {
    return this.count === 0 ? '' : `let ${Array.from({ length: this.count }, (_, i) => `t${i}`).join(', ')};`;
  }
}

/**
 * A literal for the source, or null when the value has none that reads back as itself (a non-finite number).
 * Strings through JSON.stringify, with U+2028/U+2029 escaped too (legal in literals since ES2019, but no
 * reason to rely on it).
 */
export function literal(v: JsonValue): string | null {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : null;
  if (typeof v === 'string') return JSON.stringify(v).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return null;
}

/** A key that plain indexing can only find as an own property of a JSON object (as `compileGetter` decides). */
function plainKey(s: string): boolean {
  return !(s in Object.prototype) && !/^(0|[1-9][0-9]*)$/.test(s);
}

const IS_OBJECT = (v: string) => `${v} !== null && typeof ${v} === "object" && !Array.isArray(${v})`;

/** The names the generated source reads from: the payload (`p`), state vars (`st`), the event (`ev`), the scope (`scope`). */
export interface SourceNames {
  payload: string;
  state: string;
  event: string;
  scope: string;
}

export class ConditionSource {
  constructor(private readonly k: Constants, private readonly t: Temps, private readonly names: SourceNames) {}

  /** A matcher's conditions (its `when` and the tools/agents shorthands, AND-ed as `compileMatcher` does); null when it has code. */
  matcher(node: MatcherNode): string | null {
    if (node.code !== undefined) return null;
    const parts: string[] = [];
    if (node.when !== undefined) parts.push(this.condition(node.when));
    if (node.tools !== undefined) parts.push(this.clause(mustParse('payload.tool_name'), 'in', node.tools));
    if (node.agents !== undefined) parts.push(this.clause(mustParse('event.agent_id'), 'in', node.agents));
    return and(parts);
  }

  /** A condition object as `compileCondition` reads it [C1][C8][C9]: keys AND-ed; `all`/`any` lists; `not`; other keys clauses. */
  condition(cond: unknown): string {
    if (!isJsonObject(cond)) throw new Error('compileForNode: a compiled pipeline has an invalid condition');
    const children: string[] = [];
    for (const key of Object.keys(cond)) {
      const value = cond[key]!;
      if (key === 'all' || key === 'any') {
        if (!Array.isArray(value)) throw new Error('compileForNode: a compiled pipeline has an invalid condition');
        const inner = value.map((c) => this.condition(c));
        children.push(key === 'all' ? and(inner) : or(inner));
      } else if (key === 'not') {
        children.push(`!(${this.condition(value)})`);
      } else {
        const path = mustParse(key);
        const ops: [string, JsonValue][] = isJsonObject(value) ? Object.entries(value) : [['eq', value]];
        for (const [op, expected] of ops) {
          if (!isOperator(op)) throw new Error('compileForNode: a compiled pipeline has an unknown operator');
          children.push(this.clause(path, op, expected));
        }
      }
    }
    return children.length === 1 ? children[0]! : and(children);
  }

  /** One clause [C2]-[C7]: the value read into a temporary, then the operator inline, or its compiled predicate. */
  clause(path: ParsedPath, op: ClauseOp, expected: JsonValue): string {
    const v = this.t.next();
    const read = `${v} = ${this.read(path)}`;
    return `(${read}, ${this.test(v, op, expected)})`;
  }

  private test(v: string, op: ClauseOp, expected: JsonValue): string {
    const lit = literal(expected);
    switch (op) {
      case 'eq':
      case 'ne':
        if (lit !== null) return `${v} ${op === 'eq' ? '===' : '!=='} ${lit}`;
        break;
      case 'in':
      case 'nin': {
        if (!Array.isArray(expected)) break;
        const lits = [...new Set(expected)].map(literal);
        if (lits.some((l) => l === null)) break;
        // Primitives only: membership is `===` (never true for an object or a missing value, as `memberOf` answers).
        const member = lits.length <= 8 ? or(lits.map((l) => `${v} === ${l}`)) : `${this.k.add(new Set(expected))}.has(${v})`;
        return op === 'in' ? member : `!(${member})`;
      }
      case 'exists':
        if (typeof expected === 'boolean') return `${v} ${expected ? '!==' : '==='} undefined`;
        break;
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        if (lit !== null && (typeof expected === 'number' || typeof expected === 'string')) {
          const sign = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[op];
          return `typeof ${v} === "${typeof expected}" && ${v} ${sign} ${lit}`;
        }
        break;
      case 'prefix':
      case 'suffix':
        if (typeof expected === 'string') return `typeof ${v} === "string" && ${v}.${op === 'prefix' ? 'startsWith' : 'endsWith'}(${lit})`;
        break;
      default:
        break;
    }
    // Regexes (RE2 and its literal shortcuts), deep equality, `contains`: the operator's own compiled predicate.
    const compiled = compileOperator(op, expected);
    if (!compiled.ok) throw new Error(`compileForNode: a compiled pipeline has an invalid operand (${compiled.message})`);
    return `${this.k.add(compiled.predicate)}(${v})`;
  }

  /** An expression reading a path [C2][V8]: own keys inline, anything a prototype could answer through the getter. */
  private read(path: ParsedPath): string {
    const n = this.names;
    if (path.root === 'event') return `${n.event}[${literal(path.segments[0]!)}]`;
    if (path.root === 'meta' || !path.segments.every(plainKey)) return `${this.k.add(compileGetter(path))}(${n.scope})`;
    const segs = path.segments;
    let expr = `${path.root === 'state' ? n.state : n.payload}[${literal(segs[0]!)}]`;
    for (let i = 1; i < segs.length; i++) {
      const t = this.t.next();
      expr = `(${t} = ${expr}, ${IS_OBJECT(t)} ? ${t}[${literal(segs[i]!)}] : undefined)`;
    }
    return expr;
  }
}

function mustParse(text: string): ParsedPath {
  const r = parsePath(text);
  if (!r.ok) throw new Error(`compileForNode: a compiled pipeline has an invalid path (${r.message})`);
  return r.path;
}

export function and(parts: string[]): string {
  if (parts.length === 0) return 'true';
  return parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' && ');
}

export function or(parts: string[]): string {
  if (parts.length === 0) return 'false';
  return parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' || ');
}
