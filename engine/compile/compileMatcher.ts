import type { MatcherNode } from '../model/pipelineTypes.ts';
import type { JsonPath, Problem } from '../model/problem.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { compileCondition } from '../match/compileCondition.ts';
import { describeMatcher } from '../model/describeCondition.ts';
import { requireAll, UNKNOWN, type Requirement } from '../match/atoms.ts';
import type { Scope } from '../match/path.ts';
import type { ConditionExplain } from '../match/types.ts';
import { compileCodeMatcher } from './codeAction.ts';

/** A matcher node compiled once: its condition (with the tools/agents shorthands) and its code, AND-ed [M7][M8]. */
export interface CompiledMatcher {
  id: string;
  label: string;
  /**
   * True or false, or the failure of the matcher's code (a throw, a timeout, an invalid result) when the
   * conditions pass and the code could not answer [M8]: the handler behind it follows its error policy.
   */
  test(scope: Scope): MatcherVerdict;
  explain(scope: Scope): ConditionExplain;
  /** The atoms that hold whenever the matcher passes, and whether they are its verdict (conditions only, no code) [fast path]. */
  required: Requirement;
  paths: readonly string[];
}

/** A code failure on the way to a handler: which matcher, and what went wrong. */
export interface MatcherFailure {
  matcher_id: string;
  kind: string;
  message: string;
  line?: number;
  column?: number;
}

export type MatcherVerdict = boolean | MatcherFailure;

/**
 * The verdict an explanation stands for, as `test` gives it: pass, fail, or — when every condition passes
 * and only the code failed — that failure. A failing condition beside a failing code is a plain fail.
 */
export function verdictOfExplain(matcherId: string, c: ConditionExplain): MatcherVerdict {
  if (c.pass) return true;
  const code = c.kind === 'code' ? c : c.kind === 'all' ? c.children.find((x) => x.kind === 'code') : undefined;
  if (!code || code.kind !== 'code' || !code.error) return false;
  if (c.kind === 'all' && !c.children.every((x) => x === code || x.pass)) return false;
  return failureOf(matcherId, code.error);
}

function failureOf(matcherId: string, e: { kind: string; message: string; line?: number; column?: number }): MatcherFailure {
  return { matcher_id: matcherId, kind: e.kind, message: e.message, ...(e.line !== undefined ? { line: e.line } : {}), ...(e.column !== undefined ? { column: e.column } : {}) };
}

/** Compiles a matcher node; problems carry the node id and JSON path under `at`. */
export function compileMatcher(node: MatcherNode, at: JsonPath, problems: Problem[], sandbox: Sandbox | null, requireSandbox: boolean): CompiledMatcher {
  const parts: Record<string, unknown>[] = [];
  if (node.when !== undefined) parts.push(node.when);
  if (node.tools !== undefined) parts.push({ 'payload.tool_name': { in: node.tools } });
  if (node.agents !== undefined) parts.push({ 'event.agent_id': { in: node.agents } });
  if (parts.length === 0 && node.code === undefined) {
    problems.push({ code: 'empty_matcher', severity: 'error', path: at, message: `matcher "${node.label ?? node.id}" has no condition, tools, agents or code`, node_id: node.id });
  }
  // Shorthands are reported at their own field; `when` problems at their path inside `when`.
  const before = problems.length;
  const when = node.when !== undefined ? compileCondition(node.when, [...at, 'when'], problems, node.id) : null;
  const shorthand = parts.length > (node.when !== undefined ? 1 : 0)
    ? compileCondition({ all: parts.slice(node.when !== undefined ? 1 : 0) }, [...at, node.tools !== undefined ? 'tools' : 'agents'], problems, node.id)
    : null;
  for (let i = before; i < problems.length; i++) problems[i] = { ...problems[i]!, path: fixShorthandPath(problems[i]!.path, at) };
  const code = node.code !== undefined ? compileCodeMatcher(node, node.code, [...at, 'code'], problems, sandbox, requireSandbox) : null;

  const conditions = [when, shorthand].filter((c) => c !== null);
  // Explanations name a matcher by its label, or by what it tests when it has none.
  const label = node.label ?? describeMatcher(node, 80);
  const tests = conditions.map((c) => c.test);
  // The common matcher is one condition and no code: its test is the condition's own closure.
  const test: (scope: Scope) => MatcherVerdict =
    !code && tests.length === 1
      ? tests[0]!
      : (scope) => {
          for (let i = 0; i < tests.length; i++) if (!tests[i]!(scope)) return false;
          if (!code) return true;
          const r = code(scope);
          return r.kind === 'code' && r.error ? failureOf(node.id, r.error) : r.pass;
        };
  const explain = (scope: Scope): ConditionExplain => {
    if (!code && conditions.length === 1) return conditions[0]!.explain(scope);
    const children: ConditionExplain[] = conditions.map((c) => c.explain(scope));
    if (code) children.push(code(scope));
    if (children.length === 1) return children[0]!;
    return { kind: 'all', pass: children.every((c) => c.pass), children };
  };
  return {
    id: node.id,
    label,
    test,
    explain,
    required: code ? { groups: requireAll(conditions.map((c) => c.required)).groups, exact: false } : conditions.length ? requireAll(conditions.map((c) => c.required)) : UNKNOWN,
    paths: conditions.flatMap((c) => c.paths),
  };
}

/** Shorthand conditions were compiled under a synthetic `all`; point their problems at the field itself. */
function fixShorthandPath(path: JsonPath, at: JsonPath): JsonPath {
  const i = path.indexOf('all');
  if (i === at.length + 1 && (path[at.length] === 'tools' || path[at.length] === 'agents')) return path.slice(0, at.length + 1);
  return path;
}
