/** A timestamp read from a source: ISO text, and whether the source gave no time zone. */
export interface SourceTs {
  iso: string;
  /** The source wrote a local time without a zone; it was read as UTC. */
  naive: boolean;
}

const ZONED = /(Z|[+-]\d\d:?\d\d)$/i;
const ISO_LIKE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?/;

/**
 * Normalises a source timestamp to ISO 8601 UTC (`2026-02-10T21:11:52.438Z`) [I3]: ISO text with or
 * without a zone (none: read as UTC, flagged `naive`), or a number of seconds, milliseconds, microseconds
 * or nanoseconds since the epoch (told apart by size). Returns null for anything else.
 *
 * @example toIsoTs('2025-01-27T22:44:56.900854') → { iso: '2025-01-27T22:44:56.900Z', naive: true }
 */
export function toIsoTs(value: unknown): SourceTs | null {
  // Consecutive events of one record share its time: the last answer is kept (a frozen object, so sharing is safe).
  if (value === lastValue && (typeof value === 'string' || typeof value === 'number')) return lastResult;
  const result = convert(value);
  lastValue = value;
  lastResult = result && Object.freeze(result);
  return lastResult;
}

let lastValue: unknown = undefined;
let lastResult: SourceTs | null = null;

function convert(value: unknown): SourceTs | null {
  if (typeof value === 'string') {
    const s = value.trim();
    if (!ISO_LIKE.test(s)) return null;
    const naive = !ZONED.test(s);
    const ms = Date.parse(naive ? `${s}Z` : s);
    return Number.isFinite(ms) ? { iso: new Date(ms).toISOString(), naive } : null;
  }
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const ms = value > 1e17 ? value / 1e6 : value > 1e14 ? value / 1e3 : value > 1e11 ? value : value * 1000;
    const d = new Date(Math.floor(ms));
    return Number.isFinite(d.getTime()) ? { iso: d.toISOString(), naive: false } : null;
  }
  return null;
}
