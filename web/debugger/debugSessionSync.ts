import type { HookwireDb } from '../persistence/db.ts';
import { loadDebugSession, pruneDebugSessions, saveDebugSession } from '../persistence/debugSession.ts';
import { latestWins } from '../services/latestWins.ts';
import type { AppStore } from '../store/appStore.ts';

/**
 * Keeps the breakpoints and the pinned version of each (trace, pipeline) pair across reloads: restored
 * when a trace opens or another pipeline is opened beside it, saved on every change
 * (persistence/debugSession.ts). Changes are saved only once the pair's own session has been restored, so
 * what belonged to the previous trace is never written under the next one's key.
 */
export interface SessionSyncDeps {
  store: AppStore;
  db: HookwireDb;
  /** Re-runs the compare with a restored pinned version, or stops the one running for the previous pin. */
  runCompare(): void;
  unpin(): void;
}

export function startDebugSessionSync({ store, db, runCompare, unpin }: SessionSyncDeps): () => void {
  const s = () => store.getState();
  let target: { traceId: string; pipelineId: string } | null = null;
  const read = latestWins(({ traceId, pipelineId }: { traceId: string; pipelineId: string }) => loadDebugSession(db, traceId, pipelineId));

  const report = (e: unknown) =>
    s().replayFailed(`Breakpoints and the pinned version could not be stored: ${e instanceof Error ? e.message : String(e)}`);

  async function restore(): Promise<void> {
    const { traceId, pipelineId } = s();
    target = null;
    if (!traceId || !pipelineId) {
      read.invalidate();
      return;
    }
    const answer = await read({ traceId, pipelineId });
    const st = s();
    if (!answer.current || st.traceId !== traceId || st.pipelineId !== pipelineId) return;
    const stored = answer.value;
    const session = stored.ok ? stored.session : { breakpoints: [], pinned: null };
    const wasPinned = st.pinned !== null;
    st.sessionRestored(session);
    if (session.pinned) runCompare();
    // A compare still running in the worker for the previous pin is stopped (there is none without a session).
    else if (wasPinned && st.activeEpoch >= 0) unpin();
    // A session written by a newer app is shown as empty here and left as it is.
    if (stored.ok || stored.reason !== 'newer') target = { traceId, pipelineId };
  }

  void pruneDebugSessions(db).catch(() => undefined);
  const unsubscribe = store.subscribe((st, prev) => {
    if (st.traceId !== prev.traceId || (st.pipelineId !== prev.pipelineId && st.traceId)) {
      void restore().catch(report);
      return;
    }
    if (st.breakpoints === prev.breakpoints && st.pinned === prev.pinned) return;
    if (!target || target.traceId !== st.traceId || target.pipelineId !== st.pipelineId) return;
    void saveDebugSession(db, target.traceId, target.pipelineId, { breakpoints: st.breakpoints, pinned: st.pinned }).catch(report);
  });
  if (s().traceId) void restore().catch(report);
  return unsubscribe;
}
