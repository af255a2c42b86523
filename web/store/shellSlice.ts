import type { StateCreator } from 'zustand';
import type { AgentId } from '../../engine/app.ts';
import type { AppState } from './appStore.ts';

/** The shell's slice of the app store: which mode is showing and the toasts over it. */
export type Mode = 'edit' | 'debug' | 'backtest';

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'error';
  actionLabel?: string;
  action?: () => void;
}

export interface ShellData {
  mode: Mode;
  toasts: Toast[];
  /** The node whose title is being renamed in place on the canvas (double-click or F2), if any. */
  renaming: string | null;
  /** The agent whose loss report is marked on the canvas ("Export for agent"), if any. */
  agentMarks: AgentId | null;
}

export interface ShellActions {
  setMode(mode: Mode): void;
  /**
   * Shows a toast; one with the same text and tone as a toast already showing replaces it (no pile of copies),
   * and a plain notice (info, no action) replaces the plain notices before it: three files imported leave one
   * "Imported …" over the canvas, not a stack of three. Errors and toasts with an action (Undo) stay until
   * they time out or are dismissed.
   */
  toast(toast: Omit<Toast, 'id'>): void;
  dismissToast(id: number): void;
  /** Escape: every toast goes. */
  dismissToasts(): void;
  startRename(nodeId: string): void;
  endRename(): void;
  /** Marks on the canvas what the open pipeline loses on this agent; null takes the marks away. */
  markAgent(agent: AgentId | null): void;
}

export type ShellSlice = ShellData & ShellActions;

/** At most this many toasts show at once; the oldest goes first. */
const MAX_TOASTS = 4;

export const createShellSlice: StateCreator<AppState, [], [], ShellSlice> = (set, get) => {
  let toastId = 0;
  return {
    mode: 'edit',
    toasts: [],
    renaming: null,
    agentMarks: null,
    markAgent: (agentMarks) => set({ agentMarks }),
    startRename: (renaming) => set({ renaming }),
    endRename: () => set({ renaming: null }),
    setMode: (mode) => set({ mode }),
    toast: (toast) => {
      const plain = (t: Omit<Toast, 'id'>) => t.tone === 'info' && !t.action;
      const others = get().toasts.filter((t) => (t.message !== toast.message || t.tone !== toast.tone) && !(plain(toast) && plain(t)));
      set({ toasts: [...others.slice(-(MAX_TOASTS - 1)), { ...toast, id: ++toastId }] });
    },
    dismissToast: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
    dismissToasts: () => set({ toasts: [] }),
  };
};

export const selectMode = (s: AppState) => s.mode;
export const selectToasts = (s: AppState) => s.toasts;
export const selectAgentMarks = (s: AppState) => s.agentMarks;
