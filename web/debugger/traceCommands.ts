import { type Expectation, TRACE_FORMAT_LABELS, traceEventLine, traceHeaderLine, type Pipeline } from '../../engine/app.ts';
import type { HookwireDb } from '../persistence/db.ts';
import { describeStorageError } from '../persistence/library.ts';
import { startTraceImport } from '../persistence/traceImporter.ts';
import { deleteTrace, keepPendingTrace, readEventRange, readTraceRecord, removeTraceNow, renameTrace, restoreTrace, writeEventLabel } from '../persistence/traceLibrary.ts';
import type { AppStore } from '../store/appStore.ts';
import { checkImport } from '../model/exportPipeline.ts';
import type { ReplayService } from './replayService.ts';

/** Library commands: import (with progress and cancel), keep or discard a partial import, rename, delete with undo. */
export interface TraceCommands {
  importFiles(files: readonly File[]): void;
  /** Imports one file as `importFiles` does; settles with the stored trace's id once it is in the library (null when it is not). */
  importFile(file: File): Promise<string | null>;
  cancelImport(id: string): void;
  /** The person keeps the good events of a partial import. */
  keepImport(): Promise<void>;
  /** The person discards a partial import (or closes a failed one): nothing stays stored. */
  discardImport(): Promise<void>;
  renameTrace(id: string, name: string): Promise<void>;
  deleteTrace(id: string, name: string): Promise<void>;
  /** The stored trace as a trace v1 JSONL file [T1], read chunk by chunk (the events are never all in one string). */
  traceFile(id: string): Promise<{ name: string; blob: Blob } | null>;
  /**
   * Labels step `index` of the open trace with the decision a person expects, or removes its label (null)
   * [B7]; the debugger then replays the trace as stored. False (and a message) when it could not be stored.
   */
  setLabel(index: number, expectation: Expectation | null): Promise<boolean>;
}

/** A file name from a trace's name: letters, digits, `._-` kept, the rest `-`. */
export function traceFileName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80);
  return `${base || 'trace'}.trace.jsonl`;
}

/**
 * `addPipeline`: adds a checked pipeline to the library and opens it (the workspace's `newPipeline`), for a
 * pipeline file imported here as if it were a trace.
 */
export function createTraceCommands(store: AppStore, db: HookwireDb, replay: ReplayService, addPipeline: (doc: Pipeline) => Promise<string | null>): TraceCommands {
  const s = () => store.getState();
  const toast = (message: string, tone: 'info' | 'error' = 'info', action?: { label: string; run: () => void }) =>
    s().toast({ tone, message, ...(action ? { actionLabel: action.label, action: action.run } : {}) });
  const cancels = new Map<string, () => Promise<void>>();

  function importOne(file: File): Promise<string | null> {
    const job = startTraceImport(db, file, (progress) => s().updateImport(job.id, { progress }));
    cancels.set(job.id, job.cancel);
    s().importStarted({ id: job.id, fileName: file.name, size: file.size, progress: null });
    const done = () => {
      cancels.delete(job.id);
      s().importEnded(job.id);
    };
    return job.result.then(
      async (r) => {
        done();
        if (!r) {
          toast(`Import of ${file.name} cancelled; nothing was stored.`);
          return null;
        }
        if (r.status === 'ok' && r.traceId) {
          await replay.openTrace(r.traceId);
          const warnings = r.problems.length ? `, ${r.problems.length} warning${r.problems.length === 1 ? '' : 's'}` : '';
          toast(`Imported “${r.name}”: ${r.events.toLocaleString('en')} events (${r.format ? TRACE_FORMAT_LABELS[r.format] : 'trace'})${warnings}.`);
          return r.traceId;
        }
        if (r.problems[0]?.code === 'pipeline' && (await openAsPipeline(file))) return null;
        s().showImportResult({ ...r, fileName: file.name });
        return null;
      },
      (e: unknown) => {
        done();
        toast(`Import of ${file.name} failed: ${describeStorageError(e)}`, 'error');
        return null;
      },
    );
  }

  /**
   * A pipeline dropped on the debugger (or picked in Import trace) is what the person wants to replay with: the
   * engine checks it as any pipeline import, and a new library entry holds it (nothing saved is changed).
   * False when it does not load as a pipeline either: then the import's own reason is shown.
   */
  async function openAsPipeline(file: File): Promise<boolean> {
    const check = checkImport(await file.text());
    if (!check.ok || !check.doc) return false;
    const id = await addPipeline(check.doc);
    if (id === null) return true; // the workspace said why (storage)
    toast(`${file.name} is a pipeline, not a recorded run: added “${check.doc.name}” to your pipelines; the debugger replays with it.`);
    return true;
  }

  return {
    async traceFile(id) {
      try {
        const record = await readTraceRecord(db, id);
        if (!record) return null;
        const parts: string[] = [traceHeaderLine(record.header)];
        for (let start = 0; start < record.event_count; start += record.chunk_size) {
          const events = await readEventRange(db, record, start, Math.min(record.event_count, start + record.chunk_size));
          parts.push(events.map((e) => traceEventLine(e, record.header)).join(''));
        }
        return { name: traceFileName(record.name), blob: new Blob(parts, { type: 'application/x-ndjson' }) };
      } catch (e) {
        toast(`Could not read the trace for download: ${describeStorageError(e)}`, 'error');
        return null;
      }
    },
    async setLabel(index, expectation) {
      const st = s();
      const id = st.traceId;
      if (!id) return false;
      // A followed server session is rewritten from the server's events as they arrive: a label would be lost.
      if (st.live.status !== 'off' && st.live.storedId === id) {
        toast('This trace follows a running server session: download it or wait until the session ends to label it.', 'error');
        return false;
      }
      try {
        await writeEventLabel(db, id, index, expectation);
      } catch (e) {
        toast(`Could not store the label: ${describeStorageError(e)}`, 'error');
        return false;
      }
      await replay.labelChanged(index);
      return true;
    },
    importFiles(files) {
      for (const file of files) void importOne(file);
    },
    importFile: importOne,
    cancelImport(id) {
      void cancels.get(id)?.();
    },
    async keepImport() {
      const r = s().importResult;
      if (!r?.traceId) return;
      s().closeImportResult();
      await keepPendingTrace(db, r.traceId);
      await replay.openTrace(r.traceId);
    },
    async discardImport() {
      const r = s().importResult;
      s().closeImportResult();
      if (r?.traceId) await removeTraceNow(db, r.traceId);
    },
    async renameTrace(id, name) {
      await renameTrace(db, id, name);
      s().traceRenamed(id, name);
    },
    async deleteTrace(id, name) {
      await deleteTrace(db, id);
      const wasOpen = s().traceId === id;
      if (wasOpen) replay.closeTrace();
      toast(`Deleted trace “${name}”.`, 'info', {
        label: 'Undo',
        run: () => void restoreTrace(db, id).then(() => (wasOpen ? replay.openTrace(id) : undefined)),
      });
    },
  };
}
