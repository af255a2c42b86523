// `npm run schema`: writes the JSON Schemas of the file formats from their zod definitions, so the
// schemas never drift from the code. test/engine/trace/schemaFiles.test.ts fails when the committed files
// differ from what this would write.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PipelineSchema } from '../model/pipelineSchema.ts';
import { PIPELINE_FORMAT, PIPELINE_SCHEMA_ID, PIPELINE_VERSION } from '../model/pipelineTypes.ts';
import { traceSchemas } from '../trace/traceSchema.ts';
import { TRACE_FORMAT, TRACE_VERSION } from '../trace/traceTypes.ts';
import { BACKTEST_FORMAT, BACKTEST_VERSION } from '../replay/backtestReport.ts';
import { BacktestReportSchema } from './backtest/backtestSchema.ts';

export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema');

/** The schema files and their content, keyed by file name. */
export function schemaFiles(): Record<string, string> {
  const pipeline = {
    ...z.toJSONSchema(PipelineSchema, { io: 'input' }),
    $id: PIPELINE_SCHEMA_ID,
    title: `${PIPELINE_FORMAT} version ${PIPELINE_VERSION}`,
  };
  // A trace is JSON Lines, which JSON Schema cannot describe as a whole: the file validates each line
  // against `$defs.header` (line 1) or `$defs.event` (every other line); the root accepts either.
  const opts = { io: 'input' as const, unrepresentable: 'any' as const };
  const { TraceHeaderSchema, TraceEventLineSchema } = traceSchemas();
  const header = strip(z.toJSONSchema(TraceHeaderSchema, opts));
  const event = strip(z.toJSONSchema(TraceEventLineSchema, opts));
  const trace = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://unpkg.com/hookwire/dist/schema/trace.v${TRACE_VERSION}.schema.json`,
    title: `${TRACE_FORMAT} version ${TRACE_VERSION} (one line)`,
    description: 'A Hookwire trace is JSON Lines: line 1 is a header ($defs.header), every other non-blank line an event ($defs.event).',
    anyOf: [{ $ref: '#/$defs/header' }, { $ref: '#/$defs/event' }],
    $defs: { header, event },
  };
  const backtest = {
    ...z.toJSONSchema(BacktestReportSchema, { io: 'output' }),
    $id: `https://unpkg.com/hookwire/dist/schema/backtest.v${BACKTEST_VERSION}.schema.json`,
    title: `${BACKTEST_FORMAT} version ${BACKTEST_VERSION} (\`hookwire backtest --json\`)`,
  };
  return {
    [`backtest.v${BACKTEST_VERSION}.schema.json`]: `${JSON.stringify(backtest, null, 2)}\n`,
    [`pipeline.v${PIPELINE_VERSION}.schema.json`]: `${JSON.stringify(pipeline, null, 2)}\n`,
    [`trace.v${TRACE_VERSION}.schema.json`]: `${JSON.stringify(trace, null, 2)}\n`,
  };
}

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}

function main(): void {
  mkdirSync(SCHEMA_DIR, { recursive: true });
  for (const [name, text] of Object.entries(schemaFiles())) {
    writeFileSync(join(SCHEMA_DIR, name), text);
    console.log(`wrote engine/schema/${name}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
