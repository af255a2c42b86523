import { EVENT_TYPE_RE } from './event.ts';

/** An event node's pattern compiled [M1]: exact, `prefix.*`, or `*`. */
export interface EventPattern {
  readonly text: string;
  readonly kind: 'exact' | 'prefix' | 'any';
  matches(type: string): boolean;
}

export type PatternParse = { ok: true; pattern: EventPattern } | { ok: false; message: string };

/** `parseEventPattern('tool.*').pattern.matches('tool.before_call') === true`. */
export function parseEventPattern(text: string): PatternParse {
  if (text === '*') return { ok: true, pattern: { text, kind: 'any', matches: () => true } };
  if (text.endsWith('.*')) {
    const stem = text.slice(0, -2);
    if (!EVENT_TYPE_RE.test(stem)) return { ok: false, message: bad(text) };
    const prefix = `${stem}.`;
    return { ok: true, pattern: { text, kind: 'prefix', matches: (type) => type.startsWith(prefix) } };
  }
  if (!EVENT_TYPE_RE.test(text)) return { ok: false, message: bad(text) };
  return { ok: true, pattern: { text, kind: 'exact', matches: (type) => type === text } };
}

function bad(text: string): string {
  return `event pattern "${text}" must be an exact type such as "tool.before_call", a prefix wildcard such as "tool.*", or "*"`;
}

/** True when some event type can match both patterns (used by lint to find handlers that share events). */
export function patternsOverlap(a: EventPattern, b: EventPattern): boolean {
  if (a.kind === 'any' || b.kind === 'any') return true;
  if (a.kind === 'exact' && b.kind === 'exact') return a.text === b.text;
  if (a.kind === 'exact') return b.matches(a.text);
  if (b.kind === 'exact') return a.matches(b.text);
  const pa = a.text.slice(0, -1);
  const pb = b.text.slice(0, -1);
  return pa.startsWith(pb) || pb.startsWith(pa);
}

/** True when every type `inner` selects is also selected by `outer`. */
export function patternCovers(outer: EventPattern, inner: EventPattern): boolean {
  if (outer.kind === 'any') return true;
  if (inner.kind === 'any') return false;
  if (outer.kind === 'exact') return inner.kind === 'exact' && inner.text === outer.text;
  const po = outer.text.slice(0, -1);
  return inner.kind === 'exact' ? inner.text.startsWith(po) : inner.text.slice(0, -1).startsWith(po);
}
