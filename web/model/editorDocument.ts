import { isJsonObject, loadPipeline, PIPELINE_FORMAT, PIPELINE_VERSION, type Pipeline, type Problem } from '../../engine/app.ts';
import { normalizeLayout } from './autoLayout.ts';

export type OpenResult = { ok: true; doc: Pipeline; migratedFrom?: number } | { ok: false; message: string; problems: Problem[] };

const KINDS = new Set(['event', 'matcher', 'handler']);

/** Enough shape for the editor to render and edit it; the engine's problems explain everything else. */
function looksEditable(raw: Record<string, unknown>): boolean {
  const nodes = raw.nodes;
  const wires = raw.wires;
  if (typeof raw.name !== 'string' || !Array.isArray(raw.event_types) || !Array.isArray(nodes) || !Array.isArray(wires)) return false;
  const nodeOk = (n: unknown) => {
    if (!isJsonObject(n as never)) return false;
    const o = n as Record<string, unknown>;
    if (typeof o.id !== 'string' || typeof o.kind !== 'string' || !KINDS.has(o.kind)) return false;
    if (o.kind === 'event') return typeof o.pattern === 'string';
    if (o.kind === 'handler') return isJsonObject(o.action as never) && typeof (o.action as { type?: unknown }).type === 'string';
    return true;
  };
  const wireOk = (w: unknown) => isJsonObject(w as never) && typeof (w as { from?: unknown }).from === 'string' && typeof (w as { to?: unknown }).to === 'string';
  return nodes.every(nodeOk) && wires.every(wireOk);
}

/**
 * Turns a stored or imported document into the editor's document. A current-version document the editor
 * saved opens as it is, problems and all (the user may be halfway through a fix); an older one goes
 * through the engine's loader, which migrates it [V1]; anything the loader refuses is not opened.
 */
export function documentForEditor(raw: unknown): OpenResult {
  if (isJsonObject(raw as never)) {
    const o = raw as Record<string, unknown>;
    if (o.format === PIPELINE_FORMAT && o.version === PIPELINE_VERSION && looksEditable(o)) {
      return { ok: true, doc: normalizeLayout(raw as Pipeline) };
    }
  }
  const loaded = loadPipeline(raw);
  if (!loaded.ok) return { ok: false, message: 'This pipeline cannot be opened.', problems: loaded.problems };
  const version = isJsonObject(raw as never) ? (raw as { version?: unknown }).version : undefined;
  return {
    ok: true,
    doc: normalizeLayout(loaded.pipeline),
    ...(typeof version === 'number' && version !== PIPELINE_VERSION ? { migratedFrom: version } : {}),
  };
}

/** The engine's problems for the document being edited: errors and lint warnings [V2][V6]. */
export function validateDoc(doc: Pipeline): Problem[] {
  return loadPipeline(doc).problems;
}
