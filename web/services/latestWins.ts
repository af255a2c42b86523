/**
 * "Latest answer wins" for requests whose answers can arrive after the person has moved on (a step while
 * a key is held, a filter while typing, a code check while editing, a stored session while switching
 * traces). Calls run one at a time; a call made while one is running waits, and when several wait only
 * the newest runs: the others, and any call overtaken while it ran, settle as `{ current: false }`. So
 * the worker never queues work nobody will look at, and an old answer never overwrites a newer one.
 */
export type Latest<R> = { current: true; value: R } | { current: false };

export interface LatestWins<A, R> {
  (arg: A): Promise<Latest<R>>;
  /** Makes every call made so far stale (the trace they were about was closed). */
  invalidate(): void;
}

export function latestWins<A, R>(run: (arg: A) => Promise<R>): LatestWins<A, R> {
  let generation = 0;
  let running: Promise<unknown> | null = null;
  const call = async (arg: A): Promise<Latest<R>> => {
    const mine = ++generation;
    while (running) {
      await running.catch(() => undefined);
      if (mine !== generation) return { current: false };
    }
    if (mine !== generation) return { current: false };
    const p = run(arg);
    running = p;
    try {
      const value = await p;
      return mine === generation ? { current: true, value } : { current: false };
    } catch (e) {
      // A failure nobody waits for any more is not reported.
      if (mine !== generation) return { current: false };
      throw e;
    } finally {
      if (running === p) running = null;
    }
  };
  return Object.assign(call, { invalidate: () => void generation++ });
}
