import { describe, expect, it } from 'vitest';
import { EMPTY_HISTORY, record, takeRedo, takeUndo, COALESCE_MS, type HistoryEntry } from '../../../web/model/history.ts';

const entry = (label: string, time: number, coalesceKey?: string): HistoryEntry => ({
  label,
  changes: [{ type: 'setProps', props: { name: label } }],
  inverse: [{ type: 'setProps', props: { name: `not ${label}` } }],
  time,
  ...(coalesceKey ? { coalesceKey } : {}),
});

describe('history', () => {
  it('undo then redo walks the same entries', () => {
    let h = record(record(EMPTY_HISTORY, entry('a', 0)), entry('b', 5000));
    const u = takeUndo(h)!;
    expect(u.entry.label).toBe('b');
    h = u.history;
    expect(h.future.map((e) => e.label)).toEqual(['b']);
    const r = takeRedo(h)!;
    expect(r.entry.label).toBe('b');
    expect(r.history.past.map((e) => e.label)).toEqual(['a', 'b']);
    expect(takeRedo(r.history)).toBeNull();
  });

  it('a new edit clears redo', () => {
    const h = takeUndo(record(EMPTY_HISTORY, entry('a', 0)))!.history;
    expect(record(h, entry('b', 10)).future).toEqual([]);
  });

  it('merges quick edits with the same key into one entry whose inverse undoes all of them', () => {
    let h = record(EMPTY_HISTORY, entry('t1', 0, 'name'));
    h = record(h, entry('t2', COALESCE_MS - 1, 'name'));
    expect(h.past).toHaveLength(1);
    expect(h.past[0]!.changes.map((c) => (c.type === 'setProps' ? c.props.name : ''))).toEqual(['t1', 't2']);
    expect(h.past[0]!.inverse.map((c) => (c.type === 'setProps' ? c.props.name : ''))).toEqual(['not t2', 'not t1']);
    h = record(h, entry('t3', 10 * COALESCE_MS, 'name'));
    expect(h.past).toHaveLength(2);
  });

  it('never merges an edit into a step across an undo', () => {
    let h = record(record(EMPTY_HISTORY, entry('a', 0, 'k')), entry('b', 5000, 'x'));
    h = takeUndo(h)!.history;
    h = record(h, entry('c', 10, 'k'));
    expect(h.past.map((e) => e.label)).toEqual(['a', 'c']);
  });

  it('returns null when there is nothing to undo', () => {
    expect(takeUndo(EMPTY_HISTORY)).toBeNull();
  });
});
