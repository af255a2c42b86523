import { LIFECYCLE_EVENTS, type EventMode } from '../../engine/model/event.ts';
import type { Pipeline } from '../../engine/model/pipelineSchema.ts';

export type PatternMode = EventMode | 'mixed';

/** Every known event type with its mode: the built-in catalogue overridden by the pipeline's declarations [D8]. */
export function knownEventTypes(doc: Pick<Pipeline, 'event_types'>): Map<string, EventMode> {
  const modes = new Map<string, EventMode>();
  for (const e of LIFECYCLE_EVENTS) modes.set(e.type, e.mode);
  for (const d of doc.event_types) modes.set(d.type, d.mode);
  return modes;
}

/**
 * The mode an event node's pattern stands for, for display: an exact type's mode (unknown types are sync
 * [D8]); for `prefix.*` and `*`, the modes of the known types it selects ("mixed" when they differ).
 */
export function patternMode(pattern: string, known: Map<string, EventMode>): PatternMode {
  if (pattern !== '*' && !pattern.endsWith('.*')) return known.get(pattern) ?? 'sync';
  const prefix = pattern === '*' ? '' : pattern.slice(0, -1);
  const modes = new Set<EventMode>();
  for (const [type, mode] of known) if (type.startsWith(prefix)) modes.add(mode);
  if (modes.size === 0) return 'sync';
  return modes.size === 1 ? ([...modes][0] as EventMode) : 'mixed';
}
