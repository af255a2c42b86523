import { loadPipeline, parsePipelineText, type LoadResult, PIPELINE_SCHEMA_ID, type Pipeline } from '../../engine/app.ts';
import { normalizeLayout } from './autoLayout.ts';

export interface ExportOptions {
  /** Keep canvas positions (`layout`); without them the file holds semantics only. */
  layout: boolean;
}

/**
 * The v1 JSON text of a pipeline. A document the engine loads is written in the engine's canonical form
 * (field order of the schema, defaults filled in), so export → import → export gives the same text; one
 * with errors is written as it stands, so nothing the user made is lost. It names the package's JSON Schema
 * in `$schema` (keeping one the document already had).
 */
export function exportPipelineText(doc: Pipeline, options: ExportOptions): string {
  const loaded = loadPipeline(doc);
  const canonical: Pipeline = loaded.ok ? loaded.pipeline : doc;
  // `$schema` first [V10]: editors (VS Code) validate and complete the file against the package's schema.
  const out: Partial<Pipeline> = { $schema: PIPELINE_SCHEMA_ID, ...canonical };
  if (!options.layout) delete out.layout;
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** A file name for the export: "Demo: agent safety" → "demo-agent-safety.pipeline.json". */
export function exportFileName(doc: Pipeline): string {
  const base = doc.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'pipeline';
  return `${base}.pipeline.json`;
}

export type ImportCheck = LoadResult & { doc?: Pipeline };

/**
 * Checks pasted or uploaded text with the engine's loader (every problem, with its path) and, when it
 * loads, gives the document the editor will add (laid out if it came without positions).
 */
export function checkImport(text: string): ImportCheck {
  const result = parsePipelineText(text);
  if (!result.ok) return result;
  return { ...result, doc: normalizeLayout(result.pipeline) };
}
