import type { StateCreator } from 'zustand';
import type { Pipeline, Problem } from '../../engine/app.ts';
import { applyChanges, ChangeError, type Change } from '../model/changes.ts';
import { EMPTY_HISTORY, record, takeRedo, takeUndo, type History } from '../model/history.ts';
import { mergeCodeProblems, typeProblems, type TypeMarks } from '../model/codeProblems.ts';
import { validateDoc } from '../model/editorDocument.ts';

import type { AppState } from './appStore.ts';

/**
 * The open document's slice of the app store, typed as data & actions (STYLE habit 6). Every edit goes
 * through `apply`, which runs the changes through `applyChanges`, records their inverse for undo and bumps
 * `version`, which the autosaver (persistence/workspace.ts) watches. Nothing else writes `doc`.
 */

export type SaveState =
  | { status: 'idle' }
  | { status: 'saving' }
  | { status: 'saved'; at: number }
  | { status: 'error'; message: string }
  | { status: 'conflict'; theirRevision: number; by: 'other-tab' | 'missing' };

export interface OpenError {
  id: string;
  name: string;
  message: string;
  problems: Problem[];
}

export interface DocumentData {
  pipelineId: string | null;
  doc: Pipeline | null;
  /** Bumped by every edit, undo and redo; the autosaver saves when it is ahead of `savedVersion`. */
  version: number;
  savedVersion: number;
  /** The stored revision this tab's document is based on (detects a save from another tab). */
  revision: number;
  history: History;
  /** What the editor shows: the page's load of `doc` joined with `codeProblems` (model/codeProblems.ts). */
  problems: Problem[];
  /** The engine's load of `doc` on the page, without a sandbox [V2][V6]. */
  docProblems: Problem[];
  /**
   * The document `docProblems` are about. Typing (an edit with a coalesce key) leaves the load for later
   * (`lint`, run by problems/lintScheduler.ts once the keys pause), so a key costs the edit and not a whole
   * validation; every other edit loads at once.
   */
  lintedDoc: Pipeline | null;
  /** The engine's `code_error` problems from the sandbox worker's last check (problems/codeCheck.ts). */
  codeProblems: Problem[];
  /** Monaco's TypeScript findings per code node, for the source they were about (CodeField reports them). */
  typeMarks: ReadonlyMap<string, TypeMarks>;
  /**
   * The newest version of the open document known to load (no error on the page nor in the sandbox's check,
   * problems/codeCheck.ts): what the debugger replays when the document it is sent does not load.
   */
  loadedDoc: Pipeline | null;
  openError: OpenError | null;
  selectedNodes: string[];
  selectedEdges: string[];
  save: SaveState;
  /** Which node the canvas should bring into view (problems list, inspector links). */
  focusRequest: { id: string; n: number } | null;
  /** Where the code editor of a node should put its cursor (a code problem picked in the Problems panel). */
  codeReveal: { id: string; line: number; column: number; n: number } | null;
}

export interface DocumentActions {
  open(id: string, doc: Pipeline, revision: number): void;
  /**
   * Another tab saved the open document and this one had nothing unsaved: take theirs as the stored state
   * without losing this tab's place (selection, undo history, focus; the canvas is not remounted).
   */
  adoptStored(doc: Pipeline, revision: number): void;
  showOpenError(error: OpenError): void;
  closeDocument(): void;
  apply(changes: Change[], label: string, coalesceKey?: string): void;
  undo(): void;
  redo(): void;
  select(nodes: string[], edges?: string[]): void;
  focusNode(id: string): void;
  /** Selects a code node and asks its editor to put the cursor at `line:column`. */
  revealCode(id: string, line: number, column: number): void;
  setSave(save: SaveState, patch?: Partial<Pick<DocumentData, 'revision' | 'savedVersion'>>): void;
  /** The sandbox worker's answer for the open document (it may be about a slightly older version). */
  setCodeProblems(problems: Problem[]): void;
  /** `doc` (a version of the open document) loads; kept while it is the newest such version. */
  docLoaded(doc: Pipeline): void;
  /** Monaco's TypeScript findings for a node's source. */
  setTypeMarks(nodeId: string, marks: TypeMarks): void;
  /** Loads the open document on the page when its problems are about an older version (typing left it). */
  lint(): void;
}

export type DocumentSlice = DocumentData & DocumentActions;

const INITIAL: DocumentData = {
  pipelineId: null,
  doc: null,
  version: 0,
  savedVersion: 0,
  revision: 0,
  history: EMPTY_HISTORY,
  problems: [],
  docProblems: [],
  lintedDoc: null,
  codeProblems: [],
  typeMarks: new Map(),
  loadedDoc: null,
  openError: null,
  selectedNodes: [],
  selectedEdges: [],
  save: { status: 'idle' },
  focusRequest: null,
  codeReveal: null,
};

/** Validates `doc` on the page and joins the code problems last reported for it. */
function problemsOf(doc: Pipeline, codeProblems: Problem[], typeMarks: ReadonlyMap<string, TypeMarks>): Pick<DocumentData, 'problems' | 'docProblems' | 'lintedDoc'> {
  const docProblems = validateDoc(doc);
  return { docProblems, lintedDoc: doc, problems: joined(doc, docProblems, codeProblems, typeMarks) };
}

function joined(doc: Pipeline, docProblems: Problem[], codeProblems: Problem[], typeMarks: ReadonlyMap<string, TypeMarks>): Problem[] {
  const merged = mergeCodeProblems(doc, docProblems, codeProblems);
  // Code that does not compile has its error from the sandbox already; Monaco's would repeat it.
  const broken = new Set(merged.filter((p) => p.code === 'code_error').map((p) => p.node_id));
  const types = typeProblems(doc, typeMarks).filter((p) => !broken.has(p.node_id));
  return types.length ? [...merged, ...types] : merged;
}

/** Drops selected ids that no longer exist after an edit. */
function pruneSelection(doc: Pipeline, nodes: string[], edges: string[]): Pick<DocumentData, 'selectedNodes' | 'selectedEdges'> {
  const ids = new Set(doc.nodes.map((n) => n.id));
  const wires = new Set(doc.wires.map((w) => JSON.stringify([w.from, w.to])));
  return { selectedNodes: nodes.filter((id) => ids.has(id)), selectedEdges: edges.filter((id) => wires.has(id)) };
}

export const createDocumentSlice: StateCreator<AppState, [], [], DocumentSlice> = (set, get) => {
  /**
   * The document after `changes`, or null when they no longer apply: an entry recorded before another
   * tab's save was adopted may be about a node that tab removed.
   */
  const replayable = (doc: Pipeline, changes: Change[]): Pipeline | null => {
    try {
      return applyChanges(doc, changes).doc;
    } catch (e) {
      if (e instanceof ChangeError) return null;
      throw e;
    }
  };
  const forgetHistory = () => {
    set({ history: EMPTY_HISTORY });
    get().toast({ tone: 'info', message: 'Undo history cleared: it no longer applies after the changes saved in another tab.' });
  };
  return {
    ...INITIAL,

    open: (id, doc, revision) =>
      set({
        pipelineId: id,
        doc,
        revision,
        version: 0,
        savedVersion: 0,
        history: EMPTY_HISTORY,
        codeProblems: [],
        typeMarks: new Map(),
        loadedDoc: null,
        ...problemsOf(doc, [], new Map()),
        openError: null,
        selectedNodes: [],
        selectedEdges: [],
        save: { status: 'idle' },
      }),

    adoptStored: (doc, revision) => {
      const { selectedNodes, selectedEdges, version } = get();
      set({ doc, revision, savedVersion: version, ...problemsOf(doc, get().codeProblems, get().typeMarks), ...pruneSelection(doc, selectedNodes, selectedEdges) });
    },

    showOpenError: (error) => set({ ...INITIAL, openError: error }),

    closeDocument: () => set({ ...INITIAL }),

    apply: (changes, label, coalesceKey) => {
      const { doc, history, version, selectedNodes, selectedEdges } = get();
      if (!doc || changes.length === 0) return;
      const applied = applyChanges(doc, changes);
      const entry = { label, changes, inverse: applied.inverse, time: Date.now(), ...(coalesceKey ? { coalesceKey } : {}) };
      set({
        doc: applied.doc,
        history: record(history, entry),
        version: version + 1,
        // Typing loads the document later (lint); an edit that is not typing shows its problems at once.
        ...(coalesceKey ? {} : problemsOf(applied.doc, get().codeProblems, get().typeMarks)),
        ...pruneSelection(applied.doc, selectedNodes, selectedEdges),
      });
    },

    undo: () => {
      const { doc, history, version, selectedNodes, selectedEdges } = get();
      const step = doc && takeUndo(history);
      if (!doc || !step) return;
      const next = replayable(doc, step.entry.inverse);
      if (!next) return forgetHistory();
      set({ doc: next, history: step.history, version: version + 1, ...problemsOf(next, get().codeProblems, get().typeMarks), ...pruneSelection(next, selectedNodes, selectedEdges) });
    },

    redo: () => {
      const { doc, history, version, selectedNodes, selectedEdges } = get();
      const step = doc && takeRedo(history);
      if (!doc || !step) return;
      const next = replayable(doc, step.entry.changes);
      if (!next) return forgetHistory();
      set({ doc: next, history: step.history, version: version + 1, ...problemsOf(next, get().codeProblems, get().typeMarks), ...pruneSelection(next, selectedNodes, selectedEdges) });
    },

    select: (nodes, edges = []) => set({ selectedNodes: nodes, selectedEdges: edges }),

    focusNode: (id) => set({ selectedNodes: [id], selectedEdges: [], focusRequest: { id, n: (get().focusRequest?.n ?? 0) + 1 } }),

    revealCode: (id, line, column) => {
      get().focusNode(id);
      set({ codeReveal: { id, line, column, n: (get().codeReveal?.n ?? 0) + 1 } });
    },

    setSave: (save, patch) => set({ save, ...(patch ?? {}) }),

    setCodeProblems: (codeProblems) => {
      const { doc, docProblems, lintedDoc } = get();
      if (!doc) return;
      if (lintedDoc !== doc) set({ codeProblems, ...problemsOf(doc, codeProblems, get().typeMarks) });
      else set({ codeProblems, problems: joined(doc, docProblems, codeProblems, get().typeMarks) });
    },

    docLoaded: (doc) => {
      if (get().loadedDoc !== doc) set({ loadedDoc: doc });
    },

    setTypeMarks: (nodeId, marks) => {
      const { doc, docProblems, codeProblems, typeMarks, lintedDoc } = get();
      if (!doc) return;
      const next = new Map(typeMarks);
      next.set(nodeId, marks);
      if (lintedDoc !== doc) set({ typeMarks: next, ...problemsOf(doc, codeProblems, next) });
      else set({ typeMarks: next, problems: joined(doc, docProblems, codeProblems, next) });
    },

    lint: () => {
      const { doc, lintedDoc } = get();
      if (doc && lintedDoc !== doc) set(problemsOf(doc, get().codeProblems, get().typeMarks));
    },
  };
};

/** Selectors at module scope, so components subscribe to exactly what they render. */
export const selectDoc = (s: AppState) => s.doc;
export const selectProblems = (s: AppState) => s.problems;
export const selectSelectedNodes = (s: AppState) => s.selectedNodes;
export const selectSelectedEdges = (s: AppState) => s.selectedEdges;
export const selectCanUndo = (s: AppState) => s.history.past.length > 0;
export const selectCanRedo = (s: AppState) => s.history.future.length > 0;
export const selectSave = (s: AppState) => s.save;
export const selectPipelineId = (s: AppState) => s.pipelineId;
export const selectOpenError = (s: AppState) => s.openError;
export const selectFocusRequest = (s: AppState) => s.focusRequest;
/** The one selected node, when exactly one is selected. */
export const selectInspected = (s: AppState) => {
  if (s.selectedNodes.length !== 1 || !s.doc) return null;
  const id = s.selectedNodes[0];
  return s.doc.nodes.find((n) => n.id === id) ?? null;
};
