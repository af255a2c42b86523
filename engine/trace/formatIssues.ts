import type { z } from 'zod';

/** Formats zod issues for a problem message: `payload: expected record, received array; ts: Invalid ISO datetime`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], max = 3): string {
  const parts = issues.slice(0, max).map((i) => {
    const path = i.path.length ? i.path.map(String).join('.') : '(line)';
    return `${path}: ${i.message}`;
  });
  if (issues.length > max) parts.push(`and ${issues.length - max} more`);
  return parts.join('; ');
}

/** Position-aware description of a JSON.parse failure, without echoing the (possibly huge) input. */
export function jsonErrorDetail(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // V8 quotes a slice of the input in some messages ("Unexpected token 'x', "…" is not valid JSON"); keep it short.
  return msg.length > 200 ? `${msg.slice(0, 200)}…` : msg;
}
