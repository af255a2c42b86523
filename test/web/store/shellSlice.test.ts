import { describe, expect, it } from 'vitest';
import { useApp } from '../../../web/store/appStore.ts';

/** The app's store with no toast. */
function store() {
  useApp.setState({ toasts: [] });
  return useApp;
}

describe('toasts', () => {
  it('a plain notice replaces the plain notices before it; errors and toasts with an action stay', () => {
    const s = store();
    const undo = () => {};
    s.getState().toast({ tone: 'info', message: 'Deleted “a”.', actionLabel: 'Undo', action: undo });
    s.getState().toast({ tone: 'error', message: 'Wire refused: a cycle.' });
    s.getState().toast({ tone: 'info', message: 'Imported “one”: 9 events.' });
    s.getState().toast({ tone: 'info', message: 'Imported “two”: 16 events.' });
    expect(s.getState().toasts.map((t) => t.message)).toEqual(['Deleted “a”.', 'Wire refused: a cycle.', 'Imported “two”: 16 events.']);
    s.getState().dismissToasts();
    expect(s.getState().toasts).toEqual([]);
  });
});
