import { LIFECYCLE_EVENTS, HANDLER_ACTION_TYPES } from '../../engine/app.ts';
import { ACTION_LABELS } from '../model/describeAction.ts';
import type { PaletteItem } from '../model/nodeFactory.ts';

/** One thing the palette (and quick-add, Ctrl/⌘ K) can add. */
export interface PaletteEntry {
  item: PaletteItem;
  /** The stable key of the item (`event:tool.before_call`, `matcher`, `handler:block`): test ids, React keys. */
  key: string;
  label: string;
  hint: string;
  group: 'Events' | 'Matchers' | 'Handlers';
  mono: boolean;
}

const HANDLER_HINTS: Record<string, string> = {
  block: 'Block the action with a reason',
  terminate: 'Block and end the run',
  stop: 'Skip later handlers',
  rewrite: 'Set, remove or redact fields',
  audit: 'Write an audit record',
  budget: 'Count in state, block past a limit',
  code: 'TypeScript in the sandbox',
  flow: 'Decide by what happened earlier in the session',
};

export function itemKey(item: PaletteItem): string {
  return item.kind === 'event' ? `event:${item.pattern}` : item.kind === 'handler' ? `handler:${item.action}` : 'matcher';
}

const entry = (item: PaletteItem, label: string, hint: string, group: PaletteEntry['group'], mono = false): PaletteEntry => ({ item, key: itemKey(item), label, hint, group, mono });

/** Every item, in palette order: the engine's lifecycle events and `*`, the matcher, the engine's handler actions. */
export const PALETTE_ENTRIES: readonly PaletteEntry[] = [
  ...LIFECYCLE_EVENTS.map((e) => entry({ kind: 'event', pattern: e.type }, e.type, `${e.description} (${e.mode})`, 'Events', true)),
  entry({ kind: 'event', pattern: '*' }, '* every event', 'Selects every event type', 'Events', true),
  entry({ kind: 'matcher' }, 'Matcher', 'A condition on the payload, state or metadata', 'Matchers'),
  ...HANDLER_ACTION_TYPES.map((t) => entry({ kind: 'handler', action: t }, ACTION_LABELS[t], HANDLER_HINTS[t] ?? '', 'Handlers')),
];

/**
 * The entries a quick-add search keeps, best first: every word typed must occur (case-insensitive) in the
 * entry's label, hint or group ("block" finds Block and Terminate's "Block and end the run"; "tool call"
 * finds tool.before_call and tool.after_call). Entries whose label starts with the text come first, then those
 * whose label holds it, then the rest, each in palette order. Empty text keeps them all.
 */
export function searchPalette(text: string, entries: readonly PaletteEntry[] = PALETTE_ENTRIES): PaletteEntry[] {
  const q = text.trim().toLowerCase();
  if (q === '') return [...entries];
  const words = q.split(/\s+/);
  const rank = (e: PaletteEntry): number => {
    const label = e.label.toLowerCase();
    return label.startsWith(q) ? 0 : label.includes(q) ? 1 : words.every((w) => label.includes(w)) ? 2 : 3;
  };
  return entries
    .filter((e) => {
      const hay = `${e.label} ${e.hint} ${e.group}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    })
    .map((e, i) => ({ e, i, r: rank(e) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ e }) => e);
}
