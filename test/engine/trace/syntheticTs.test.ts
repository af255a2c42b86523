import { describe, expect, it } from 'vitest';
import { isSyntheticTs } from '../../../engine/trace/importers/traceBuilder.ts';

describe('synthesised timestamps', () => {
  it('[I3] a time from the synthetic epoch is recognised; a real time or junk is not', () => {
    expect(isSyntheticTs(new Date(12 * 1000).toISOString())).toBe(true);
    expect(isSyntheticTs('2026-01-15T09:30:22Z')).toBe(false);
    expect(isSyntheticTs('not a time')).toBe(false);
  });
});
