import type { Scope } from '../match/path.ts';
import type { CompiledHandler, CompiledPipeline } from '../compile/compilePipeline.ts';
import { resultSlot, type Chain } from './chain.ts';
import type { ResultSlot } from '../compile/types.ts';
import type { MatcherFailure } from '../compile/compileMatcher.ts';
import { gatherMemory, type GatherMemory } from '../compile/candidateIndex.ts';
import { lastMemo } from '../accel/lastMemo.ts';

/**
 * The fast path's working memory for one compiled pipeline, owned by dispatch (the compiled pipeline itself
 * stays immutable): the candidate buffer, the per-event matcher memo [M6], a reused chain and scope, so the
 * fast path allocates little. Single-threaded; `busy` refuses a re-entered dispatch.
 */
export interface Scratch {
  candidates: Int32Array;
  memoEpoch: Int32Array;
  memoPass: Uint8Array;
  /** The failure of a matcher whose memoised verdict is "failed to answer" (memoPass 2) [M8]. */
  memoFailure: (MatcherFailure | undefined)[];
  epoch: number;
  /** The candidate index's bits for one gather. */
  gather: GatherMemory;
  chain: Chain | undefined;
  /** The result slot built-in actions fill on the fast path (settle reads it before the next handler runs). */
  result: ResultSlot;
  scope: Scope | undefined;
  busy: boolean;
}

/** The fast path's scratch of `compiled`, made on first use. */
export const scratchOf = lastMemo((compiled: CompiledPipeline) => newScratch(compiled));

/** A fresh working memory for `compiled` (explain mode's decision walk keeps its own, apart from the fast path's). */
export function newScratch(compiled: CompiledPipeline): Scratch {
  return { candidates: new Int32Array(compiled.handlers.length), memoEpoch: new Int32Array(compiled.verdictSlots), memoPass: new Uint8Array(compiled.verdictSlots), memoFailure: new Array<MatcherFailure | undefined>(compiled.verdictSlots).fill(undefined), epoch: 0, gather: gatherMemory(), chain: undefined, result: resultSlot(), scope: undefined, busy: false };
}

/**
 * Whether some live path of the handler passes, with shared verdicts memoised per epoch [M3][M6] (matchers
 * with the same conditions share one: `CompiledPipeline.verdictSlot`).
 * When none passes but one failed only because a code matcher could not answer (its other matchers all
 * passed), that failure: the handler then follows its error policy, as if it had failed itself [M8][E1].
 */
export function handlerMatches(compiled: CompiledPipeline, s: Scratch, live: Int32Array, h: CompiledHandler, scope: Scope): true | false | MatcherFailure {
  let failure: MatcherFailure | false = false;
  for (let p = 0; p < live.length; p++) {
    const ms = h.paths[live[p]!]!.matchers;
    let pass = true;
    let pathFailure: MatcherFailure | null = null;
    for (let k = 0; k < ms.length; k++) {
      const v = memoVerdict(compiled, s, ms[k]!, scope);
      if (v === false) {
        pass = false;
        break;
      }
      if (v !== true) pathFailure ??= v;
    }
    if (pass && pathFailure === null) return true;
    if (pass && failure === false) failure = pathFailure!;
  }
  return failure;
}

/** Matcher `m`'s verdict on this event, evaluated once per epoch and kept in its verdict slot [M6]. */
export function memoVerdict(compiled: CompiledPipeline, s: Scratch, m: number, scope: Scope): true | false | MatcherFailure {
  const at = compiled.verdictSlot[m]!;
  if (s.memoEpoch[at] === s.epoch) {
    const v = s.memoPass[at]!;
    return v === 1 ? true : v === 0 ? false : s.memoFailure[at]!;
  }
  const r = compiled.matchers[m]!.test(scope);
  s.memoEpoch[at] = s.epoch;
  s.memoPass[at] = r === true ? 1 : r === false ? 0 : 2;
  s.memoFailure[at] = r === true || r === false ? undefined : r;
  return r;
}

/** A fresh memo epoch; the counters wrap long before Int32 overflow. */
export function nextEpoch(s: Scratch): void {
  if (++s.epoch >= 0x3fffffff) {
    s.epoch = 1;
    s.memoEpoch.fill(0);
  }
}
