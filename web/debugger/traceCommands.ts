import { type Expectation, TRACE_FORMAT_LABELS, traceEventLine, traceHeaderLine, type Pipeline } from '../../engine/app.ts';
import type { HookwireDb } from '../persistence/db.ts';
import { describeStorageError } from '../persistence/library.ts';
import { createTraceImporter } from '../persistence/traceImporter.ts';
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
  /** Cancels every import under way, waiting ones included: nothing of them stays stored. */
  cancelAllImports(): void;
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

/** What became of the files of one batch, for its closing toast. */
interface ImportBatchTally {
  imported: number;
  events: number;
  cancelled: number;
  /** Pipeline files, added to the pipelines instead (each said so in a toast of its own). */
  pipelines: number;
  /** Whether the batch's first good trace was opened. */
  opened: boolean;
  /** Files imported with dropped lines (waiting in the library as "review import"). */
  review: string[];
  failed: string[];
}

/** The closing toast of a batch: what was imported, and every file that was not, by name (at most 5 named). */
function batchSummary(files: number, t: ImportBatchTally): string {
  const names = (list: string[]) => `${list.slice(0, 5).join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`;
  const parts = [`Imported ${t.imported} of ${files} files: ${t.events.toLocaleString('en')} events.`];
  if (t.review.length) parts.push(`${t.review.length} imported with dropped lines, marked “review import” in the library: ${names(t.review)}.`);
  if (t.failed.length) parts.push(`${t.failed.length} not imported: ${names(t.failed)}.`);
  if (t.pipelines) parts.push(`${t.pipelines} ${t.pipelines === 1 ? 'was a pipeline' : 'were pipelines'}, added to your pipelines.`);
  if (t.cancelled) parts.push(`${t.cancelled} cancelled; nothing of them was stored.`);
  return parts.join(' ');
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
  const importer = createTraceImporter(db);

  /**
   * Imports one file (queued behind the imports under way). Alone, a file imported is opened and named in a toast;
   * in a batch (`batch`: the files picked or dropped together) only the batch's first good one is opened, and one
   * toast at its end counts them all, failures named: 200 files opened and toasted one after another kept the
   * debugger busy replaying traces nobody had asked to see.
   */
  function importOne(file: File, batch?: ImportBatchTally): Promise<string | null> {
    const job = importer.start(file, {
      started: () => s().importStarted({ id: job.id, fileName: file.name, size: file.size, progress: null }),
      progress: (progress) => s().updateImport(job.id, { progress }),
    });
    cancels.set(job.id, job.cancel);
    if (!batch) s().importsQueued(1);
    const done = () => {
      cancels.delete(job.id);
      s().importEnded(job.id);
      s().importSettled();
    };
    return job.result.then(
      async (r) => {
        done();
        if (!r) {
          if (batch) batch.cancelled++;
          else toast(`Import of ${file.name} cancelled; nothing was stored.`);
          return null;
        }
        if (r.status === 'ok' && r.traceId) {
          if (batch) {
            batch.imported++;
            batch.events += r.events;
            if (batch.opened) return r.traceId;
            batch.opened = true;
          }
          await replay.openTrace(r.traceId);
          const warnings = r.problems.length ? `, ${r.problems.length} warning${r.problems.length === 1 ? '' : 's'}` : '';
          if (!batch) toast(`Imported “${r.name}”: ${r.events.toLocaleString('en')} events (${r.format ? TRACE_FORMAT_LABELS[r.format] : 'trace'})${warnings}.`);
          return r.traceId;
        }
        if (r.problems[0]?.code === 'pipeline' && (await openAsPipeline(file))) {
          if (batch) batch.pipelines++;
          return null;
        }
        if (batch) (r.status === 'partial' ? batch.review : batch.failed).push(file.name);
        s().showImportResult({ ...r, fileName: file.name });
        return null;
      },
      (e: unknown) => {
        done();
        if (batch) batch.failed.push(file.name);
        toast(`Import of ${file.name} failed: ${describeStorageError(e)}`, 'error');
        return null;
      },
    );
  }

  function importBatch(files: readonly File[]): void {
    const tally: ImportBatchTally = { imported: 0, events: 0, cancelled: 0, pipelines: 0, opened: false, review: [], failed: [] };
    s().importsQueued(files.length);
    void Promise.all(files.map((f) => importOne(f, tally))).then(() => {
      const message = batchSummary(files.length, tally);
      toast(message, tally.failed.length > 0 ? 'error' : 'info');
    });
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
      if (files.length === 1) void importOne(files[0]!);
      else if (files.length > 1) importBatch(files);
    },
    importFile: (file) => importOne(file),
    cancelImport(id) {
      void cancels.get(id)?.();
    },
    cancelAllImports() {
      for (const cancel of [...cancels.values()]) void cancel();
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
