import type { EventSample } from '../model/fieldPaths.ts';

/**
 * Where path completion gets events from stored traces. The trace library (debugger) registers a reader
 * that returns a sample of stored events; until one is registered, completion uses canonical shapes only.
 */
export type TraceSampler = (limit: number) => Promise<EventSample[]>;

const samplers = new Set<TraceSampler>();

/** Registers a reader of stored trace events; returns a function that unregisters it. */
export function registerTraceSampler(sampler: TraceSampler): () => void {
  samplers.add(sampler);
  return () => samplers.delete(sampler);
}

/** Events from every registered reader; a failing reader is skipped (completion is a convenience). */
export async function sampleStoredEvents(limit = 2000): Promise<EventSample[]> {
  const all = await Promise.all([...samplers].map((s) => s(limit).catch(() => [] as EventSample[])));
  return all.flat().slice(0, limit);
}
