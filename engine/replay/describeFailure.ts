import type { JsonValue } from '../model/json.ts';
import { isJsonObject, ownGet } from '../model/json.ts';
import type { ClauseOp, ConditionExplain } from '../match/types.ts';
import { valueText } from './replayText.ts';

/** Why a condition failed, read from its explanation [X2][X3]: the first failing part, not a re-evaluation. */
export type ConditionFailure =
  | { kind: 'clause'; path: string; op: ClauseOp; expected: JsonValue; actual?: JsonValue; missing: boolean; hint?: string }
  /** An `any` where no alternative held (none at all when it was empty). */
  | { kind: 'none_of'; alternatives: ConditionFailure[] }
  /** A `not` whose inner condition held; `held` is the first clause that held inside it, if any. */
  | { kind: 'not'; held: Extract<ConditionExplain, { kind: 'clause' }> | null }
  | { kind: 'code'; error?: { kind: string; message: string; line?: number; column?: number } };

/** The first failure in a failed condition explanation (the first failing child of an `all`). */
export function firstFailure(c: ConditionExplain): ConditionFailure {
  switch (c.kind) {
    case 'clause': {
      const out: ConditionFailure = { kind: 'clause', path: c.path, op: c.op, expected: c.expected, missing: c.missing };
      if (c.actual !== undefined) out.actual = c.actual;
      if (c.hint !== undefined) out.hint = c.hint;
      return out;
    }
    case 'all': {
      const failed = c.children.find((ch) => !ch.pass);
      if (!failed) throw new Error('firstFailure: an `all` that failed has no failing child');
      return firstFailure(failed);
    }
    case 'any':
      return { kind: 'none_of', alternatives: c.children.map(firstFailure) };
    case 'not':
      return { kind: 'not', held: firstHeldClause(c.child) };
    case 'code':
      return c.error ? { kind: 'code', error: c.error } : { kind: 'code' };
  }
}

function firstHeldClause(c: ConditionExplain): Extract<ConditionExplain, { kind: 'clause' }> | null {
  if (!c.pass) return null;
  if (c.kind === 'clause') return c;
  if (c.kind === 'all' || c.kind === 'any') {
    for (const ch of c.children) {
      const found = firstHeldClause(ch);
      if (found) return found;
    }
  }
  return null;
}

/** The failure in words: "`payload.tool_name` is "Read"; expected one of ["Bash","rm"]". */
export function failureSentence(f: ConditionFailure): string {
  switch (f.kind) {
    case 'clause':
      if (f.missing) return f.hint ?? `\`${f.path}\` is missing`;
      if (f.op === 'exists') return `\`${f.path}\` exists (${valueText(f.actual)}); expected it to be absent`;
      return `\`${f.path}\` is ${valueText(f.actual)}; expected ${expectation(f.op, f.expected)}`;
    case 'none_of': {
      if (f.alternatives.length === 0) return 'an empty `any` never holds';
      const shown = f.alternatives.slice(0, 3).map(failureSentence).join('; ');
      const more = f.alternatives.length > 3 ? `; and ${f.alternatives.length - 3} more` : '';
      return `none of the alternatives held (${shown}${more})`;
    }
    case 'not':
      return f.held ? `a negated condition held (\`${f.held.path}\` is ${valueText(f.held.actual)})` : 'a negated condition held';
    case 'code':
      return f.error ? `its code failed (${f.error.kind}${f.error.line !== undefined ? ` at line ${f.error.line}` : ''}: ${f.error.message})` : 'its code did not return true';
  }
}

function expectation(op: ClauseOp, expected: JsonValue): string {
  const v = op === 'regex' ? regexText(expected) : valueText(expected);
  switch (op) {
    case 'eq':
      return v;
    case 'ne':
      return `anything but ${v}`;
    case 'in':
      return `one of ${v}`;
    case 'nin':
      return `none of ${v}`;
    case 'regex':
      return `a string matching ${v}`;
    case 'prefix':
      return `a string starting with ${v}`;
    case 'suffix':
      return `a string ending with ${v}`;
    case 'contains':
      return `a string or array containing ${v}`;
    case 'exists':
      return expected === false ? 'no value' : 'a value';
    case 'gt':
      return `more than ${v}`;
    case 'gte':
      return `at least ${v}`;
    case 'lt':
      return `less than ${v}`;
    case 'lte':
      return `at most ${v}`;
  }
}

function regexText(expected: JsonValue): string {
  if (typeof expected === 'string') return `/${expected}/`;
  if (isJsonObject(expected)) {
    const pattern = ownGet(expected, 'pattern');
    const flags = ownGet(expected, 'flags');
    if (typeof pattern === 'string') return `/${pattern}/${typeof flags === 'string' ? flags : ''}`;
  }
  return valueText(expected);
}
