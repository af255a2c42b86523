import { isJsonObject, type JsonValue } from '../model/json.ts';
import { didYouMeanText } from '../model/didYouMean.ts';
import type { JsonPath, Problem } from '../model/problem.ts';
import type { ClauseOp, ConditionExplain } from './types.ts';
import { compileGetter, compileNumberReader, parsePath, type Getter, type NumberReader, type ParsedPath, type Scope } from './path.ts';
import { compileOperator, isOperator, OPERATORS, type Predicate } from './operators.ts';
import { missingPathHint } from './nearMiss.ts';
import { clauseAtoms, requireAll, requireAny, requireAtoms, UNKNOWN, type Requirement } from './atoms.ts';

/** A condition compiled once at load [V5]: a fast test, an explaining twin, and hints for the value index. */
export interface CompiledCondition {
  test(scope: Scope): boolean;
  explain(scope: Scope): ConditionExplain;
  /** The atoms that must hold for the condition to pass, and whether they are the verdict: the dispatcher's index. */
  readonly required: Requirement;
  /** Every path the condition reads (for lint and completion). */
  readonly paths: readonly string[];
}

interface Clause {
  path: ParsedPath;
  getter: Getter;
  number: NumberReader;
  op: ClauseOp;
  expected: JsonValue;
  predicate: Predicate;
  /** See `OperatorCompile.text`. */
  text: ((s: string) => boolean) | undefined;
}

type Node =
  | { kind: 'clause'; clause: Clause }
  | { kind: 'all' | 'any'; children: Node[] }
  | { kind: 'not'; child: Node };

const COMBINATORS = new Set(['all', 'any', 'not']);

/**
 * Compiles a condition [C1]-[C9]. Problems are pushed with their JSON path under `at`; the result is usable
 * only when no problem was added. `compileCondition({ 'payload.tool_name': { in: ['rm'] } }, ['when'], problems)`.
 */
export function compileCondition(condition: unknown, at: JsonPath, problems: Problem[], nodeId?: string): CompiledCondition {
  const paths: string[] = [];
  const push = (code: Problem['code'], path: JsonPath, message: string) =>
    problems.push({ code, severity: 'error', path, message, ...(nodeId !== undefined ? { node_id: nodeId } : {}) });

  function compileObject(cond: unknown, where: JsonPath): Node {
    if (!isJsonObject(cond)) {
      push('bad_operand', where, 'a condition must be an object such as {"payload.tool_name": {"eq": "Bash"}}');
      return { kind: 'all', children: [] };
    }
    const children: Node[] = [];
    for (const key of Object.keys(cond)) {
      const value = cond[key]!;
      const here = [...where, key];
      if (key === 'all' || key === 'any') {
        if (!Array.isArray(value)) push('bad_operand', here, `"${key}" needs a list of conditions`);
        else children.push({ kind: key, children: value.map((c, i) => compileObject(c, [...here, i])) });
      } else if (key === 'not') {
        children.push({ kind: 'not', child: compileObject(value, here) });
      } else {
        children.push(...compileClauses(key, value, here));
      }
    }
    return children.length === 1 ? children[0]! : { kind: 'all', children };
  }

  function compileClauses(pathText: string, operand: JsonValue, here: JsonPath): Node[] {
    const parsed = parsePath(pathText);
    if (!parsed.ok) {
      push(COMBINATORS.has(pathText) ? 'bad_operand' : 'bad_path', here, parsed.message);
      return [];
    }
    paths.push(pathText);
    const getter = compileGetter(parsed.path);
    const number = compileNumberReader(parsed.path, getter);
    const ops: [string, JsonValue][] = isJsonObject(operand) ? Object.entries(operand) : [['eq', operand]];
    if (ops.length === 0) push('bad_operand', here, `"${pathText}" has no operator; use one of ${OPERATORS.join(', ')}`);
    const nodes: Node[] = [];
    for (const [op, expected] of ops) {
      if (!isOperator(op)) {
        push('unknown_operator', [...here, op], `unknown operator "${op}" on "${pathText}"${didYouMeanText(op, OPERATORS)}; use one of ${OPERATORS.join(', ')}`);
        continue;
      }
      const compiled = compileOperator(op, expected);
      if (!compiled.ok) {
        push(compiled.code, isJsonObject(operand) ? [...here, op] : here, compiled.message);
        continue;
      }
      nodes.push({ kind: 'clause', clause: { path: parsed.path, getter, number, op, expected, predicate: compiled.predicate, text: compiled.text } });
    }
    return nodes;
  }

  const root = compileObject(condition, at);
  return { test: closureOf(root), explain: (scope) => explainNode(root, scope), required: requirementOf(root), paths };
}

/**
 * The fast test as nested closures, one per node, built once: no tree walk and no switch per event. Its
 * verdict equals `explainNode`'s [X5].
 */
function closureOf(node: Node): (scope: Scope) => boolean {
  switch (node.kind) {
    case 'clause': {
      const { getter, predicate, op, expected, number, path, text } = node.clause;
      if (typeof expected === 'number' && (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte')) return compareClosure(number, op, expected);
      return specialised(path, getter, op, expected, predicate, text);
    }
    case 'all': {
      const parts = node.children.map(closureOf);
      if (parts.length === 1) return parts[0]!;
      if (parts.length === 2) {
        const [a, b] = parts as [(s: Scope) => boolean, (s: Scope) => boolean];
        return (scope) => a(scope) && b(scope);
      }
      return (scope) => {
        for (let i = 0; i < parts.length; i++) if (!parts[i]!(scope)) return false;
        return true;
      };
    }
    case 'any': {
      const parts = node.children.map(closureOf);
      return (scope) => {
        for (let i = 0; i < parts.length; i++) if (parts[i]!(scope)) return true;
        return false;
      };
    }
    case 'not': {
      const inner = closureOf(node.child);
      return (scope) => !inner(scope);
    }
  }
}

const SLOT = new Float64Array(1);

/** A top-level payload key that no prototype provides: read as `scope.payload[key]` (see compileGetter). */
function payloadKey(path: ParsedPath): string | null {
  if (path.root !== 'payload' || path.segments.length !== 1) return null;
  const k = path.segments[0]!;
  return k in Object.prototype || /^(0|[1-9][0-9]*)$/.test(k) ? null : k;
}

const isPrimitive = (v: JsonValue): boolean => v === null || typeof v !== 'object';

/**
 * Closures of their own for the commonest clause shapes, one call instead of a getter and a predicate
 * (the same verdicts as `compileOperator`'s predicates, [C3][C4]): eq/ne on a primitive is `===`/`!==`; `in`
 * of primitives is `===` against a few or a Set of many (neither ever holds for an object or a missing
 * value, as `memberOf` answers); regex/prefix/suffix the operator's string test behind a `typeof` check.
 * Otherwise the predicate on the value, read inline for a top-level key.
 */
function specialised(path: ParsedPath, getter: Getter, op: ClauseOp, expected: JsonValue, predicate: Predicate, text: ((s: string) => boolean) | undefined): (scope: Scope) => boolean {
  const key = payloadKey(path);
  if ((op === 'eq' || op === 'ne') && isPrimitive(expected)) {
    if (op === 'eq') return key !== null ? (scope) => scope.payload[key] === expected : (scope) => getter(scope) === expected;
    return key !== null ? (scope) => scope.payload[key] !== expected : (scope) => getter(scope) !== expected;
  }
  if (op === 'in' && Array.isArray(expected) && expected.every(isPrimitive)) {
    const list = [...new Set(expected)];
    // A few values compared in line (one closure per count, so nothing is called per value); many in a Set.
    const read: Getter = key !== null ? (scope) => scope.payload[key] : getter;
    switch (list.length) {
      case 1: {
        const [x] = list;
        return key !== null ? (scope) => scope.payload[key] === x : (scope) => getter(scope) === x;
      }
      case 2: {
        const [x, y] = list;
        return key !== null ? (scope) => { const a = scope.payload[key]; return a === x || a === y; } : (scope) => { const a = getter(scope); return a === x || a === y; };
      }
      case 3: {
        const [x, y, z] = list;
        return (scope) => { const a = read(scope); return a === x || a === y || a === z; };
      }
      case 4: {
        const [x, y, z, w] = list;
        return (scope) => { const a = read(scope); return a === x || a === y || a === z || a === w; };
      }
    }
    const set = new Set<JsonValue | undefined>(list);
    return key !== null ? (scope) => set.has(scope.payload[key]) : (scope) => set.has(getter(scope));
  }
  // An operator that passes only on strings: its string test called in line.
  if (text !== undefined) {
    return key !== null ? (scope) => { const a = scope.payload[key]; return typeof a === 'string' && text(a); } : (scope) => { const a = getter(scope); return typeof a === 'string' && text(a); };
  }
  return key !== null ? (scope) => predicate(scope.payload[key]) : (scope) => predicate(getter(scope));
}

/**
 * A numeric compare read unboxed (see NumberReader): the same verdict as `compileCompare`'s predicate on the
 * getter's value (a number compared with the bound; anything else fails) [C6].
 */
function compareClosure(read: NumberReader, op: 'gt' | 'gte' | 'lt' | 'lte', bound: number): (scope: Scope) => boolean {
  switch (op) {
    case 'gt':
      return (scope) => read(scope, SLOT) && SLOT[0]! > bound;
    case 'gte':
      return (scope) => read(scope, SLOT) && SLOT[0]! >= bound;
    case 'lt':
      return (scope) => read(scope, SLOT) && SLOT[0]! < bound;
    case 'lte':
      return (scope) => read(scope, SLOT) && SLOT[0]! <= bound;
  }
}

/** Evaluates every clause (no short-circuit) so the explanation shows all of them; the verdict equals the closure's. */
function explainNode(node: Node, scope: Scope): ConditionExplain {
  switch (node.kind) {
    case 'clause': {
      const { clause } = node;
      const actual = clause.getter(scope);
      const pass = clause.predicate(actual);
      const out: ConditionExplain = { kind: 'clause', path: clause.path.text, op: clause.op, expected: clause.expected, missing: actual === undefined, pass };
      if (actual !== undefined) out.actual = actual;
      else out.hint = missingPathHint(scope, clause.path);
      return out;
    }
    case 'all':
    case 'any': {
      const children = node.children.map((c) => explainNode(c, scope));
      const pass = node.kind === 'all' ? children.every((c) => c.pass) : children.some((c) => c.pass);
      return { kind: node.kind, pass, children };
    }
    case 'not': {
      const child = explainNode(node.child, scope);
      return { kind: 'not', pass: !child.pass, child };
    }
  }
}

/**
 * What the node requires for the candidate index [fast path]: a clause its atoms (exact for eq/in and numeric
 * compares, which pass exactly when their atom holds), AND all its children's groups, OR one group of their
 * union, NOT nothing.
 */
function requirementOf(node: Node): Requirement {
  switch (node.kind) {
    case 'clause': {
      const { path, getter, op, expected, number } = node.clause;
      // Exact when every atom is a value, a range or an exact literal (eq/in, numeric compares, prefix/suffix,
      // finite-language regexes `^(a|b)$`, `^(ls|cat) `, `\.(ts|js)$`).
      const atoms = clauseAtoms(path.text, getter, op, expected, number);
      return requireAtoms(atoms, atoms !== null && atoms.every((a) => a.kind !== 'literal' || a.exact));
    }
    case 'all':
      return requireAll(node.children.map(requirementOf));
    case 'any':
      return requireAny(node.children.map(requirementOf));
    case 'not':
      return UNKNOWN;
  }
}
