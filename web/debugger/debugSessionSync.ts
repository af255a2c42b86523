import type { HookwireDb } from '../persistence/db.ts';
import { loadDebugSession, pruneDebugSessions, saveDebugSession } from '../persistence/debugSession.ts';
import { useEditor } from '../store/editorStore.ts';
import { runCompare, unpin } from './debuggerController.ts';
import { useDebugger } from './debuggerStore.ts';

/**
 * Keeps the breakpoints and the pinned version of each (trace, pipeline) pair across reloads: restored
 * when a trace opens or another pipeline is opened beside it, saved on every change
 * (persistence/debugSession.ts). Changes are saved only once the pair's own session has been restored, so
 * what belonged to the previous trace is never written under the next one's key.
 */
let target: { traceId: string; pipelineId: string } | null = null;
let restoring = 0;
let started = false;
let db: HookwireDb;

function report(e: unknown): void {
  useDebugger.getState().set({ failure: `Breakpoints and the pinned version could not be stored: ${e instanceof Error ? e.message : String(e)}` });
}

async function restore(): Promise<void> {
  const traceId = useDebugger.getState().traceId;
  const pipelineId = useEditor.getState().pipelineId;
  target = null;
  const gen = ++restoring;
  if (!traceId || !pipelineId) return;
  const read = await loadDebugSession(db, traceId, pipelineId);
  const s = useDebugger.getState();
  if (gen !== restoring || s.traceId !== traceId || useEditor.getState().pipelineId !== pipelineId) return;
  const session = read.ok ? read.session : { breakpoints: [], pinned: null };
  const wasPinned = s.pinned !== null;
  s.set({ breakpoints: session.breakpoints, pinned: session.pinned, diff: null, diffProblems: [] });
  if (session.pinned) void runCompare();
  // A compare still running in the worker for the previous pin is stopped (there is none without a session).
  else if (wasPinned && s.activeEpoch >= 0) unpin();
  // A session written by a newer app is shown as empty here and left as it is.
  if (read.ok || read.reason !== 'newer') target = { traceId, pipelineId };
}

/** Starts following both stores (once per page); `db` is the app's database. */
export function startDebugSessionSync(database: HookwireDb): void {
  db = database;
  if (started) return;
  started = true;
  void pruneDebugSessions(db).catch(() => undefined);
  useDebugger.subscribe((s, prev) => {
    if (s.traceId !== prev.traceId) {
      void restore().catch(report);
      return;
    }
    if (s.breakpoints === prev.breakpoints && s.pinned === prev.pinned) return;
    if (!target || target.traceId !== s.traceId || target.pipelineId !== useEditor.getState().pipelineId) return;
    void saveDebugSession(db, target.traceId, target.pipelineId, { breakpoints: s.breakpoints, pinned: s.pinned }).catch(report);
  });
  useEditor.subscribe((s, prev) => {
    if (s.pipelineId !== prev.pipelineId && useDebugger.getState().traceId) void restore().catch(report);
  });
  if (useDebugger.getState().traceId) void restore().catch(report);
}
