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
    // Most sources already write the canonical UTC form (Claude Code, Codex): it is its own answer. Parsing it
    // and printing it again (Date.parse, toISOString) was ~7% of a Codex rollout's import (perf, CPU samples).
    if (isCanonicalUtc(value)) return { iso: value, naive: false };
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

/** Days in each month of a common year (February of a leap year has 29). */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the two digits at `i`, or -1. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Whether `s` is exactly `YYYY-MM-DDTHH:MM:SS.mmmZ` naming a real instant (a day the month has, hours 00–23):
 * then `new Date(Date.parse(s)).toISOString()` is `s` itself (property-tested against that definition; V8 rolls
 * 2023-02-29 over to March 1, so such a day is not canonical).
 */
export function isCanonicalUtc(s: string): boolean {
  if (s.length !== 24 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90) return false;
  const hi = two(s, 0);
  const lo = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  const msHi = two(s, 20);
  const msLo = s.charCodeAt(22) - 48;
  if (hi < 0 || lo < 0 || msHi < 0 || msLo < 0 || msLo > 9) return false;
  if (month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const year = hi * 100 + lo;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!);
}
