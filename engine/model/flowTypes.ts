// The memory of flow rules [F3]-[F7]: what a session's earlier events left for the rules that decide its later
// ones. It lives in the dispatch state (`DispatchState.flows`), so replay's carry, the runtime's session and
// `serve`'s rebuilt sessions hold it the same way as budgets; it is immutable, so a checkpoint is a reference.
// Keys that come from payloads (values at `same` paths) and rule ids are user data: Maps, never objects [V8].

/** One remembered event: the step it was (0-based), its id, type and time, and a short description for people. */
export interface FlowMark {
  readonly step: number;
  readonly event_id: string;
  readonly type: string;
  /** Event time, ms since the epoch (the clock of the step [R3]). */
  readonly ts: number;
  /** The event in a few words: its type, tool and the file, command or URL it acted on. */
  readonly what: string;
}

/** What one rule remembers for one key (`same` value, or the rule's only key ''): marks, oldest first, and the last clear. */
export interface FlowKeyMemo {
  readonly marks: readonly FlowMark[];
  /** The event that last cleared the marks (a flag's clear, a precondition's reset), or null. */
  readonly cleared: FlowMark | null;
}

/** One rule's memory in one session. `overflow`: more keys than `FLOW_LIMITS.keys` came; the rule fails closed [F8]. */
export interface FlowRuleMemo {
  readonly keys: ReadonlyMap<string, FlowKeyMemo>;
  readonly overflow: FlowMark | null;
}

/** One session's flow memory: per rule (handler id). */
export type FlowMemo = ReadonlyMap<string, FlowRuleMemo>;

/** Flow memory per session (trace id): sessions interleaved in one file never share it [F5]. */
export type FlowSessions = ReadonlyMap<string, FlowMemo>;

/**
 * The bounds of flow memory [F8]: per session and rule at most `keys` distinct `same` values (the first
 * `key_chars` characters of each, with its length and a hash past that), and per key at most the rule's
 * `limit` marks (a window's, at most 1000; 1 for the others).
 */
export const FLOW_LIMITS = { keys: 256, key_chars: 512 } as const;
