import { create } from 'zustand';
import type { Problem } from '../../engine/app.ts';

/**
 * A pipeline file the app was asked to open (`hookwire ui bad.pipeline.json`) that the engine refuses: it is
 * not added to the library, and its problems are shown in the Problems panel until dismissed, so the panel
 * never says "0 errors" about another pipeline while the file given is broken (issue 34).
 */
export interface RefusedFile {
  name: string;
  problems: readonly Problem[];
}

export const useRefusedFile = create<{ refused: RefusedFile | null; set(refused: RefusedFile | null): void }>((set) => ({
  refused: null,
  set: (refused) => set({ refused }),
}));
