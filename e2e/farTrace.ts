import type { Trace } from '../engine/trace/traceTypes.ts';
import { demoTrace } from '../web/demo/demoTrace.ts';

// The large trace the debugger's search specs import (debugger-search.spec.ts, debugger-search-keys.spec.ts).

export const FAR_EVENTS = 100_000;

/**
 * The demo's events without the two that "Dangerous tools" lets through, repeated, then the whole demo at the end:
 * the matcher's first stop is near the end, so C from the first step searches almost the whole trace.
 */
export function farTrace(): Trace {
  const demo = demoTrace();
  const safe = demo.events.filter((e) => !(e.type === 'tool.before_call' && (e.payload as { tool_name?: string }).tool_name === 'Bash'));
  const tail = FAR_EVENTS - demo.events.length;
  const events = Array.from({ length: FAR_EVENTS }, (_, i) => ({ ...(i >= tail ? demo.events[i - tail]! : safe[i % safe.length]!), event_id: `far-${i}` }));
  return { header: { ...demo.header, trace_id: 'far', title: 'Far: 100,000 events' }, events };
}


/**
 * The demo's events without the model calls (the token budget blocks them once spent) and the Bash call the
 * pipeline blocks, repeated, then the whole demo at the end: nothing blocks or differs from the recording until
 * the last few steps, so B or D from the first step searches almost the whole trace.
 */
export function calmTrace(): Trace {
  const demo = demoTrace();
  const calm = demo.events.filter((e) => !e.type.startsWith('model.') && !(e.type === 'tool.before_call' && (e.payload as { tool_name?: string }).tool_name === 'Bash'));
  const tail = FAR_EVENTS - demo.events.length;
  const events = Array.from({ length: FAR_EVENTS }, (_, i) => ({ ...(i >= tail ? demo.events[i - tail]! : calm[i % calm.length]!), event_id: `calm-${i}` }));
  return { header: { ...demo.header, trace_id: 'calm', title: 'Calm: 100,000 events' }, events };
}

/** `calmTrace` with the whole demo at its start too: B or D from the first step finds step 12 (a near match), then from there the end. */
export function nearTrace(): Trace {
  const demo = demoTrace();
  const calm = calmTrace();
  const events = calm.events.map((e, i) => (i < demo.events.length ? { ...demo.events[i]!, event_id: `near-${i}` } : e));
  return { header: { ...calm.header, trace_id: 'near', title: 'Near: 100,000 events' }, events };
}
