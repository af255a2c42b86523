import { PIPELINE_FORMAT, PIPELINE_VERSION, type Pipeline } from './pipelineTypes.ts';

/**
 * A pipeline with no nodes: every event continues unchanged. The editor's "New pipeline", and the baseline a
 * backtest compares a first pipeline with ("none": what the sessions did with no hooks at all) [B1].
 */
export function emptyPipeline(name = 'Untitled pipeline'): Pipeline {
  return { format: PIPELINE_FORMAT, version: PIPELINE_VERSION, name, event_types: [], nodes: [], wires: [], layout: { nodes: [] } };
}
