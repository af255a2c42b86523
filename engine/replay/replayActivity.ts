import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { HANDLER_STATUSES, STATUS_CODE, type Explanation } from '../dispatch/types.ts';
import { handlerStatuses } from '../dispatch/explain/explainEvent.ts';

const FIRED = STATUS_CODE.fired;
const ERROR = STATUS_CODE.error;

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
        // Statuses by rank, from the record of the chain: no handler's story is built [X6].
        const st = handlerStatuses(explanation);
        if (st.length !== ids.length) throw new Error(`activity: step ${index} explains ${st.length} handlers, the pipeline has ${ids.length}`);
        for (let r = 0; r < st.length; r++) {
          const code = st[r]!;
          counts[r * width + code]!++;
          if (code === FIRED || code === ERROR) push(r, code === ERROR);
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
