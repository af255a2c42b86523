import type { JsonPrimitive, JsonValue } from '../model/json.ts';
import type { ClauseOp } from './types.ts';
import type { Getter, NumberReader } from './path.ts';
import { finiteLanguage } from '../accel/literalRegex.ts';
import { foldCase } from '../accel/fold.ts';
import { requiredLiteral } from '../accel/requiredLiteral.ts';

/**
 * A necessary condition the dispatcher can look up instead of evaluating: if a condition passes, at least
 * one of its atoms holds. Atoms are what makes the fast path sub-linear in the number of handlers.
 */
export type Atom =
  | { kind: 'value'; path: string; getter: Getter; values: readonly JsonPrimitive[] }
  | { kind: 'range'; path: string; getter: Getter; number: NumberReader; op: 'gt' | 'gte' | 'lt' | 'lte'; bound: number }
  | { kind: 'literal'; path: string; getter: Getter; text: string; folded: boolean; at: LiteralPlace; exact: boolean };

/**
 * Where a literal atom's text must occur in the string at its path: anywhere (`any`), at its start or at its
 * end. With `exact`, the clause passes exactly when one of its atoms holds (`prefix "rm "`, or a regex whose
 * language is those words at those places, `^(ls|cat)`), so an index hit is the verdict; without, the atom is
 * only necessary (a regex's required literal: `rm` of `rm\s+-rf`), and the clause is still evaluated.
 */
export type LiteralPlace = 'any' | 'start' | 'end';

/** The atom a single clause implies, if any. */
export function clauseAtom(path: string, getter: Getter, op: ClauseOp, expected: JsonValue, number: NumberReader = readNumber(getter)): Atom | null {
  switch (op) {
    case 'eq':
      return isPrimitive(expected) ? { kind: 'value', path, getter, values: [expected] } : null;
    case 'in':
      return Array.isArray(expected) && expected.every(isPrimitive) ? { kind: 'value', path, getter, values: expected } : null;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return typeof expected === 'number' ? { kind: 'range', path, getter, number, op, bound: expected } : null;
    case 'prefix':
    case 'suffix':
      return typeof expected === 'string' && expected.length > 0 ? { kind: 'literal', path, getter, text: expected, folded: false, at: op === 'prefix' ? 'start' : 'end', exact: true } : null;
    case 'regex': {
      const source = typeof expected === 'string' ? expected : typeof expected === 'object' && expected && !Array.isArray(expected) ? expected.pattern : null;
      const flags = typeof expected === 'object' && expected && !Array.isArray(expected) && typeof expected.flags === 'string' ? expected.flags : '';
      if (typeof source !== 'string') return null;
      const text = requiredLiteral(source);
      if (text === null) return null;
      const folded = flags.includes('i');
      return { kind: 'literal', path, getter, text: folded ? foldCase(text) : text, folded, at: 'any', exact: false };
    }
    default:
      return null; // ne, nin, exists, contains (arrays too): no safe necessary atom
  }
}

/**
 * The atoms of a clause: for a regex with a finite language (`^(sudo|su) `), one atom per word of it — one of
 * them occurs in any text it matches — which narrows far better than one required literal; else the
 * clause's single atom, if any. Without `i` or `m`, a word is filed where RE2 lets it match — the whole text
 * (a value), its start, its end or anywhere — and the atoms are exact: the regex passes exactly when one holds
 * (a finite language's words are ASCII, so code units and code points agree; see literalRegex.ts). With `i`
 * or `m` they are folded or unanchored necessary literals, and the regex is still evaluated.
 */
export function clauseAtoms(path: string, getter: Getter, op: ClauseOp, expected: JsonValue, number?: NumberReader): readonly Atom[] | null {
  if (op === 'regex') {
    const source = typeof expected === 'string' ? expected : typeof expected === 'object' && expected && !Array.isArray(expected) ? expected.pattern : null;
    const flags = typeof expected === 'object' && expected && !Array.isArray(expected) ? expected.flags ?? '' : '';
    if (typeof source === 'string' && typeof flags === 'string') {
      const lang = finiteLanguage(source, flags);
      if (lang !== null && lang.words.length > 0 && lang.words.length <= MAX_REGEX_WORDS) {
        if (!lang.fold && !lang.multiline) {
          const whole = lang.words.filter((w) => w.start && w.end).map((w) => w.text);
          const rest = lang.words.filter((w) => !(w.start && w.end));
          // An empty word at one end or none (`^`, `a?`) matches every text: nothing to index.
          if (!rest.some((w) => w.text === '')) {
            const atoms: Atom[] = rest.map((w) => ({ kind: 'literal', path, getter, text: w.text, folded: false, at: w.start ? 'start' : w.end ? 'end' : 'any', exact: true }));
            if (whole.length > 0) atoms.unshift({ kind: 'value', path, getter, values: [...new Set(whole)] });
            return atoms;
          }
        } else if (!lang.words.some((w) => w.text === '')) {
          return [...new Set(lang.words.map((w) => w.text))].map((text) => ({ kind: 'literal', path, getter, text, folded: lang.fold, at: 'any', exact: false }));
        }
      }
    }
  }
  const atom = clauseAtom(path, getter, op, expected, number);
  return atom ? [atom] : null;
}

/** At most this many words of a regex's finite language are filed in the index (else its required literal). */
const MAX_REGEX_WORDS = 16;

export { foldCase } from '../accel/fold.ts';

/**
 * What a condition requires, for the candidate index: groups that must all hold, each group atoms of which
 * one must hold (a conjunction of disjunctions over atoms). `[]` means nothing is known. With `exact`, the
 * condition passes exactly when every group holds, so an index hit is the verdict and needs no evaluation.
 */
export interface Requirement {
  readonly groups: readonly (readonly Atom[])[];
  readonly exact: boolean;
}

/** At most this many groups per handler (the index counts them in the bits of one 32-bit mask). */
export const MAX_GROUPS = 8;

export const UNKNOWN: Requirement = Object.freeze({ groups: Object.freeze([]), exact: false });

/** One clause's requirement: its atoms as one group. */
export function requireAtoms(atoms: readonly Atom[] | null, exact: boolean): Requirement {
  return atoms === null || atoms.length === 0 ? UNKNOWN : { groups: [atoms], exact };
}

/**
 * AND: every child's groups must hold. Past MAX_GROUPS the most selective are kept (still necessary, no
 * longer exact). An empty AND passes always: nothing known.
 */
export function requireAll(children: readonly Requirement[]): Requirement {
  if (children.length === 0) return UNKNOWN;
  const groups = children.flatMap((c) => c.groups);
  const exact = children.every((c) => c.exact);
  if (groups.length <= MAX_GROUPS) return groups.length === 0 ? UNKNOWN : { groups, exact };
  return { groups: [...groups].sort((a, b) => cost(a) - cost(b)).slice(0, MAX_GROUPS), exact: false };
}

/**
 * OR: one group, the union of each child's most selective group (every child must know something). Exact
 * when every child is exactly one group.
 */
export function requireAny(children: readonly Requirement[]): Requirement {
  if (children.length === 0 || children.some((c) => c.groups.length === 0)) return UNKNOWN;
  const union: Atom[] = [];
  for (const c of children) union.push(...bestGroup(c.groups));
  return { groups: [union], exact: children.every((c) => c.exact && c.groups.length === 1) };
}

function bestGroup(groups: readonly (readonly Atom[])[]): readonly Atom[] {
  let best = groups[0]!;
  for (const g of groups) if (cost(g) < cost(best)) best = g;
  return best;
}

/** Smaller is more selective: a hash lookup beats a substring test beats a range. */
function cost(atoms: readonly Atom[]): number {
  let total = 0;
  for (const a of atoms) total += a.kind === 'value' ? 1 + a.values.length * 0.05 : a.kind === 'literal' ? 3 - Math.min(a.text.length, 10) * 0.15 : 5;
  return total;
}

/** A number reader over a getter (boxes doubles; compileNumberReader does not). */
function readNumber(getter: Getter): NumberReader {
  return (scope, slot) => {
    const v = getter(scope);
    if (typeof v !== 'number') return false;
    slot[0] = v;
    return true;
  };
}

function isPrimitive(v: JsonValue): v is JsonPrimitive {
  return v === null || typeof v !== 'object';
}
