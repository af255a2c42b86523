import { describe, expect, it } from 'vitest';
import { formatPlace, parsePlace } from '../../../web/services/urlSync.ts';

describe('the place in the URL (untrusted input)', () => {
  it('reads mode, pipeline, trace and a 1-based step', () => {
    expect(parsePlace('?mode=debug&pipeline=p1&trace=t-2&step=12')).toEqual({ mode: 'debug', pipeline: 'p1', trace: 't-2', step: 11 });
  });
  it('ignores junk: unknown mode, ids with odd characters, steps that are not positive integers', () => {
    expect(parsePlace('?mode=admin&pipeline=%3Cb%3E&trace=' + 'x'.repeat(200) + '&step=-3')).toEqual({ mode: 'edit', pipeline: null, trace: null, step: null });
    expect(parsePlace('?step=1e3').step).toBeNull();
    expect(parsePlace('?step=0').step).toBeNull();
    expect(parsePlace('').mode).toBe('edit');
  });
  it('round-trips and keeps other params; trace and step only in Debug', () => {
    const url = formatPlace({ mode: 'debug', pipeline: 'p', trace: 't', step: 4 }, '?x=1&step=9');
    expect(url).toBe('?x=1&mode=debug&pipeline=p&trace=t&step=5');
    expect(parsePlace(url)).toEqual({ mode: 'debug', pipeline: 'p', trace: 't', step: 4 });
    expect(formatPlace({ mode: 'edit', pipeline: 'p', trace: 't', step: 4 }, '')).toBe('?mode=edit&pipeline=p');
  });
});
