import { TRACE_FORMAT_LABELS } from '../../engine/trace/detectTraceFormat.ts';
import { describeStorageError } from '../persistence/library.ts';
import { startTraceImport } from '../persistence/traceImporter.ts';
import { deleteTrace, keepPendingTrace, removeTraceNow, renameTrace, restoreTrace } from '../persistence/traceLibrary.ts';
import { useEditor } from '../store/editorStore.ts';
import { closeTrace, debuggerDb, openTrace } from './debuggerController.ts';
import { useDebugger } from './debuggerStore.ts';

/** Library commands: import (with progress and cancel), keep or discard a partial import, rename, delete with undo. */
const store = () => useDebugger.getState();
const toast = (message: string, tone: 'info' | 'error' = 'info', action?: { label: string; run: () => void }) =>
  useEditor.getState().toast({ tone, message, ...(action ? { actionLabel: action.label, action: action.run } : {}) });

const cancels = new Map<string, () => Promise<void>>();

export function importFiles(files: readonly File[]): void {
  for (const file of files) importOne(file);
}

function importOne(file: File): void {
  const db = debuggerDb();
  const job = startTraceImport(db, file, (progress) => store().updateImport(job.id, { progress }));
  cancels.set(job.id, job.cancel);
  store().set({ imports: [...store().imports, { id: job.id, fileName: file.name, size: file.size, progress: null }] });
  const done = () => {
    cancels.delete(job.id);
    store().set({ imports: store().imports.filter((v) => v.id !== job.id) });
  };
  job.result.then(
    async (r) => {
      done();
      if (!r) {
        toast(`Import of ${file.name} cancelled; nothing was stored.`);
        return;
      }
      if (r.status === 'ok' && r.traceId) {
        await openTrace(r.traceId);
        const warnings = r.problems.length ? `, ${r.problems.length} warning${r.problems.length === 1 ? '' : 's'}` : '';
        toast(`Imported “${r.name}”: ${r.events.toLocaleString('en')} events (${r.format ? TRACE_FORMAT_LABELS[r.format] : 'trace'})${warnings}.`);
        return;
      }
      store().set({ importResult: { ...r, fileName: file.name } });
    },
    (e: unknown) => {
      done();
      toast(`Import of ${file.name} failed: ${describeStorageError(e)}`, 'error');
    },
  );
}

export function cancelImport(id: string): void {
  void cancels.get(id)?.();
}

/** The person keeps the good events of a partial import. */
export async function keepImport(): Promise<void> {
  const r = store().importResult;
  if (!r?.traceId) return;
  store().set({ importResult: null });
  await keepPendingTrace(debuggerDb(), r.traceId);
  await openTrace(r.traceId);
}

/** The person discards a partial import (or closes a failed one): nothing stays stored. */
export async function discardImport(): Promise<void> {
  const r = store().importResult;
  store().set({ importResult: null });
  if (r?.traceId) await removeTraceNow(debuggerDb(), r.traceId);
}

export async function renameTraceCmd(id: string, name: string): Promise<void> {
  await renameTrace(debuggerDb(), id, name);
  const s = store();
  if (s.trace?.id === id) s.set({ trace: { ...s.trace, name } });
}

export async function deleteTraceCmd(id: string, name: string): Promise<void> {
  const db = debuggerDb();
  await deleteTrace(db, id);
  const wasOpen = store().traceId === id;
  if (wasOpen) closeTrace();
  toast(`Deleted trace “${name}”.`, 'info', {
    label: 'Undo',
    run: () => void restoreTrace(db, id).then(() => (wasOpen ? openTrace(id) : undefined)),
  });
}
