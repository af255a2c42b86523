import { demoTrace, DEMO_TRACE_NAME } from '../demo/demoTrace.ts';
import type { HookwireDb } from './db.ts';
import { getSetting, setSetting } from './library.ts';
import { listTraces, purgeTraces, sampleTraceEvents, storeTrace } from './traceLibrary.ts';
import type { StoredTrace } from './storedTrace.ts';
import { registerTraceSampler } from './traceSamples.ts';

/** Settings keys of the trace library. */
export const TRACE_SETTINGS = {
  demoSeeded: 'debugger.demoTraceSeeded',
  lastTrace: 'debugger.lastTrace',
} as const;

/**
 * The trace to use when none is open: the last one the debugger showed, else the newest ready one, else none.
 * The debugger opens it when it shows; anything else that needs "the current trace" asks here too.
 */
export async function traceToOpen(db: HookwireDb): Promise<StoredTrace | null> {
  const last = await getSetting<string>(db, TRACE_SETTINGS.lastTrace);
  const list = await listTraces(db);
  return list.find((t) => t.id === last && t.status === 'ready') ?? list.find((t) => t.status === 'ready') ?? null;
}

/**
 * Starts the trace library with the app: removes traces deleted in an earlier session (and imports a crash
 * left half written), stores the demo trace on first run (beside the editor's demo pipeline), and lets
 * path completion sample stored events. `started` settles with the id of the demo trace when it was
 * stored now; `stop` unregisters the sampler.
 */
export function startTraceLibrary(db: HookwireDb): { started: Promise<string | null>; stop: () => void } {
  const stop = registerTraceSampler((limit) => sampleTraceEvents(db, limit));
  return { started: start(db), stop };
}

async function start(db: HookwireDb): Promise<string | null> {
  await purgeTraces(db, Date.now());
  if (await getSetting<boolean>(db, TRACE_SETTINGS.demoSeeded)) return null;
  // A library that already has traces (from an older build) is left as it is.
  if ((await listTraces(db)).length > 0) {
    await setSetting(db, TRACE_SETTINGS.demoSeeded, true);
    return null;
  }
  const record = await storeTrace(db, demoTrace(), { name: DEMO_TRACE_NAME, source_format: 'hookwire-trace', demo: true });
  await setSetting(db, TRACE_SETTINGS.demoSeeded, true);
  await setSetting(db, TRACE_SETTINGS.lastTrace, record.id);
  return record.id;
}
