import type { StateCreator } from 'zustand';
import type { AppState } from './appStore.ts';

/**
 * The live view's slice: a connection to a running `hookwire serve` (debugger/liveSession.ts does the
 * effects). `following` is the server trace whose events arrive in the timeline; `waiting` counts events
 * that arrived while paused and are not shown yet.
 */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting' | 'failed';

/** A session the server has sent events of since the connection opened. */
export interface LiveSessionSeen {
  trace_id: string;
  /** Events the session holds on the server (its last event's index + 1). */
  events: number;
  lastDecision: string;
}

export interface LiveView {
  status: LiveStatus;
  server: string | null;
  serverPipeline: { name: string; version: string } | null;
  following: string | null;
  /** The stored trace that holds the followed session's events. */
  storedId: string | null;
  received: number;
  waiting: number;
  paused: boolean;
  lastDecision: string | null;
  error: string | null;
  /**
   * The library entry that holds the server's pipeline (opened so the debugger explains with it), and the
   * server's version it was made from; null until fetched.
   */
  serverPipelineId: string | null;
  /** While reconnecting: the attempt (1, 2, …) and when the next one starts (ms since the epoch). */
  retry: { attempt: number; at: number } | null;
  /** Every session seen on the stream, in the order they first sent (any of them can be followed). */
  sessions: readonly LiveSessionSeen[];
}

export interface LiveActions {
  liveConnecting(server: string): void;
  liveConnected(pipeline: { name: string; version: string }): void;
  liveFollowing(following: string): void;
  /** The followed session's trace is in the library. */
  liveStored(storedId: string): void;
  liveArrived(received: number, waiting: number, lastDecision: string): void;
  /** A step of any session arrived (`index`: its place in that session). */
  liveSeen(trace_id: string, index: number, decision: string): void;
  livePaused(paused: boolean): void;
  /** The followed session was kept as a trace: the next session to send an event is followed. */
  liveDetached(): void;
  livePipelinePushed(pipeline: { name: string; version: string }): void;
  liveFailed(error: string): void;
  /** The stream broke: the followed trace stays; the next attempt starts at `at`. */
  liveReconnecting(error: string, attempt: number, at: number): void;
  liveServerPipelineOpened(id: string): void;
  liveEnded(): void;
}

export type LiveSlice = { live: LiveView } & LiveActions;

export const LIVE_OFF: LiveView = { status: 'off', server: null, serverPipeline: null, following: null, storedId: null, received: 0, waiting: 0, paused: false, lastDecision: null, error: null, serverPipelineId: null, retry: null, sessions: [] };

export const createLiveSlice: StateCreator<AppState, [], [], LiveSlice> = (set, get) => {
  const patch = (p: Partial<LiveView>) => set({ live: { ...get().live, ...p } });
  return {
    live: LIVE_OFF,
    liveConnecting: (server) => set({ live: { ...LIVE_OFF, status: 'connecting', server } }),
    liveConnected: (serverPipeline) => patch({ status: 'live', serverPipeline, error: null, retry: null }),
    liveFollowing: (following) => patch({ following, storedId: null, received: 0, waiting: 0, lastDecision: null }),
    liveStored: (storedId) => patch({ storedId }),
    liveArrived: (received, waiting, lastDecision) => patch({ received, waiting, lastDecision }),
    liveSeen: (trace_id, index, decision) => {
      const sessions = get().live.sessions;
      const at = sessions.findIndex((x) => x.trace_id === trace_id);
      const seen = { trace_id, events: Math.max(index + 1, at >= 0 ? sessions[at]!.events : 0), lastDecision: decision };
      patch({ sessions: at >= 0 ? sessions.map((x, i) => (i === at ? seen : x)) : [...sessions, seen] });
    },
    livePaused: (paused) => patch({ paused, ...(paused ? {} : { waiting: 0 }) }),
    liveDetached: () => patch({ following: null, storedId: null, received: 0, waiting: 0, lastDecision: null }),
    livePipelinePushed: (serverPipeline) => patch({ serverPipeline }),
    liveFailed: (error) => patch({ status: 'failed', error, retry: null }),
    liveReconnecting: (error, attempt, at) => patch({ status: 'reconnecting', error, retry: { attempt, at } }),
    liveServerPipelineOpened: (serverPipelineId) => patch({ serverPipelineId }),
    liveEnded: () => set({ live: LIVE_OFF }),
  };
};

export const selectLive = (s: AppState) => s.live;
