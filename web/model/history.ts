import type { Change } from './changes.ts';

/**
 * Undo/redo as plain data. An entry keeps the changes it made and their inverse; undo applies the inverse
 * and redo the changes, both through `applyChanges`, so history never has its own idea of the document.
 */
export interface HistoryEntry {
  label: string;
  changes: Change[];
  inverse: Change[];
  /** Edits with the same key in quick succession (typing in one field) merge into one entry. */
  coalesceKey?: string;
  /** Clock ms of the last edit merged into the entry. */
  time: number;
}

export interface History {
  past: HistoryEntry[];
  future: HistoryEntry[];
}

export const EMPTY_HISTORY: History = { past: [], future: [] };
export const HISTORY_LIMIT = 300;
export const COALESCE_MS = 1200;

/** Records an entry; a new edit clears the redo stack. */
export function record(history: History, entry: HistoryEntry): History {
  const last = history.past[history.past.length - 1];
  if (last && entry.coalesceKey && last.coalesceKey === entry.coalesceKey && entry.time - last.time <= COALESCE_MS) {
    const merged: HistoryEntry = {
      label: last.label,
      changes: [...last.changes, ...entry.changes],
      inverse: [...entry.inverse, ...last.inverse],
      coalesceKey: last.coalesceKey,
      time: entry.time,
    };
    return { past: [...history.past.slice(0, -1), merged], future: [] };
  }
  const past = [...history.past, entry];
  return { past: past.length > HISTORY_LIMIT ? past.slice(past.length - HISTORY_LIMIT) : past, future: [] };
}

function withoutKey(entry: HistoryEntry): HistoryEntry {
  const { coalesceKey: _dropped, ...plain } = entry;
  return plain;
}

/** The entry to undo and the history after undoing it, or null when there is nothing to undo. */
export function takeUndo(history: History): { entry: HistoryEntry; history: History } | null {
  const entry = history.past[history.past.length - 1];
  if (!entry) return null;
  // After an undo no entry may absorb the next edit: it would merge across the undone step.
  const past = history.past.slice(0, -1).map((e, i, all) => (i === all.length - 1 ? withoutKey(e) : e));
  return { entry, history: { past, future: [withoutKey(entry), ...history.future] } };
}

/** The entry to redo and the history after redoing it, or null when there is nothing to redo. */
export function takeRedo(history: History): { entry: HistoryEntry; history: History } | null {
  const entry = history.future[0];
  if (!entry) return null;
  return { entry, history: { past: [...history.past, entry], future: history.future.slice(1) } };
}
