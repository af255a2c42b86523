// An OTLP export request written as one pretty value (`{"resourceSpans": [{"resource", "scopeSpans": [{"scope",
// "spans": [...]}]}]}` over many lines) holds a whole run three levels down: read whole, a 200 MB request was
// its text, its parsed tree and its spans at once. Here it is cut as it streams, one KeyedArraySplitter a level
// (request → resourceSpans[] → scopeSpans[] → spans[]), and only a span's text is held [I1].
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json.ts';
import type { RecordStore } from '../model/idIndex.ts';
import { jsonErrorDetail } from './formatIssues.ts';
import { heldValues, type HeldValues } from './importers/heldValues.ts';
import { describeEntry, fromOtlpSpan, otlpAttributes, spansOfValue } from './importers/otlpSpans.ts';
import { quoteOtelIdMember, quoteOtelIds, tooDeepOtlpPart } from './importers/parseSource.ts';
import type { ValueStream } from './jsonValueSplitter.ts';
import { KeyedArraySplitter, type KeyedArraySink } from './keyedArraySplitter.ts';
import { traceProblem, type TraceProblem } from './traceProblem.ts';

/** Where a streamed request's spans, its entries that hold no span and its problems go. */
export interface OtlpRequestSink {
  /** A span in the SDK's shape, in the order the whole request gives them. */
  span(span: JsonObject): void;
  /** The request is read: what it was (`spansOfValue`'s answer) and its entries that held no span, in order [I11]. */
  done(kind: 'otlp' | 'sdk' | null, bad: string[]): void;
  problem(p: TraceProblem): void;
}

const SCOPE_LISTS = new Set(['scopeSpans', 'instrumentationLibrarySpans']);
/** The entries that hold no span listed for one request (the import lists 1,000 problems at most). */
const MAX_BAD = 1000;

/**
 * One top-level JSON object of a span stream, read as it streams: an OTLP request's spans are handed over as
 * `spansOfValue` gives them from the whole value [I5] — each with its resource's attributes and its scope, in the
 * order of the request, with the same entries listed as holding no span [I11]. A span waits only when the request
 * gives what it needs after it (a `resource` after its `scopeSpans`, a `scope` after its `spans`, an
 * `instrumentationLibrarySpans` list before it is known whether `scopeSpans` is a list): it is kept in `spool`
 * (memory when none) until the object around it ends. Any other object (a span, `{"spans": [...]}`) is read
 * from its members at its end, as whole. Unlike a whole read, a span that is not JSON or too deep costs only
 * itself, and a key given twice keeps its first value (listed as a problem).
 *
 * @example const s = otlpRequestStream(1, 1e6, undefined, sink); s.push('{"resourceSpans": ['); s.push(']}'); s.end();
 */
export function otlpRequestStream(line: number, maxChars: number, spool: RecordStore | undefined, sink: OtlpRequestSink): ValueStream {
  const bad: string[] = [];
  const listBad = (why: string) => void (bad.length < MAX_BAD && bad.push(why));
  const members = new Map<string, string>();
  let streamed = false;
  let entries = 0;
  const problems = splitterProblems(maxChars, sink.problem);
  const top = new KeyedArraySplitter(new Set(['resourceSpans']), maxChars, {
    ...problems,
    member: (key, text) => void members.set(key, text),
    array: () => void (streamed = true),
    element(_key, text, at) {
      const v = parsePart(text, at, 2, 'an entry of resourceSpans', sink.problem);
      if (v !== undefined) listBad(`resourceSpans[${entries}] is ${describeEntry(v)}, not an object`);
      entries++;
    },
    open: (_key, at) => resourceSpansStream(entries++, at, maxChars, spool, { span: sink.span, bad: listBad, problem: sink.problem }),
  }, null, line);
  return {
    push: (text) => top.push(text),
    end() {
      top.end();
      if (streamed) return sink.done('otlp', bad);
      // Not a request whose resourceSpans is a list: read from its members, as the whole value is.
      const shell: JsonObject = {};
      for (const [key, text] of members) {
        const v = parsePart(text, line, 1, `the member ${JSON.stringify(key.slice(0, 100))}`, sink.problem, key);
        if (v !== undefined) shell[key] = v as JsonValue;
      }
      const found: JsonObject[] = [];
      const kind = spansOfValue(shell, found, bad);
      for (const span of found) sink.span(span);
      sink.done(kind, bad);
    },
  };
}

interface EntrySink {
  span(span: JsonObject): void;
  bad(why: string): void;
  problem(p: TraceProblem): void;
}

/** A deferred entry: a span (as OTLP) or an entry that holds no span, with the scope list and scope it is in. */
type Deferred = [list: string, scope: number, span: JsonValue, message: string | null];

/**
 * One `resourceSpans[i]` object as it streams. Its spans go out at once while its `resource` is known and its
 * list of scopes is the one read (`scopeSpans`, or `instrumentationLibrarySpans` when `scopeSpans` is no list);
 * else they wait, in order, for the object's end.
 */
function resourceSpansStream(i: number, line: number, maxChars: number, spool: RecordStore | undefined, out: EntrySink): ValueStream {
  let resource: JsonObject | undefined;
  let scopeSpans: 'unknown' | 'list' | 'other' = 'unknown';
  let ilsList = false;
  const counts = new Map<string, number>();
  const scopes = new Map<string, JsonValue[]>();
  let waiting: HeldValues | null = null;
  const ready = (list: string) => resource !== undefined && (list === 'scopeSpans' || scopeSpans === 'other');
  const splitter = new KeyedArraySplitter(SCOPE_LISTS, maxChars, {
    ...splitterProblems(maxChars, out.problem),
    member(key, text, at) {
      if (key === 'scopeSpans') scopeSpans = 'other';
      if (key !== 'resource') return;
      const v = parsePart(text, at, 3, 'the resource', out.problem);
      resource = otlpAttributes(isJsonObject(v) ? v.attributes : undefined);
    },
    array(key) {
      if (key === 'scopeSpans') scopeSpans = 'list';
      else ilsList = true;
    },
    element(key, text, at) {
      const j = next(counts, key);
      const v = parsePart(text, at, 4, 'an entry of scopeSpans', out.problem);
      if (v === undefined) return;
      const message = `resourceSpans[${i}].scopeSpans[${j}] is ${describeEntry(v)}, not an object`;
      if (waiting === null && ready(key)) out.bad(message);
      else (waiting ??= heldValues(spool)).push([key, j, null, message] satisfies Deferred);
    },
    open(key, at) {
      const j = next(counts, key);
      const now = waiting === null && ready(key);
      const entry: EntrySink = now
        ? { ...out, span: (span) => out.span(fromOtlpSpan(span, resource!, (scopes.get(key) ?? [])[j] ?? null)) }
        : { ...out, span: (span) => void (waiting ??= heldValues(spool)).push([key, j, span, null] satisfies Deferred), bad: (why) => void (waiting ??= heldValues(spool)).push([key, j, null, why] satisfies Deferred) };
      return scopeSpansStream(i, j, at, maxChars, spool, entry, (scope) => {
        const list = scopes.get(key) ?? [];
        list[j] = scope;
        scopes.set(key, list);
      });
    },
  }, null, line);
  return {
    push: (text) => splitter.push(text),
    end() {
      splitter.end();
      if (waiting === null) return;
      const list = scopeSpans === 'list' ? 'scopeSpans' : ilsList ? 'instrumentationLibrarySpans' : null;
      const attrs = resource ?? {};
      for (let n = 0; n < waiting.length; n++) {
        const [key, j, span, message] = waiting.get(n) as Deferred;
        if (key !== list) continue;
        if (message !== null) out.bad(message);
        else out.span(fromOtlpSpan(span as JsonObject, attrs, (scopes.get(key) ?? [])[j] ?? null));
      }
    },
  };
}

/**
 * One `scopeSpans[j]` object as it streams. Its spans go out at once (OTLP shape; the caller adds resource and
 * scope) when its `scope` is known, else wait for its end; `scoped` gets its scope (`scope ?? instrumentationLibrary
 * ?? null`, as read whole) when it ends.
 */
function scopeSpansStream(i: number, j: number, line: number, maxChars: number, spool: RecordStore | undefined, out: EntrySink, scoped: (scope: JsonValue) => void): ValueStream {
  let scope: JsonValue | undefined;
  let library: JsonValue | undefined;
  let k = 0;
  let waiting: HeldValues | null = null;
  const splitter = new KeyedArraySplitter(new Set(['spans']), maxChars, {
    ...splitterProblems(maxChars, out.problem),
    member(key, text, at) {
      if (key !== 'scope' && key !== 'instrumentationLibrary') return;
      const v = parsePart(text, at, 5, `the ${key}`, out.problem);
      if (v === undefined) return;
      if (key === 'scope') scope = v as JsonValue;
      else library = v as JsonValue;
    },
    array() {},
    element(_key, text, at) {
      const v = parsePart(quoteOtelIds(text), at, 6, 'a span', out.problem);
      if (v === undefined) return void k++;
      const item: [JsonValue, string | null] = isJsonObject(v) ? [v, null] : [null, `resourceSpans[${i}].scopeSpans[${j}].spans[${k}] is ${describeEntry(v)}, not a span object`];
      k++;
      if (waiting === null && scope !== undefined && scope !== null) {
        scoped(scope);
        give(out, item);
      } else (waiting ??= heldValues(spool)).push(item);
    },
  }, null, line);
  return {
    push: (text) => splitter.push(text),
    end() {
      splitter.end();
      scoped(scope ?? library ?? null);
      if (waiting !== null) for (let n = 0; n < waiting.length; n++) give(out, waiting.get(n) as [JsonValue, string | null]);
    },
  };
}

function give(out: EntrySink, [span, message]: [JsonValue, string | null]): void {
  if (message !== null) out.bad(message);
  else out.span(span as JsonObject);
}

function next(counts: Map<string, number>, key: string): number {
  const n = counts.get(key) ?? 0;
  counts.set(key, n + 1);
  return n;
}

/** A part's text parsed, checked against the depth the whole value allows at `levels` down [V9]; undefined when it cannot be read (a problem says why). */
function parsePart(text: string, line: number, levels: number, what: string, problem: (p: TraceProblem) => void, key?: string): unknown {
  let v: unknown;
  try {
    v = JSON.parse(key === undefined ? text : quoteOtelIdMember(text, key));
  } catch (err) {
    problem(traceProblem('not_json', line, `${what} is not valid JSON (${jsonErrorDetail(err)}); it was skipped`));
    return undefined;
  }
  const deep = tooDeepOtlpPart(v, line, levels, what);
  if (deep) {
    problem(deep);
    return undefined;
  }
  return v;
}

/** What a level's splitter reports beside its parts: the problems of the text around them. */
function splitterProblems(maxChars: number, problem: (p: TraceProblem) => void): Pick<KeyedArraySink, 'tooLong' | 'stray' | 'truncated' | 'unclosed' | 'repeated'> {
  const name = (key: string) => JSON.stringify(key.slice(0, 100));
  return {
    tooLong: (key, element, line, length) => problem(traceProblem('line_too_long', line, `${element ? 'an element of' : 'the member'} ${name(key)} is ${length} characters, past the limit of ${maxChars}; it was skipped`)),
    stray: (line, text) => problem(traceProblem('not_json', line, `not part of the JSON object: ${JSON.stringify(text.slice(0, 40))}; skipped`)),
    truncated: (key, element, line) => problem(traceProblem('truncated', line, `the input ends inside ${element ? 'an element of' : 'the member'} ${name(key)}; what came before it was read`)),
    unclosed: (line) => problem(traceProblem('truncated', line, 'the input ends before the closing ] or }; what came before it was read')),
    repeated: (key, line) => problem(traceProblem('unreadable_record', line, `the key ${name(key)} appears again in the object; this later value was skipped (the first was read: JSON.parse would keep the last)`)),
  };
}
