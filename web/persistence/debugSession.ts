import { HIT_MODES, isJsonObject, type HitCount, type JsonObject, type Pipeline } from '../../engine/app.ts';
import { breakpointId, type Breakpoint, type BreakpointSpec } from '../debugger/model/breakpoints.ts';
import { DECISION_FILTERS } from '../debugger/model/timelineFilter.ts';
import type { HookwireDb } from './db.ts';

/**
 * What the debugger keeps for one trace replayed with one pipeline: the breakpoints and the pinned version
 * it compares with. One row of the settings table per (trace, pipeline), plain JSON in an envelope with
 * its own format and version (STYLE habit 7); read back through `readDebugSession`, which drops anything
 * it does not recognise rather than restoring it.
 */
export const DEBUG_SESSION_FORMAT = 'hookwire.debug-session';
/** 2: breakpoints on matchers, on a handler's block or rewrite, on a condition alone; a condition, a hit count, enabled. */
export const DEBUG_SESSION_VERSION = 2;

export interface PinnedVersion {
  doc: Pipeline;
  name: string;
  at: number;
}

export interface DebugSession {
  breakpoints: Breakpoint[];
  pinned: PinnedVersion | null;
}

export interface StoredDebugSession extends DebugSession {
  format: typeof DEBUG_SESSION_FORMAT;
  version: number;
  trace_id: string;
  pipeline_id: string;
  updated_at: number;
}

export type ReadSession = { ok: true; session: DebugSession } | { ok: false; reason: 'missing' | 'newer' | 'invalid' };

const PREFIX = 'debugger.session:';
const DECISIONS = new Set<string>(DECISION_FILTERS.map((d) => d.value));

/** The settings key of one (trace, pipeline) pair; ids are JSON-quoted so no id can run into the other. */
export function debugSessionKey(traceId: string, pipelineId: string): string {
  return `${PREFIX}${JSON.stringify([traceId, pipelineId])}`;
}

const TRIGGERS = new Set(['fires', 'blocks', 'rewrites']);

function readHits(raw: unknown): HitCount | undefined {
  if (!isJsonObject(raw as never)) return undefined;
  const h = raw as Record<string, unknown>;
  return typeof h.count === 'number' && Number.isInteger(h.count) && h.count >= 1 && HIT_MODES.includes(h.mode as never) ? { count: h.count, mode: h.mode as HitCount['mode'] } : undefined;
}

/**
 * One stored breakpoint, or null when its trigger is not one this app knows. Its condition is kept as the
 * JSON it is (the engine checks it when it searches, and the list shows its problems).
 */
function readBreakpoint(raw: unknown): Breakpoint | null {
  if (!isJsonObject(raw as never)) return null;
  const b = raw as Record<string, unknown>;
  let spec: BreakpointSpec | null = null;
  if (b.kind === 'event_type' && typeof b.type === 'string') spec = { kind: 'event_type', type: b.type };
  if (b.kind === 'handler' && typeof b.handler_id === 'string') {
    spec = { kind: 'handler', handler_id: b.handler_id, ...(typeof b.on === 'string' && TRIGGERS.has(b.on) && b.on !== 'fires' ? { on: b.on as 'blocks' | 'rewrites' } : {}) };
  }
  if (b.kind === 'matcher' && typeof b.matcher_id === 'string') spec = { kind: 'matcher', matcher_id: b.matcher_id };
  if (b.kind === 'decision' && typeof b.decision === 'string' && DECISIONS.has(b.decision)) spec = { kind: 'decision', decision: b.decision as never };
  const when = isJsonObject(b.when as never) ? (b.when as JsonObject) : undefined;
  if (b.kind === 'condition' && when) spec = { kind: 'condition' };
  if (!spec) return null;
  const hits = readHits(b.hits);
  // A trigger's id is its own (the same one is never there twice); a condition alone keeps the id it was given.
  const id = spec.kind === 'condition' && typeof b.id === 'string' && b.id.length > 0 ? b.id : breakpointId(spec);
  return { ...spec, id, ...(b.enabled === false ? { enabled: false } : {}), ...(when ? { when } : {}), ...(hits ? { hits } : {}) } as Breakpoint;
}

function readPinned(raw: unknown): PinnedVersion | null {
  if (!isJsonObject(raw as never)) return null;
  const p = raw as Record<string, unknown>;
  if (!isJsonObject(p.doc as never) || typeof p.name !== 'string' || typeof p.at !== 'number') return null;
  return { doc: p.doc as Pipeline, name: p.name, at: p.at };
}

/**
 * A stored session as the debugger can use it. A row from a newer app is refused (and must not be
 * overwritten); unknown breakpoints and a malformed pin are dropped. The pinned document itself is checked
 * by the engine when it is compared, like any pipeline.
 */
export function readDebugSession(raw: unknown): ReadSession {
  if (raw === undefined) return { ok: false, reason: 'missing' };
  if (!isJsonObject(raw as never) || (raw as { format?: unknown }).format !== DEBUG_SESSION_FORMAT) return { ok: false, reason: 'invalid' };
  const row = raw as Record<string, unknown>;
  if (typeof row.version !== 'number' || row.version < 1) return { ok: false, reason: 'invalid' };
  if (row.version > DEBUG_SESSION_VERSION) return { ok: false, reason: 'newer' };
  const breakpoints: Breakpoint[] = [];
  for (const b of Array.isArray(row.breakpoints) ? row.breakpoints : []) {
    const read = readBreakpoint(b);
    if (read && !breakpoints.some((x) => x.id === read.id)) breakpoints.push(read);
  }
  return { ok: true, session: { breakpoints, pinned: readPinned(row.pinned) } };
}

export async function loadDebugSession(db: HookwireDb, traceId: string, pipelineId: string): Promise<ReadSession> {
  return readDebugSession((await db.settings.get(debugSessionKey(traceId, pipelineId)))?.value);
}

export async function saveDebugSession(db: HookwireDb, traceId: string, pipelineId: string, session: DebugSession): Promise<void> {
  const value: StoredDebugSession = {
    format: DEBUG_SESSION_FORMAT,
    version: DEBUG_SESSION_VERSION,
    trace_id: traceId,
    pipeline_id: pipelineId,
    breakpoints: session.breakpoints,
    pinned: session.pinned,
    updated_at: Date.now(),
  };
  await db.settings.put({ key: debugSessionKey(traceId, pipelineId), value });
}

/** Removes the sessions of traces or pipelines that are no longer stored at all; returns how many. */
export async function pruneDebugSessions(db: HookwireDb): Promise<number> {
  const rows = await db.settings.where('key').startsWith(PREFIX).toArray();
  const gone: string[] = [];
  for (const row of rows) {
    let ids: unknown;
    try {
      ids = JSON.parse(row.key.slice(PREFIX.length));
    } catch {
      ids = null;
    }
    const [traceId, pipelineId] = Array.isArray(ids) ? ids : [];
    const known = typeof traceId === 'string' && typeof pipelineId === 'string'
      && (await db.traces.get(traceId)) !== undefined && (await db.pipelines.get(pipelineId)) !== undefined;
    if (!known) gone.push(row.key);
  }
  await db.settings.bulkDelete(gone);
  return gone.length;
}
