import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HANDLER_ACTION_TYPES, LIFECYCLE_EVENTS } from '../../../engine/app.ts';
import { PALETTE_ENTRIES, searchPalette } from '../../../web/canvas/paletteCatalog.ts';

const keys = (text: string) => searchPalette(text).map((e) => e.key);

describe('quick-add search over the palette (issue 34)', () => {
  it('offers everything the palette does: every lifecycle event, *, the matcher, every handler action', () => {
    expect(keys('')).toEqual([
      ...LIFECYCLE_EVENTS.map((e) => `event:${e.type}`), 'event:*', 'matcher', ...HANDLER_ACTION_TYPES.map((t) => `handler:${t}`),
    ]);
  });

  it('a label that starts with the text comes first, then one that holds it, then a hint that holds it', () => {
    // "Block" is a label; Terminate says "Block and end the run", Budget "block past a limit".
    expect(keys('block')).toEqual(['handler:block', 'handler:terminate', 'handler:budget']);
    expect(keys('BUD')[0]).toBe('handler:budget');
    expect(keys('match')[0]).toBe('matcher');
    // Words in any order, each somewhere: both tool call events.
    expect(keys('call tool')).toEqual(['event:tool.before_call', 'event:tool.after_call']);
    expect(keys('sandbox')).toEqual(['handler:code']);
    expect(keys('zzz-nothing')).toEqual([]);
  });

  it('every result holds every word typed, none is dropped that does, none twice', () => {
    const word = fc.constantFrom('block', 'tool', 'call', 'event', 'a', 'state', 'code', 'x', 'before', 'm', 'handlers', '.');
    fc.assert(fc.property(fc.array(word, { maxLength: 3 }), fc.constantFrom(' ', '  ', '\t'), (words, sep) => {
      const text = words.join(sep);
      const got = searchPalette(text);
      const holds = (e: (typeof PALETTE_ENTRIES)[number]) => words.every((w) => `${e.label} ${e.hint} ${e.group}`.toLowerCase().includes(w));
      expect(new Set(got.map((e) => e.key)).size).toBe(got.length);
      expect(got.every(holds)).toBe(true);
      expect(got.length).toBe(PALETTE_ENTRIES.filter(holds).length);
    }));
  });
});
