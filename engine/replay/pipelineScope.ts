import type { RecordedDecision } from '../trace/traceTypes.ts';

/**
 * The one rule of which recorded decisions a replay compares [R17]: a decision that names a pipeline version
 * other than the replayed pipeline's was made by another pipeline, so a different replayed decision is no
 * divergence. Returns that other version, or null when the decision is compared (nothing recorded, no version
 * named, the same version, or the replayed version unknown). Used by every step [R6] and by
 * `hookwire replay --check` [R16], so the CLI and the debugger say the same.
 *
 * @example otherPipelineOf({ decision: 'continue', pipeline: 'sha256:00aa…' }, 'sha256:11bb…') // 'sha256:00aa…'
 */
export function otherPipelineOf(recorded: RecordedDecision | null | undefined, version: string | null | undefined): string | null {
  if (!recorded || version === null || version === undefined || recorded.pipeline === undefined) return null;
  return recorded.pipeline === version ? null : recorded.pipeline;
}
