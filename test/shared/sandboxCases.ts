/**
 * THE list of sandbox cases, run by two runners: vitest in Node (test/engine/sandbox/sharedCases.test.ts)
 * and Playwright in Chromium against the built app (e2e/sandbox.spec.ts). Both run `runCodeOn` of
 * engine/sandbox/runCode.ts and check the same expectations; the browser runner also checks that its
 * reports equal Node's, field for field (durations aside).
 *
 * Cases are plain JSON so they can cross into the page. Each names the SPEC rule it checks.
 */
import { jsonEqual, type JsonObject, type JsonValue } from '../../engine/model/json.ts';
import type { CodeRunReport, CodeSpec, CodeStage } from '../../engine/sandbox/runCode.ts';
import type { CodeErrorKind, SandboxLimits } from '../../engine/sandbox/types.ts';

export type CaseExpectation =
  | { outcome: JsonObject; logs?: string[] }
  | { pass: boolean; logs?: string[] }
  | { error: { stage: CodeStage; kind: CodeErrorKind; line?: number; column?: number; includes?: string }; logs?: string[] };

export interface SandboxCase {
  /** `[S4] …`: the rule and what the case shows. */
  name: string;
  spec: CodeSpec;
  /** Inputs, one call each (default: one call on `caseInput()`). */
  inputs?: JsonObject[];
  /** Default `CASE_LIMITS`. */
  limits?: SandboxLimits;
  /** Checked against every call's report. */
  expect: CaseExpectation;
}

/** The `ctx` most cases see: what `sandboxInput` makes of a tool.before_call event. */
export function caseInput(over: { event_id?: string; payload?: JsonObject; state?: JsonObject; now?: number } = {}): JsonObject {
  return {
    event: { type: 'tool.before_call', event_id: over.event_id ?? 'evt-1', trace_id: 'trace-1', agent_id: 'agent-1', ts: '2025-03-01T12:00:00.000Z' },
    payload: over.payload ?? { tool_name: 'run_shell', tool_input: { command: 'rm -rf /tmp/x' } },
    state: over.state ?? { calls: 2 },
    meta: { user_id: 'u-7' },
    now: over.now ?? Date.UTC(2025, 2, 1, 12, 0, 0),
  };
}

const MB = 1024 * 1024;
/**
 * Limits of the cases that are not about limits. Time limits are wall-clock: on a busy shared machine a
 * 50 ms limit can strike code that normally takes 1 ms, so only the limit cases use the 50 ms default.
 */
export const CASE_LIMITS: SandboxLimits = { timeoutMs: 5000, memoryBytes: 32 * MB };
/** The fuel decides [S13]; the wall-clock net is far away, so the outcome is the same on any machine under any load. */
const FAST: SandboxLimits = { timeoutMs: 60_000, memoryBytes: 32 * MB, fuel: 200 };
/** Fuel so high that the wall-clock net of 20 ms fires first: what a stalled machine meets [S13]. */
const NET: SandboxLimits = { timeoutMs: 20, memoryBytes: 32 * MB, fuel: 10_000_000 };
const h = (source: string, language: 'js' | 'ts' = 'ts'): CodeSpec => ({ source, language, role: 'handler', name: 'case' });
const m = (source: string, language: 'js' | 'ts' = 'ts'): CodeSpec => ({ source, language, role: 'matcher', name: 'case' });
const err = (stage: CodeStage, kind: CodeErrorKind, more: { line?: number; column?: number; includes?: string } = {}) => ({ error: { stage, kind, ...more } });

export const SANDBOX_CASES: SandboxCase[] = [
  // ---- S4: handler results
  { name: '[S4] returning nothing continues', spec: h('export default function (ctx: HandlerContext) {}'), expect: { outcome: { decision: 'continue' } } },
  { name: '[S4] returning null continues', spec: h('export default () => null', 'js'), expect: { outcome: { decision: 'continue' } } },
  { name: '[S4] block(reason) blocks the action', spec: h('export default (ctx: HandlerContext) => block(`no ${ctx.payload.tool_name}`)'), expect: { outcome: { decision: 'block_action', reason: 'no run_shell' } } },
  { name: '[S4] terminate(reason) ends the run', spec: h('export default () => terminate("budget spent")'), expect: { outcome: { decision: 'terminate', reason: 'budget spent' } } },
  { name: '[S4] stop() without a reason', spec: h('export default () => stop()'), expect: { outcome: { decision: 'stop_propagation' } } },
  {
    name: '[S4] rewrite(payload) continues with a new payload',
    spec: h('export default (ctx: HandlerContext) => rewrite({ ...ctx.payload, tool_input: { command: "ls" } })'),
    expect: { outcome: { decision: 'continue', new_payload: { tool_name: 'run_shell', tool_input: { command: 'ls' } } } },
  },
  {
    name: '[S4] a full result: decision, reason, new_payload, state_patch',
    spec: h('export default (ctx: HandlerContext): HandlerResult => ({ decision: "block_action", reason: "r", new_payload: { a: 1 }, state_patch: { calls: ctx.state.calls + 1, gone: null } })'),
    expect: { outcome: { decision: 'block_action', reason: 'r', new_payload: { a: 1 }, state_patch: { calls: 3, gone: null } } },
  },
  { name: '[S4] state is another name for state_patch', spec: h('export default () => ({ state: { seen: true } })'), expect: { outcome: { decision: 'continue', state_patch: { seen: true } } } },
  { name: '[S4] null fields count as absent', spec: h('export default () => ({ decision: "continue", reason: null, new_payload: null })', 'js'), expect: { outcome: { decision: 'continue' } } },
  {
    name: '[S4] __proto__ in a new payload is a plain key',
    spec: h('export default () => rewrite(JSON.parse(\'{"__proto__": {"x": 1}, "a": 2}\'))'),
    expect: { outcome: { decision: 'continue', new_payload: JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as JsonObject } },
  },
  { name: '[S4] a string is not a result', spec: h('export default () => "block"', 'js'), expect: err('result', 'invalid_result', { includes: 'it returned a string ("block")' }) },
  { name: '[S4] an unknown decision is refused, with a hint', spec: h('export default () => ({ decision: "BLOCK_ACTION" })', 'js'), expect: err('result', 'invalid_result', { includes: 'decisions are lower case: "block_action"' }) },
  { name: '[S4] an unknown key is refused, with a hint', spec: h('export default () => ({ decision: "continue", reasn: "x" })', 'js'), expect: err('result', 'invalid_result', { includes: 'unknown key "reasn" (did you mean "reason"?)' }) },
  { name: '[S4] new_payload must be an object', spec: h('export default () => ({ new_payload: [1, 2] })', 'js'), expect: err('result', 'invalid_result', { includes: 'new_payload must be a JSON object; it is an array' }) },
  { name: '[S4] reason must be a string', spec: h('export default () => ({ decision: "block_action", reason: 42 })', 'js'), expect: err('result', 'invalid_result', { includes: 'reason must be a string' }) },
  { name: '[S4] state and state_patch together are refused', spec: h('export default () => ({ state: {}, state_patch: {} })', 'js'), expect: err('result', 'invalid_result', { includes: 'both state and state_patch' }) },
  { name: '[S4] a function inside the payload is not JSON', spec: h('export default () => rewrite({ a: { f: () => 1 } } as any)'), expect: err('call', 'invalid_result', { includes: 'result.new_payload.a.f is a function, not JSON' }) },
  { name: '[S4] NaN is not JSON', spec: h('export default () => ({ state_patch: { n: 0 / 0 } })', 'js'), expect: err('call', 'invalid_result', { includes: 'result.state_patch.n is NaN' }) },
  { name: '[S4] undefined inside an array is not JSON', spec: h('export default () => rewrite({ list: [1, undefined] })', 'js'), expect: err('call', 'invalid_result', { includes: 'result.new_payload.list[1] is undefined' }) },
  { name: '[S4] a Date is not a plain object', spec: h('export default () => rewrite({ when: new Date(0) })', 'js'), expect: err('call', 'invalid_result', { includes: 'result.new_payload.when is a Date' }) },
  { name: '[S4] a payload that contains itself is refused', spec: h('export default () => { const p: any = {}; p.self = p; return rewrite(p); }'), expect: err('call', 'invalid_result', { includes: 'does it contain itself?' }) },
  { name: '[S4] a Promise is refused: code is synchronous', spec: h('export default async () => block("late")'), expect: err('call', 'invalid_result', { includes: 'result is a Promise' }) },
  { name: '[S4] a payload over 1,000,000 characters is too large', spec: h('export default () => rewrite({ big: "x".repeat(1_200_000) })'), expect: err('result', 'too_large', { includes: 'new_payload is 1200010 characters of JSON; the limit is 1000000' }) },
  { name: '[S4] a result over 2,000,000 characters is too large', spec: h('export default () => ({ state: { big: "x".repeat(2_500_000) } })'), expect: err('call', 'too_large', { includes: 'the result is 2500020 characters of JSON' }) },

  // ---- S5: matchers
  { name: '[S5] a matcher that returns true passes', spec: m('export default (ctx: HandlerContext) => ctx.payload.tool_name === "run_shell"'), expect: { pass: true } },
  { name: '[S5] a matcher that returns false fails', spec: m('export default (ctx: HandlerContext) => ctx.state.calls > 10'), expect: { pass: false } },
  { name: '[S5] a matcher must return a boolean, not 1', spec: m('export default () => 1', 'js'), expect: err('result', 'invalid_result', { includes: 'a matcher must return true or false; it returned 1' }) },
  { name: '[S5] a matcher that returns nothing is invalid', spec: m('export default () => {}', 'js'), expect: err('result', 'invalid_result', { includes: 'it returned nothing' }) },

  // ---- S1: compiling
  { name: '[S1] TypeScript types, interfaces, enums and generics are stripped', spec: h('interface Rule { tool: string }\nenum Level { Low, High }\nconst rules: Rule[] = [{ tool: "run_shell" }];\nfunction first<T>(xs: T[]): T | undefined { return xs[0]; }\nexport default (ctx: HandlerContext): HandlerResult | void => {\n  if (first(rules)?.tool === ctx.payload.tool_name) return block(`level ${Level.High}`);\n};'), expect: { outcome: { decision: 'block_action', reason: 'level 1' } } },
  { name: '[S1] a TypeScript syntax error has the line and column', spec: h('export default function (ctx: HandlerContext) {\n  const x: number = ;\n}'), expect: err('compile', 'syntax', { line: 2, column: 21 }) },
  // QuickJS reports a redefinition at the token after the name: the "=" (column 18 here).
  { name: '[S1] a syntax error QuickJS finds maps to the user line and column', spec: h('const a = 1;\nlet b = 2; let b = 3;\nexport default () => a;', 'js'), expect: err('compile', 'syntax', { line: 2, column: 18, includes: 'redefinition' }) },
  // The types before it are stripped in the generated code; the source map puts the "=" back at column 49.
  { name: '[S1] a syntax error after stripped types keeps its column', spec: h('const n: number = 1; let m: string = "x"; let m = 2;\nexport default () => n;'), expect: err('compile', 'syntax', { line: 1, column: 49 }) },
  { name: '[S1] code without a default export does not compile', spec: h('export const handler = () => block("x");'), expect: err('compile', 'invalid_result', { includes: 'no default export function (it is undefined)' }) },
  { name: '[S1] imports are not available', spec: h('import fs from "fs";\nexport default () => fs;'), expect: err('compile', 'thrown', { line: 1, includes: 'imports are not available in Hookwire code (import "fs")' }) },
  { name: '[S1] a top level that throws does not compile', spec: h('const table = {};\nthrow new Error("bad table");\nexport default () => table;'), expect: err('compile', 'thrown', { line: 2, column: 16, includes: 'Error: bad table' }) }, // QuickJS: the "(" of the call

  // ---- S8: errors
  { name: '[S8] a throw reports its message and the user line', spec: h('export default function (ctx: HandlerContext) {\n  const n: number = 1;\n  if (n) {\n    throw new Error("boom " + ctx.payload.tool_name);\n  }\n}'), expect: err('call', 'thrown', { line: 4, column: 20, includes: 'Error: boom run_shell' }) },
  { name: '[S8] a TypeError from a missing field', spec: h('export default (ctx) => {\n  return ctx.payload.missing.deeper;\n};', 'js'), expect: err('call', 'thrown', { line: 2, includes: 'TypeError' }) },
  { name: '[S8] throwing a value that is not an Error', spec: h('export default () => { throw "nope"; }', 'js'), expect: err('call', 'thrown', { includes: 'threw a value that is not an Error: nope' }) },
  { name: '[S8] log lines written before a throw are kept', spec: h('export default () => { log("step", 1); throw new Error("x"); }', 'js'), expect: { ...err('call', 'thrown'), logs: ['step 1'] } },

  // ---- S7: limits
  // (QuickJS knows the interrupted function, not always the loop's line, so no line is asserted.)
  { name: '[S13] an infinite loop runs out of fuel', spec: h('export default () => {\n  let i = 0;\n  while (true) { i++; }\n};', 'js'), limits: FAST, expect: err('call', 'fuel', { includes: 'ran out of fuel (200 units' }) },
  { name: '[S13] an infinite loop with fuel to spare meets the wall-clock net', spec: h('export default () => {\n  for (;;) {}\n};', 'js'), limits: NET, expect: err('call', 'timeout', { includes: 'wall-clock safety net of 20 ms' }) },
  { name: '[S13] a catastrophic regular expression runs out of fuel', spec: m('export default () => /(a+)+$/.test("a".repeat(40) + "!")', 'js'), limits: FAST, expect: err('call', 'fuel') },
  {
    name: '[S7] a loop around a slow built-in runs out of fuel, even when it catches',
    spec: h('const s = "ab".repeat(1 << 16);\nexport default () => {\n  for (;;) { try { s.split("").join(""); } catch { /* swallowed */ } }\n};', 'js'),
    limits: FAST,
    expect: err('call', 'fuel'),
  },
  { name: '[S7] a memory bomb runs out of memory', spec: h('export default () => {\n  const keep = [];\n  while (true) keep.push(new Uint8Array(1 << 20));\n};', 'js'), limits: { timeoutMs: 5000, memoryBytes: 8 * MB }, expect: err('call', 'memory', { line: 3, includes: 'out of memory (limit 8 MB)' }) },
  { name: '[S7] deep recursion overflows the stack, not the host', spec: h('function down(n: number): number { return down(n + 1) + 1; }\nexport default () => down(0);'), expect: err('call', 'stack', { line: 1, includes: 'too much recursion' }) },
  { name: '[S13] a loop in the top level runs out of fuel too', spec: h('while (true) {}\nexport default () => 1;', 'js'), limits: FAST, expect: err('compile', 'fuel', { includes: 'starts at line 1' }) },

  // ---- S2, S3: what code sees
  {
    name: '[S2] ctx has event, payload, state, meta and now',
    spec: h('export default (ctx: HandlerContext) => ({ state: { keys: Object.keys(ctx), event: ctx.event, meta: ctx.meta, now: ctx.now } })'),
    expect: { outcome: { decision: 'continue', state_patch: { keys: ['event', 'payload', 'state', 'meta', 'now'], event: { type: 'tool.before_call', event_id: 'evt-1', trace_id: 'trace-1', agent_id: 'agent-1', ts: '2025-03-01T12:00:00.000Z' }, meta: { user_id: 'u-7' }, now: Date.UTC(2025, 2, 1, 12, 0, 0) } } },
  },
  { name: '[S2] ctx is a copy: changing it and returning it is a rewrite', spec: h('export default (ctx: HandlerContext) => { ctx.payload.tool_name = "ls"; return rewrite(ctx.payload); }'), expect: { outcome: { decision: 'continue', new_payload: { tool_name: 'ls', tool_input: { command: 'rm -rf /tmp/x' } } } } },
  {
    name: '[S3] no fetch, require, process, timers, DOM, console or host object inside',
    spec: h('const names = ["fetch", "process", "setTimeout", "setInterval", "queueMicrotask", "document", "window", "self", "navigator", "XMLHttpRequest", "WebSocket", "importScripts", "console", "WeakRef", "FinalizationRegistry", "Deno", "Bun"];\nexport default () => ({ state: { present: names.filter((n) => typeof (globalThis as any)[n] !== "undefined") } })'),
    expect: { outcome: { decision: 'continue', state_patch: { present: [] } } },
  },
  { name: '[S3] require only explains that imports are not available', spec: h('export default () => { require("fs"); }', 'js'), expect: err('call', 'thrown', { includes: 'imports are not available in Hookwire code (import "fs")' }) },
  {
    name: '[S11] log shows strings as they are and other values as JSON',
    spec: h('export default () => { log("a", 1, { b: [true, null] }, undefined, new Error("e")); log(); }', 'js'),
    expect: { outcome: { decision: 'continue' }, logs: ['a 1 {"b":[true,null]} undefined Error: e', ''] },
  },
  {
    name: '[S11] log keeps 100 lines of 1000 characters and counts the rest',
    spec: h('export default () => { log("y".repeat(1500)); for (let i = 1; i < 130; i++) log(i); }', 'js'),
    expect: { outcome: { decision: 'continue' }, logs: ['y'.repeat(1000) + '…', ...Array.from({ length: 99 }, (_, i) => String(i + 1)), '… 30 more log lines dropped (at most 100 per call)'] },
  },

  // ---- S6: determinism
  {
    name: '[S6] Date.now() and new Date() read the injected clock',
    spec: h('export default (ctx: HandlerContext) => ({ state: { now: Date.now(), same: Date.now() === ctx.now, iso: new Date().toISOString(), text: String(new Date()), called: Date() } })'),
    expect: { outcome: { decision: 'continue', state_patch: { now: Date.UTC(2025, 2, 1, 12), same: true, iso: '2025-03-01T12:00:00.000Z', text: '2025-03-01T12:00:00.000Z', called: '2025-03-01T12:00:00.000Z' } } },
  },
  {
    name: '[S6] local time is UTC in every environment',
    spec: h('const d = new Date(2025, 0, 2, 3, 4);\nexport default () => ({ state: { t: d.getTime(), hours: d.getHours(), offset: d.getTimezoneOffset(), parsed: Date.parse("2025-01-02T03:04"), text: d.toString() } })'),
    expect: { outcome: { decision: 'continue', state_patch: { t: Date.UTC(2025, 0, 2, 3, 4), hours: 3, offset: 0, parsed: Date.UTC(2025, 0, 2, 3, 4), text: '2025-01-02T03:04:00.000Z' } } },
  },
  {
    name: '[S6] Math.random is seeded from the event id: the same event gives the same numbers',
    spec: h('export default () => ({ state: { r: [Math.random(), Math.random(), Math.random()] } })'),
    inputs: [caseInput(), caseInput({ now: 1, payload: {} })],
    expect: { outcome: { decision: 'continue', state_patch: { r: referenceRandom('evt-1', 3) } } },
  },
  {
    name: '[S6] top-level variables start afresh on every call',
    spec: h('let calls = 0;\nexport default () => ({ state: { calls: ++calls } })'),
    inputs: [caseInput(), caseInput(), caseInput()],
    expect: { outcome: { decision: 'continue', state_patch: { calls: 1 } } },
  },
  { name: '[S6] built-ins are frozen: a prototype cannot be changed', spec: h('export default () => { (Array.prototype as any).evil = 1; }'), expect: err('call', 'thrown', { includes: 'TypeError' }) },
  { name: '[S6] the global scope is frozen: no variable leaks to the next call', spec: h('export default () => { (globalThis as any).leak = 1; }'), expect: err('call', 'thrown', { includes: 'TypeError' }) },
  {
    name: '[S6] a custom Error subclass may still set its name',
    spec: h('class Nope extends Error { constructor(m: string) { super(m); this.name = "Nope"; } }\nexport default () => { throw new Nope("custom"); };'),
    expect: err('call', 'thrown', { line: 1, includes: 'Nope: custom' }), // the stack starts where the Error was made: super(m)
  },
];

/**
 * An independent implementation of what [S6] documents: mulberry32 seeded with the 32-bit FNV-1a hash of the
 * event id. The sandbox must produce exactly these numbers.
 */
export function referenceRandom(eventId: string, count: number): number[] {
  let h = 0x811c9dc5;
  for (const ch of eventId) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  let a = h | 0;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out.push(((t ^ (t >>> 14)) >>> 0) / 4294967296);
  }
  return out;
}

/**
 * A report without what may differ between runs and machines: the duration, and where a timeout struck
 * (QuickJS stops code at its next interrupt poll or slow built-in, whichever comes first) [S7].
 */
export function stableReport(r: CodeRunReport): JsonObject {
  const { duration_ms: _ignored, ...rest } = r;
  if (!rest.ok && rest.error.kind === 'timeout') {
    // Where an interrupt lands depends on timing, so its line (also named in the message) is not compared.
    const { line: _l, column: _c, ...error } = rest.error;
    const message = error.message.replace(/ while running the function that starts at line \d+$/, '');
    return JSON.parse(JSON.stringify({ ...rest, error: { ...error, message } })) as JsonObject;
  }
  return JSON.parse(JSON.stringify(rest)) as JsonObject;
}

/** What is wrong with `reports` for case `c`: an empty list when everything matches. */
export function checkCase(c: SandboxCase, reports: CodeRunReport[]): string[] {
  const wantCalls = c.expect && 'error' in c.expect && c.expect.error.stage === 'compile' ? 1 : (c.inputs?.length ?? 1);
  const problems: string[] = [];
  if (reports.length !== wantCalls) problems.push(`expected ${wantCalls} report(s), got ${reports.length}`);
  reports.forEach((r, i) => problems.push(...checkReport(c.expect, r).map((p) => `call ${i + 1}: ${p}`)));
  return problems;
}

function checkReport(e: CaseExpectation, r: CodeRunReport): string[] {
  const got = JSON.stringify(stableReport(r));
  const out: string[] = [];
  if ('error' in e) {
    if (r.ok) return [`expected a ${e.error.kind} error at ${e.error.stage}, got ${got}`];
    const w = e.error;
    if (r.stage !== w.stage || r.error.kind !== w.kind) out.push(`expected ${w.kind} at ${w.stage}, got ${r.error.kind} at ${r.stage}: ${got}`);
    if (w.line !== undefined && r.error.line !== w.line) out.push(`expected line ${w.line}, got ${r.error.line}: ${got}`);
    if (w.column !== undefined && r.error.column !== w.column) out.push(`expected column ${w.column}, got ${r.error.column}: ${got}`);
    if (w.includes !== undefined && !r.error.message.includes(w.includes)) out.push(`expected the message to include ${JSON.stringify(w.includes)}: ${got}`);
  } else if ('pass' in e) {
    if (!r.ok || r.role !== 'matcher' || r.pass !== e.pass) out.push(`expected pass=${e.pass}, got ${got}`);
  } else if (!r.ok || r.role !== 'handler' || !jsonEqual(r.outcome as unknown as JsonValue, e.outcome)) {
    out.push(`expected outcome ${JSON.stringify(e.outcome)}, got ${got}`);
  }
  const logs = e.logs ?? [];
  if (!jsonEqual(r.logs, logs)) out.push(`expected logs ${JSON.stringify(logs)}, got ${JSON.stringify(r.logs)}`);
  return out;
}
