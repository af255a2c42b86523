/**
 * ISO 8601 text of a clock value (ms since the epoch), or null when it is no representable time (NaN,
 * ±Infinity, beyond ±8.64e15). The last answer is remembered: every handler of an event shares one `now`.
 */
let lastMs = NaN;
let lastIso: string | null = null;
export function isoTime(ms: number): string | null {
  if (ms !== lastMs) {
    const d = new Date(ms);
    lastIso = Number.isNaN(d.getTime()) ? null : d.toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** `isoTime` for a record that must carry a time: an unrepresentable clock value is an error, not a guess. */
export function requireIsoTime(ms: number): string {
  const iso = isoTime(ms);
  if (iso === null) throw new RangeError(`the clock gave ${ms}, which is not a time`);
  return iso;
}
