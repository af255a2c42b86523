// Shared checks of the session-file importers' tests (#29): load a fixture, the recording order, stable ids.
import { expect } from 'vitest';
import { importTrace, type ImportTraceOutcome } from '../../../engine/trace/importTrace.ts';
import type { TraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { Trace, TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';

/** Imports a fixture of test/fixtures/formats/ and checks it was read as `format`. */
export function loadFixture(name: string, format: TraceFormat, options: { format?: TraceFormat } = {}): ImportTraceOutcome & { trace: Trace } {
  const r = importTrace(readFormat(name), { fileName: name, ...options });
  expect(r.format).toBe(format);
  expect(r.trace).not.toBeNull();
  return r as ImportTraceOutcome & { trace: Trace };
}

export const ofType = (t: Trace, type: string): TraceEvent[] => t.events.filter((e) => e.type === type);

/** Start first, end last, times never go back, each tool call's before before its after; ids unique and stable. */
export function expectWellFormed(text: string, name: string): void {
  const a = importTrace(text, { fileName: name }).trace as Trace;
  const b = importTrace(text, { fileName: name }).trace as Trace;
  expect(a.events[0]?.type).toBe('agent.start');
  expect(a.events.at(-1)?.type).toBe('agent.end');
  const ts = a.events.map((e) => e.ts);
  expect([...ts].sort()).toEqual(ts);
  const at = new Map<string, number>();
  a.events.forEach((e, i) => {
    if (e.type === 'tool.before_call') at.set(String(e.payload.tool_use_id), i);
    if (e.type === 'tool.after_call') expect(at.get(String(e.payload.tool_use_id))).toBeLessThan(i);
  });
  expect(new Set(a.events.map((e) => e.event_id)).size).toBe(a.events.length);
  expect(b.events.map((e) => e.event_id)).toEqual(a.events.map((e) => e.event_id));
}

/** Reading `text` forced as `format` is refused, and the message names what the file really is. */
export function expectWrongAgentNamed(text: string, format: TraceFormat, looksLike: RegExp): void {
  const r = importTrace(text, { fileName: 'x', format });
  expect(r.trace).toBeNull();
  expect(r.problems[0]?.code).toBe('format_mismatch');
  expect(r.problems[0]?.message).toMatch(looksLike);
}
