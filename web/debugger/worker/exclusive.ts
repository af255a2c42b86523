/**
 * Runs async tasks one at a time, urgent ones first. The replay worker serves step requests (a person is
 * waiting) between the slices of its background passes (timeline, analysis, compare), and the async
 * replayer underneath must not be entered twice at once.
 */
export interface Exclusive {
  run<T>(task: () => Promise<T> | T, urgent?: boolean): Promise<T>;
}

export function createExclusive(): Exclusive {
  const urgent: (() => Promise<void>)[] = [];
  const normal: (() => Promise<void>)[] = [];
  let busy = false;
  const pump = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      for (let next = urgent.shift() ?? normal.shift(); next; next = urgent.shift() ?? normal.shift()) await next();
    } finally {
      busy = false;
    }
  };
  return {
    run<T>(task: () => Promise<T> | T, isUrgent = false): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        (isUrgent ? urgent : normal).push(async () => {
          try {
            resolve(await task());
          } catch (e) {
            reject(e);
          }
        });
        void pump();
      });
    },
  };
}

/** Lets queued messages in: a macrotask turn, not a microtask. */
export function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
