import { useSyncExternalStore } from 'react';
import type { ReplayClient } from './replayClient.ts';
import type { RowInfo } from './worker/protocol.ts';

/**
 * Timeline row texts (type, time, payload summary), fetched from the replay worker a block at a time as
 * rows scroll into view and kept in a bounded cache: a 100,000-event trace never has all its rows here.
 * A row's recorded text does not depend on the pipeline; what a rewriting pipeline made of it does
 * (RowInfo.rewritten), so the blocks are fetched again, still shown meanwhile, when a replay's timeline arrives.
 */
const BLOCK = 256;
const MAX_BLOCKS = 64;

export interface RowCache {
  reset(traceId: string | null): void;
  /** Fetches the loaded blocks again (the replay changed), showing the old rows until the new arrive. */
  refresh(): void;
  /** The row of step `index`, or undefined while its block loads (the load starts here). */
  rowAt(index: number): RowInfo | undefined;
  subscribe(listener: () => void): () => void;
  /** Bumped whenever rows arrive. */
  version(): number;
}

export function createRowCache(client: ReplayClient): RowCache {
  let traceId: string | null = null;
  let blocks = new Map<number, RowInfo[] | 'loading'>();
  /** Blocks shown until their fetch again arrives. */
  let stale = new Map<number, RowInfo[]>();
  let version = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    version++;
    for (const l of listeners) l();
  };

  const load = (b: number) => {
    const forTrace = traceId;
    blocks.set(b, 'loading');
    client
      .request({ kind: 'rows', start: b * BLOCK, end: (b + 1) * BLOCK })
      .then(({ value }) => {
        if (traceId !== forTrace) return;
        blocks.set(b, value);
        stale.delete(b);
        while (blocks.size > MAX_BLOCKS) blocks.delete(blocks.keys().next().value!);
        notify();
      })
      .catch(() => {
        if (traceId === forTrace) blocks.delete(b);
      });
  };

  return {
    reset(id) {
      traceId = id;
      blocks = new Map();
      stale = new Map();
      notify();
    },
    refresh() {
      for (const [b, block] of blocks) if (block !== 'loading') stale.set(b, block);
      blocks = new Map();
      notify();
    },
    rowAt(index) {
      const b = Math.floor(index / BLOCK);
      const block = blocks.get(b);
      if (block === undefined) {
        load(b);
        return stale.get(b)?.[index - b * BLOCK];
      }
      return (block === 'loading' ? stale.get(b) : block)?.[index - b * BLOCK];
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    version: () => version,
  };
}

/** Re-renders the caller when rows arrive. */
export function useRowsVersion(rows: RowCache): number {
  return useSyncExternalStore(rows.subscribe, rows.version);
}
