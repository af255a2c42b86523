import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { Explanation, HandlerStatus } from '../dispatch/types.ts';

/** Handler statuses in the order of `ReplayActivity.status_counts` columns. */
export const HANDLER_STATUSES: readonly HandlerStatus[] = ['fired', 'not_matched', 'wrong_event_type', 'not_reached', 'disabled', 'breaker_open', 'error'];
/** Index of a status in `HANDLER_STATUSES` (a switch: the explain pass asks once per handler per step). */
function statusCode(s: HandlerStatus): number {
  switch (s) {
    case 'fired':
      return 0;
    case 'not_matched':
      return 1;
    case 'wrong_event_type':
      return 2;
    case 'not_reached':
      return 3;
    case 'disabled':
      return 4;
    case 'breaker_open':
      return 5;
    case 'error':
      return 6;
  }
}

/**
 * Which handlers ran on which step, read from the explain pass's Explanations [R11][R13], in compact form.
 * The handlers that ran at step `i` are `ran_handler[ran_offset[i] .. ran_offset[i + 1])` (ranks, i.e.
 * indexes into `handler_ids`); `ran_failed` marks those that ran and failed (status `error`).
 */
export interface ReplayActivity {
  /** Steps analysed so far (from 0). */
  count: number;
  ran_offset: Int32Array;
  ran_handler: Int32Array;
  ran_failed: Uint8Array;
  /** `status_counts[rank * HANDLER_STATUSES.length + k]`: steps where the handler had status `HANDLER_STATUSES[k]`. */
  status_counts: Int32Array;
  handler_ids: string[];
}

export interface ActivityBuilder {
  /** Records step `index` (in order); `explanation` is null when no handler ran (duplicate, not reached). */
  record(index: number, explanation: Explanation | null): void;
  /** The activity so far, as exact-length views. */
  snapshot(): ReplayActivity;
}

/** An empty activity for `count` steps of a trace over `compiled`. */
export function createActivityBuilder(compiled: CompiledPipeline, count: number): ActivityBuilder {
  const ids = compiled.handlers.map((h) => h.id);
  const rank = new Map(ids.map((id, i) => [id, i]));
  const offsets = new Int32Array(count + 1);
  let ranks = new Int32Array(Math.max(16, count));
  let failed = new Uint8Array(ranks.length);
  let used = 0;
  let analysed = 0;
  const counts = new Int32Array(ids.length * HANDLER_STATUSES.length);
  const width = HANDLER_STATUSES.length;

  const push = (r: number, f: boolean): void => {
    if (used === ranks.length) {
      const bigger = new Int32Array(ranks.length * 2);
      bigger.set(ranks);
      ranks = bigger;
      const biggerF = new Uint8Array(bigger.length);
      biggerF.set(failed);
      failed = biggerF;
    }
    ranks[used] = r;
    failed[used++] = f ? 1 : 0;
  };

  return {
    record(index, explanation) {
      if (index !== analysed) throw new Error(`activity: step ${index} recorded out of order (expected ${analysed})`);
      if (explanation) {
        const hs = explanation.handlers;
        for (let k = 0; k < hs.length; k++) {
          const h = hs[k]!;
          // Explanations list handlers in execution order, which is rank order; the map is the safe fallback.
          const r = ids[k] === h.handler_id ? k : rank.get(h.handler_id) ?? -1;
          if (r < 0) continue;
          counts[r * width + statusCode(h.status)]!++;
          if (h.status === 'fired' || h.status === 'error') push(r, h.status === 'error');
        }
      }
      offsets[++analysed] = used;
    },
    snapshot() {
      return {
        count: analysed,
        ran_offset: offsets.subarray(0, analysed + 1),
        ran_handler: ranks.subarray(0, used),
        ran_failed: failed.subarray(0, used),
        status_counts: counts.slice(),
        handler_ids: ids,
      };
    },
  };
}

/** Whether handler `rank` ran on step `i` of an activity. */
export function ranAt(a: ReplayActivity, i: number, rank: number): boolean {
  for (let k = a.ran_offset[i]!; k < a.ran_offset[i + 1]!; k++) if (a.ran_handler[k] === rank) return true;
  return false;
}
