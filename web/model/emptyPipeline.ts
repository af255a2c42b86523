import { PIPELINE_FORMAT, PIPELINE_VERSION, type Pipeline } from '../../engine/app.ts';

/** A new, empty pipeline for the library's "New pipeline". */
export function emptyPipeline(name = 'Untitled pipeline'): Pipeline {
  return { format: PIPELINE_FORMAT, version: PIPELINE_VERSION, name, event_types: [], nodes: [], wires: [], layout: { nodes: [] } };
}
