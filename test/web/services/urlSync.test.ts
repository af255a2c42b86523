import { describe, expect, it } from 'vitest';
import { formatPlace, parsePlace, startUrlSync } from '../../../web/services/urlSync.ts';
import { createAppStore } from '../../../web/store/appStore.ts';

describe('the place in the URL (untrusted input)', () => {
  it('reads mode, pipeline, trace and a 1-based step', () => {
    expect(parsePlace('?mode=debug&pipeline=p1&trace=t-2&step=12')).toEqual({ mode: 'debug', pipeline: 'p1', trace: 't-2', step: 11 });
  });
  it('ignores junk: unknown mode, ids with odd characters, steps that are not positive integers', () => {
    expect(parsePlace('?mode=admin&pipeline=%3Cb%3E&trace=' + 'x'.repeat(200) + '&step=-3')).toEqual({ mode: null, pipeline: null, trace: null, step: null });
    expect(parsePlace('?step=1e3').step).toBeNull();
    expect(parsePlace('?step=0').step).toBeNull();
    expect(parsePlace('?mode=edit').mode).toBe('edit');
    // A URL that does not say leaves the mode as it is.
    expect(parsePlace('').mode).toBeNull();
  });
  it('round-trips and keeps other params; trace and step only in Debug', () => {
    const url = formatPlace({ mode: 'debug', pipeline: 'p', trace: 't', step: 4 }, '?x=1&step=9');
    expect(url).toBe('?x=1&mode=debug&pipeline=p&trace=t&step=5');
    expect(parsePlace(url)).toEqual({ mode: 'debug', pipeline: 'p', trace: 't', step: 4 });
    expect(formatPlace({ mode: 'edit', pipeline: 'p', trace: 't', step: 4 }, '')).toBe('?mode=edit&pipeline=p');
  });
});

/** Just what the sync uses of a window: the search string, history entries, popstate. */
function fakeWindow(search: string) {
  const entries = [search];
  const listeners: (() => void)[] = [];
  const win = {
    location: { search, hash: '' },
    history: {
      pushState: (_: unknown, __: string, url: string) => void (entries.push(url), (win.location.search = url)),
      replaceState: (_: unknown, __: string, url: string) => void ((entries[entries.length - 1] = url), (win.location.search = url)),
    },
    addEventListener: (_: string, f: () => void) => void listeners.push(f),
    removeEventListener: () => undefined,
  };
  return { win: win as unknown as Window, entries };
}

describe('starting the URL sync', () => {
  const deps = (search: string, modeChosen?: boolean) => {
    const store = createAppStore();
    const { win, entries } = fakeWindow(search);
    return { store, entries, win, start: () => startUrlSync({ store, window: win, openPipeline: async () => undefined, openTrace: async () => undefined, goTo: () => undefined, modeChosen }) };
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('a landing URL that names a mode switches to it', async () => {
    const d = deps('?mode=debug');
    const stop = d.start();
    await settle();
    expect(d.store.getState().mode).toBe('debug');
    stop();
  });

  it('Debug chosen while the app started is kept: neither `/` nor `?mode=edit` switches it back', async () => {
    for (const search of ['', '?mode=edit']) {
      const d = deps(search, true);
      d.store.getState().setMode('debug');
      const stop = d.start();
      await settle();
      expect(d.store.getState().mode).toBe('debug');
      expect(d.entries.at(-1)).toBe('?mode=debug');
      stop();
    }
  });

  it('a first visit to `/` keeps the mode in use and writes it into the entry', async () => {
    const d = deps('');
    d.store.getState().setMode('debug');
    const stop = d.start();
    await settle();
    expect(d.store.getState().mode).toBe('debug');
    expect(d.entries).toEqual(['?mode=debug']);
    stop();
  });
});
