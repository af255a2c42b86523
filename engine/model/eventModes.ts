import { LIFECYCLE_EVENTS, type EventMode } from './event.ts';
import { parseEventPattern } from './eventPattern.ts';
import type { Pipeline } from './pipelineTypes.ts';

/** What an event pattern's events are dispatched as: one mode, or `mixed` when the types it selects differ. */
export type PatternMode = EventMode | 'mixed';

export interface EventModes {
  /** [D8] the pipeline's declared mode, else the built-in catalogue's, else sync. */
  modeOf(type: string): EventMode;
  /** Every type with a known mode: the catalogue, overridden by the pipeline's declarations. */
  readonly known: ReadonlyMap<string, EventMode>;
}

/**
 * The event modes of a pipeline [D8]; the compiler's `modeOf` and the editor's labels both come from here.
 * `eventModes({ event_types: [{ type: 'billing.charge', mode: 'async' }] }).modeOf('billing.charge') === 'async'`.
 */
export function eventModes(doc: Pick<Pipeline, 'event_types'>): EventModes {
  const known = new Map<string, EventMode>(LIFECYCLE_EVENTS.map((e) => [e.type, e.mode]));
  for (const d of doc.event_types) known.set(d.type, d.mode);
  return { known, modeOf: (type) => known.get(type) ?? 'sync' };
}

/**
 * The mode an event node's pattern stands for: an exact type's mode [D8]; for `prefix.*` and `*` [M1], the
 * modes of the known types it selects (`mixed` when they differ, sync when it selects none).
 * `patternMode('tool.*', eventModes(doc)) === 'sync'`.
 */
export function patternMode(pattern: string, modes: EventModes): PatternMode {
  const parsed = parseEventPattern(pattern);
  if (!parsed.ok || parsed.pattern.kind === 'exact') return modes.modeOf(pattern);
  const seen = new Set<EventMode>();
  for (const [type, mode] of modes.known) if (parsed.pattern.matches(type)) seen.add(mode);
  if (seen.size === 0) return 'sync';
  return seen.size === 1 ? [...seen][0]! : 'mixed';
}
