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

/**
 * A macrotask turn through a message port: unlike `setTimeout(0)`, whose nested calls wait at least 4 ms each
 * (the HTML timer clamp), a search that yields between hundreds of chunks does not idle for seconds.
 */
const turns: (() => void)[] = [];
const channel = typeof MessageChannel === 'function' ? new MessageChannel() : null;
if (channel) {
  channel.port1.onmessage = () => turns.shift()?.();
  // Node's ports keep a process alive (the unit tests run this file there); a browser's have no unref.
  (channel.port1 as { unref?: () => void }).unref?.();
}

/** Lets queued messages in: a macrotask turn, not a microtask. */
export function yieldToMessages(): Promise<void> {
  if (!channel) return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    turns.push(resolve);
    channel.port2.postMessage(null);
  });
}
