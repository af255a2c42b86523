import { liveQuery, type Subscription } from 'dexie';
import type { Pipeline } from '../../engine/app.ts';
import { demoPipeline } from '../demo/demoPipeline.ts';
import { documentForEditor } from '../model/editorDocument.ts';
import type { AppStore } from '../store/appStore.ts';
import type { HookwireDb } from './db.ts';
import type { PipelineVersion } from './versionHistory.ts';
import {
  createPipeline, deletePipeline, describeStorageError, duplicateStored, getSetting, listPipelines, purgeDeleted,
  readPipeline, renameStored, restorePipeline, savePipeline, setSetting, TAB_ID,
} from './library.ts';

/**
 * The effects around the document: opening library entries, autosaving every edit, noticing saves from
 * other tabs, and the library commands. The store stays a plain state machine; this service talks to
 * IndexedDB. Created once by web/startApp.ts.
 */
const LAST_OPENED = 'editor.lastOpened';
/**
 * Typing is saved once the keys pause for SAVE_IDLE_MS, and at least every SAVE_MAX_WAIT_MS while they do
 * not: a save per key was an IndexedDB transaction (record, version history, and every live query of the
 * library reading again) on the key path. Nothing is lost meanwhile: the status says "Saving…" from the
 * first key, leaving the page asks first while anything is unsaved (services/unloadGuard.ts), and hiding
 * the page, opening another pipeline or switching mode save at once (flushSave).
 */
export const SAVE_IDLE_MS = 250;
export const SAVE_MAX_WAIT_MS = 1000;
const SEEDED = 'editor.demoSeeded';

export interface Workspace {
  db: HookwireDb;
  /** First run opens the demo; later runs reopen the last pipeline. */
  start(): Promise<void>;
  /** Opens a library entry in the editor; an entry that cannot be opened shows why and is left as stored. */
  openPipeline(id: string): Promise<void>;
  /** Saves the document when it is ahead of what is stored; settles when it is saved (or the save failed). */
  flushSave(): Promise<void>;
  /** Conflict: drop this tab's edits and load what is stored. */
  loadTheirs(): Promise<void>;
  /** Conflict: write this tab's document over the other tab's save (the user chose to). */
  keepMine(): Promise<void>;
  /** Conflict: keep both, by saving this tab's document as a new library entry. */
  saveMineAsCopy(): Promise<void>;
  /** A failed save: try again. */
  retrySave(): Promise<void>;
  newPipeline(doc: Pipeline): Promise<string | null>;
  renamePipeline(id: string, name: string): Promise<void>;
  duplicatePipeline(id: string): Promise<void>;
  /** Deletes an entry, with an Undo in the toast; deleting the open one opens the next. */
  removePipeline(id: string): Promise<void>;
  /** Makes an earlier version the document again, as one edit (undo takes it back; the save records it). */
  restoreVersion(version: PipelineVersion): Promise<void>;
  dispose(): void;
}

export function createWorkspace(appStore: AppStore, db: HookwireDb): Workspace {
  let watch: Subscription | null = null;
  let inflight: Promise<void> | null = null;
  // A restore not saved yet: the save that first holds it starts a version of its own (see recordVersion).
  let restored: { id: string; version: number; when: string } | null = null;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let pendingSince = 0;

  const store = () => appStore.getState();

  function report(e: unknown): void {
    store().setSave({ status: 'error', message: describeStorageError(e) });
  }

  /** Opens a library entry in the editor; an entry that cannot be opened shows why and is left as stored. */
  async function openPipeline(id: string): Promise<void> {
    // Whatever the open pipeline still has unsaved is written before another one replaces it.
    await flushSave();
    restored = null;
    const read = await readPipeline(db, id);
    if (!read) return;
    if (!read.ok) {
      store().showOpenError({ id, name: id, message: read.message, problems: [] });
      return;
    }
    const opened = documentForEditor(read.record.doc);
    if (!opened.ok) store().showOpenError({ id, name: read.record.name, message: opened.message, problems: opened.problems });
    else store().open(id, opened.doc, read.record.revision);
    watchRecord(id);
    await setSetting(db, LAST_OPENED, id).catch(report);
  }

  /** Follows the open entry: a save by another tab either reloads (nothing unsaved here) or is a conflict. */
  function watchRecord(id: string): void {
    watch?.unsubscribe();
    watch = liveQuery(() => db.pipelines.get(id)).subscribe({
      next: (record) => {
        const s = store();
        if (s.pipelineId !== id || !record || record.deleted_at !== undefined) return;
        if (record.revision <= s.revision || record.saved_by === TAB_ID) return;
        if (s.version === s.savedVersion && s.save.status !== 'conflict') {
          const opened = documentForEditor(record.doc);
          if (!opened.ok) {
            void openPipeline(id);
            return;
          }
          // This tab keeps its place: selection, inspector, focus and undo history stay.
          s.adoptStored(opened.doc, record.revision);
          s.toast({ tone: 'info', message: 'Updated with changes saved in another tab.' });
        } else {
          s.setSave({ status: 'conflict', theirRevision: record.revision, by: 'other-tab' });
        }
      },
      error: report,
    });
  }

  /**
   * Saves the document when it is ahead of what is stored; one save at a time, and edits made during a save
   * are saved right after it. The promise settles when the document is saved (or the save failed).
   */
  function flushSave(): Promise<void> {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    if (inflight) return inflight.then(() => flushSave());
    const s = store();
    if (!s.doc || !s.pipelineId || s.version === s.savedVersion || s.save.status === 'conflict') return Promise.resolve();
    const { pipelineId: id, doc, version, revision } = s;
    const seal = restored !== null && restored.id === id && version >= restored.version ? restored : null;
    s.setSave({ status: 'saving' });
    inflight = (async () => {
      try {
        const result = await savePipeline(db, id, doc, revision, seal ? { fold: false, note: `Restored ${seal.when}` } : {});
        if (seal && result.ok && restored === seal) restored = null;
        if (store().pipelineId !== id) return;
        if (result.ok) store().setSave({ status: 'saved', at: Date.now() }, { revision: result.revision, savedVersion: version });
        else if (result.reason === 'conflict') store().setSave({ status: 'conflict', theirRevision: result.theirRevision, by: 'other-tab' });
        else store().setSave({ status: 'conflict', theirRevision: 0, by: 'missing' });
      } catch (e) {
        report(e);
      }
    })().finally(() => {
      inflight = null;
    });
    return inflight.then(() => {
      const after = store();
      if (after.pipelineId === id && after.version !== after.savedVersion && after.save.status === 'saved') return flushSave();
      return undefined;
    });
  }

  /** Conflict: drop this tab's edits and load what is stored. */
  async function loadTheirs(): Promise<void> {
    const id = store().pipelineId;
    if (id) await openPipeline(id);
  }

  /** Conflict: write this tab's document over the other tab's save (the user chose to). */
  async function keepMine(): Promise<void> {
    const s = store();
    if (!s.pipelineId) return;
    const current = await db.pipelines.get(s.pipelineId);
    if (!current) return;
    s.setSave({ status: 'idle' }, { revision: current.revision });
    await flushSave();
  }

  /** Conflict: keep both, by saving this tab's document as a new library entry. */
  async function saveMineAsCopy(): Promise<void> {
    const doc = store().doc;
    if (!doc) return;
    await newPipeline({ ...doc, name: `${doc.name} (my copy)` });
  }

  async function newPipeline(doc: Pipeline): Promise<string | null> {
    try {
      const id = await createPipeline(db, doc);
      await openPipeline(id);
      return id;
    } catch (e) {
      report(e);
      return null;
    }
  }

  async function renamePipeline(id: string, name: string): Promise<void> {
    const s = store();
    if (s.pipelineId === id && s.doc) s.apply([{ type: 'setProps', props: { name } }], 'Rename pipeline');
    else await renameStored(db, id, name).catch(report);
  }

  async function duplicatePipeline(id: string): Promise<void> {
    await flushSave();
    try {
      const copy = await duplicateStored(db, id);
      if (copy) await openPipeline(copy);
    } catch (e) {
      report(e);
    }
  }

  /** Deletes an entry, with an Undo in the toast; deleting the open one opens the next. */
  async function removePipeline(id: string): Promise<void> {
    const name = (await db.pipelines.get(id))?.name ?? 'pipeline';
    try {
      await deletePipeline(db, id);
    } catch (e) {
      report(e);
      return;
    }
    const wasOpen = store().pipelineId === id;
    if (wasOpen) {
      const next = (await listPipelines(db))[0];
      if (next) await openPipeline(next.id);
      else store().closeDocument();
    }
    store().toast({
      tone: 'info',
      message: `Deleted “${name}”.`,
      actionLabel: 'Undo',
      action: () => void restorePipeline(db, id).then(() => (wasOpen ? openPipeline(id) : undefined)).catch(report),
    });
  }

  async function restoreVersion(version: PipelineVersion): Promise<void> {
    const s = store();
    if (s.pipelineId !== version.pipeline_id || !s.doc) return;
    const opened = documentForEditor(version.doc);
    if (!opened.ok) {
      s.toast({ tone: 'error', message: `That version cannot be opened: ${opened.message}` });
      return;
    }
    const when = new Date(version.at).toLocaleTimeString('en-GB');
    // Set before the edit: the autosave starts inside apply().
    const from = s.version;
    restored = { id: version.pipeline_id, version: from + 1, when };
    s.apply([{ type: 'replaceDoc', doc: opened.doc }], `Restore the version of ${when}`);
    if (store().version === from) restored = null;
    s.toast({ tone: 'info', message: `Restored the version of ${when}.`, actionLabel: 'Undo', action: () => store().undo() });
  }

  async function start(): Promise<void> {
    try {
      await purgeDeleted(db, Date.now());
      let list = await listPipelines(db);
      if (list.length === 0 && !(await getSetting<boolean>(db, SEEDED))) {
        await createPipeline(db, demoPipeline());
        await setSetting(db, SEEDED, true);
        list = await listPipelines(db);
      }
      const last = await getSetting<string>(db, LAST_OPENED);
      const target = list.find((r) => r.id === last) ?? list[0];
      if (target) await openPipeline(target.id);
    } catch (e) {
      report(e);
    }
  }

  /** Saves when the edits pause (or have waited SAVE_MAX_WAIT_MS); the status says "Saving…" meanwhile. */
  function scheduleSave(): void {
    const now = Date.now();
    if (saveTimer === undefined) pendingSince = now;
    clearTimeout(saveTimer);
    const s = store();
    if (s.save.status === 'saved' || s.save.status === 'idle') s.setSave({ status: 'saving' });
    saveTimer = setTimeout(() => void flushSave(), Math.max(0, Math.min(SAVE_IDLE_MS, pendingSince + SAVE_MAX_WAIT_MS - now)));
  }

  // Autosave: every edit (coalesced while typing), and a conflict resolved by keeping this tab's document.
  const unsubscribe = appStore.subscribe((s, prev) => {
    if (s.save.status === 'idle' && prev.save.status !== 'idle') void flushSave();
    else if (s.version !== prev.version && s.pipelineId === prev.pipelineId && s.save.status !== 'conflict') scheduleSave();
  });

  return {
    db, start, openPipeline, flushSave, loadTheirs, keepMine, saveMineAsCopy, newPipeline, renamePipeline, duplicatePipeline, removePipeline, restoreVersion,
    retrySave() {
      store().setSave({ status: 'idle' });
      return flushSave();
    },
    dispose() {
      clearTimeout(saveTimer);
      unsubscribe();
      watch?.unsubscribe();
    },
  };
}
