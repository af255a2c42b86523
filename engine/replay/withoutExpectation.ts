// Kept apart from expectation.ts, which reads labels with the schema library: every replay step drops a label
// [R19], and a hook call's static module graph must not load zod (test/engine/node/pipelineCache.test.ts).
import { ownGet, type JsonObject } from '../model/json.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';

/**
 * The event as handlers and matchers see it [R19]: without its `meta.expect` (and without `meta` when nothing else
 * is in it), so that a label or a golden test's expectation never changes a decision. The same object when it
 * has none. The one implementation: replay's step function dispatches this, so `hookwire test`, `backtest`,
 * `diff`, `replay` and the debugger agree.
 * `withoutExpectation({...e, meta: {expect: {decision: 'continue'}, user: 'u'}}).meta` → `{user: 'u'}`
 */
export function withoutExpectation(event: TraceEvent): TraceEvent {
  return event.meta && ownGet(event.meta, 'expect') !== undefined ? withoutExpect(event) : event;
}

/** The event with no `meta.expect`, and with no `meta` when nothing else was in it; other entries copied as data. */
export function withoutExpect(event: TraceEvent): TraceEvent {
  // Own entries only, copied as data: a payload's `__proto__` key stays a plain name.
  const rest = Object.entries(event.meta ?? {}).filter(([k]) => k !== 'expect');
  const { meta: _old, ...bare } = event;
  return rest.length ? { ...bare, meta: Object.fromEntries(rest) as JsonObject } : bare;
}
