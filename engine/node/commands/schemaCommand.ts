// `hookwire schema [--trace]`: the JSON Schema of the pipeline format (or of a trace line), generated from the
// same zod definitions as engine/schema/*.json.
import { PIPELINE_VERSION } from '../../model/pipelineTypes.ts';
import { TRACE_VERSION } from '../../trace/traceTypes.ts';
import { EXIT, type Io } from '../cliIo.ts';
import { schemaFiles } from '../writeSchemas.ts';

export function schemaCommand(options: { trace?: boolean }, io: Io): number {
  const files = schemaFiles();
  io.out(files[options.trace ? `trace.v${TRACE_VERSION}.schema.json` : `pipeline.v${PIPELINE_VERSION}.schema.json`]!);
  return EXIT.ok;
}
