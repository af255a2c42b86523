import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import type { TraceCoverage } from './coverageOf.ts';
import { createReplayer } from './createReplayer.ts';
import type { EventSource, ReplayOptions } from './types.ts';

/**
 * Replays a trace in explain mode and reports coverage [R13].
 * `traceCoverage(compiled, trace.events).never_fired` → `['h-block-injection']`
 */
export function traceCoverage(compiled: CompiledPipeline, events: readonly TraceEvent[] | EventSource, options: ReplayOptions = {}): TraceCoverage {
  return createReplayer(compiled, events, options).coverage();
}
