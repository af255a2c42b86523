import { describe, expect, it } from 'vitest';
import { timeAgo } from '../../../web/ui/timeAgo.ts';

describe('timeAgo', () => {
  it('says just now, minutes, hours, then the date', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(timeAgo(now - 5_000, now)).toBe('just now');
    expect(timeAgo(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(timeAgo(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(timeAgo(now - 3 * 86_400_000, now)).toBe(new Date(now - 3 * 86_400_000).toLocaleDateString());
  });
});
