// The memory of flow rules [F3]-[F7]: what a session's earlier events left for the rules that decide its later
// ones. It lives in the dispatch state (`DispatchState.flows`), so replay's carry, the runtime's session and
// `serve`'s rebuilt sessions hold it the same way as budgets; it is immutable, so a checkpoint is a reference.
// Keys that come from payloads (values at `same` paths) and rule ids are user data: Maps, never objects [V8].
// Sessions and a rule's keys are persistent maps (structural sharing): remembering an event copies one path,
// not every session's memory, so the cost per event does not grow with the sessions of a file [F8].
import { PersistentMap } from './persistentMap.ts';

/**
 * One remembered event: the step it was (0-based), its id, type and time, and what it acted on (for people:
 * `flowMarkText` makes the sentence only when one is asked for, so remembering allocates no text).
 */
export interface FlowMark {
  readonly step: number;
  readonly event_id: string;
  readonly type: string;
  /** Event time, ms since the epoch (the clock of the step [R3]). */
  readonly ts: number;
  /** The tool's name (at most 40 characters), or null. */
  readonly tool: string | null;
  /** The file, command or URL it acted on (at most 80 characters), or null. */
  readonly subject: string | null;
}

/**
 * A key's marks as a list, newest first, shared between versions: remembering one more mark adds one cell
 * instead of copying the list. `n` counts the cells down to the oldest; past twice the rule's `limit` the list
 * is cut to its newest `limit` (so a key holds at most 2 × limit marks, and the cutting costs one cell per mark).
 */
export interface FlowMarkCell {
  readonly mark: FlowMark;
  readonly prev: FlowMarkCell | null;
  readonly n: number;
}

/** What one rule remembers for one key (`same` value, or the rule's only key ''): its marks, and the last clear. */
export interface FlowKeyMemo {
  /** The newest mark's cell; the rule counts the newest `limit` cells (null: no marks). */
  readonly last: FlowMarkCell | null;
  /** The event that last cleared the marks (a flag's clear, a precondition's reset), or null. */
  readonly cleared: FlowMark | null;
}

/** One rule's memory in one session. `overflow`: more keys than `FLOW_LIMITS.keys` came; the rule fails closed [F8]. */
export interface FlowRuleMemo {
  /** A rule with `same`: per value. Empty for a rule without `same`, which has one key and keeps it in `one`. */
  readonly keys: PersistentMap<FlowKeyMemo>;
  /** A rule without `same`: its memory (its only key, so no map to copy per event), or null. */
  readonly one: FlowKeyMemo | null;
  readonly overflow: FlowMark | null;
}

/**
 * One session's flow memory: per rule (handler id), in id order. A session has at most the pipeline's flow
 * rules, a handful, so this is a small table of two arrays: a lookup compares a few ids, and remembering copies
 * one short array of references and shares the ids (a hash trie here cost five objects per change).
 */
export class FlowMemo {
  private constructor(
    private readonly ids: readonly string[],
    private readonly memos: readonly FlowRuleMemo[],
  ) {}

  /** No rule remembers anything yet. */
  static readonly EMPTY: FlowMemo = new FlowMemo([], []);

  /** The rule's memory, or undefined. */
  get(id: string): FlowRuleMemo | undefined {
    const ids = this.ids;
    for (let i = 0; i < ids.length; i++) if (ids[i] === id) return this.memos[i];
    return undefined;
  }

  /** The memory with one rule's replaced (this itself when it already holds that very value). */
  set(id: string, memo: FlowRuleMemo): FlowMemo {
    const ids = this.ids;
    let i = 0;
    while (i < ids.length && ids[i]! < id) i++;
    if (i < ids.length && ids[i] === id) {
      if (this.memos[i] === memo) return this;
      const memos = this.memos.slice();
      memos[i] = memo;
      return new FlowMemo(ids, memos);
    }
    return new FlowMemo([...ids.slice(0, i), id, ...ids.slice(i)], [...this.memos.slice(0, i), memo, ...this.memos.slice(i)]);
  }

  /** Every rule's memory, by rule id (sorted). */
  entries(): [string, FlowRuleMemo][] {
    return this.ids.map((id, i) => [id, this.memos[i]!]);
  }

  /** How many rules have memory. */
  get size(): number {
    return this.ids.length;
  }
}

/**
 * Flow memory per session (trace id): sessions interleaved in one file never share it [F5]. Immutable. The
 * session of the latest change is held apart from the others (a recording's events mostly come session by
 * session), so a change to it copies nothing and a lookup of it hashes nothing; the others sit in a
 * persistent map, so a change of session copies one path of it.
 */
export class FlowSessions {
  private constructor(
    private readonly rest: PersistentMap<FlowMemo>,
    private readonly trace: string | null,
    private readonly current: FlowMemo | undefined,
  ) {}

  /** No session remembers anything yet. */
  static readonly EMPTY: FlowSessions = new FlowSessions(PersistentMap.empty(), null, undefined);

  /** One session's memory, or undefined when no flow rule remembered any of its events. */
  get(trace: string): FlowMemo | undefined {
    return trace === this.trace ? this.current : this.rest.get(trace);
  }

  /** The memory with one session's replaced. */
  set(trace: string, memo: FlowMemo): FlowSessions {
    if (trace === this.trace || this.trace === null) return new FlowSessions(this.rest, trace, memo);
    return new FlowSessions(this.rest.set(this.trace, this.current!), trace, memo);
  }

  /** Every session's memory, by trace id (sorted, so equal memories list the same). */
  entries(): [string, FlowMemo][] {
    const all = new Map(this.rest);
    if (this.trace !== null) all.set(this.trace, this.current!);
    return [...all].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** How many sessions have memory. */
  get size(): number {
    return this.rest.size + (this.trace !== null && !this.rest.has(this.trace) ? 1 : 0);
  }
}

/**
 * The bounds of flow memory [F8]: per session and rule at most `keys` distinct `same` values (the first
 * `key_chars` characters of each, with its length and a hash past that), and per key the rule's newest
 * `limit` marks (a window's `limit` is at most 1000; 1 for the others), held in at most twice as many cells.
 */
export const FLOW_LIMITS = { keys: 256, key_chars: 512 } as const;
