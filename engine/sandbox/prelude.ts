/**
 * The JavaScript that runs first in every QuickJS context, before any user code [S3][S6][S9].
 *
 * It evaluates to a record of runner functions that only the host holds (nothing of it is reachable from
 * user code), installs the helpers of the handler API as globals, makes the clock and `Math.random`
 * deterministic, and then freezes every object reachable from the global scope, so that one program cannot
 * change what another (or the same one on its next call) sees. Everything here is plain JavaScript run by
 * QuickJS: there is no host function and no host object inside the sandbox.
 *
 * Wire format between host and runner (one string each way, because QuickJS calls are cheap and handle
 * juggling is not): the host sends `id SEP now SEP seed SEP inputJson`; the runner answers with a one-letter
 * tag and a JSON body, then `SEP logsJson` when there are log lines. JSON text never contains a raw U+0001,
 * so SEP cannot be confused with content.
 */

/** Separator of the wire format (U+0001, never raw inside JSON text). */
export const SEP = '\u0001';
/** Log lines kept per call; more are counted in a last line [S11]. */
export const MAX_LOG_LINES = 100;
/** Characters kept per log line [S11]. */
export const MAX_LOG_CHARS = 1000;
/** Largest result text (JSON characters) the runner hands back; past it the call fails with `too_large` [S4]. */
export const MAX_RESULT_CHARS = 2_000_000;
/** Deepest result structure the runner checks; deeper (or cyclic) results are invalid [S4]. */
export const MAX_RESULT_DEPTH = 200;
/** The helpers the prelude installs as globals: exactly the functions the handler API declares [S3]. */
export const HELPER_NAMES = ['block', 'terminate', 'stop', 'ask', 'addContext', 'rewrite', 'log'] as const;
/** Globals removed because they would make results depend on garbage collection timing [S6]. */
export const REMOVED_GLOBALS = ['WeakRef', 'FinalizationRegistry'] as const;

export const PRELUDE_FILENAME = 'hookwire-prelude.js';
// One String.raw template, so its regular expressions and escapes stay readable; ES5-ish on purpose: its
// per-call paths must be cheap in an interpreter (no spread, no closures made per call).
export const PRELUDE_SOURCE = String.raw`(function () {
  'use strict';
  var G = globalThis, O = Object, S = String, J = JSON, R = Reflect;
  var parse = J.parse, stringify = J.stringify, keys = O.keys, getProto = O.getPrototypeOf;
  var defProp = O.defineProperty, getDesc = O.getOwnPropertyDescriptor, freeze = O.freeze, ownKeys = R.ownKeys;
  var isArray = Array.isArray, imul = Math.imul, RealDate = Date, Internal = InternalError;
  var ObjectProto = O.prototype, PromiseProto = Promise.prototype;
  var SEP = '\u0001', MAX_LOG_LINES = ${MAX_LOG_LINES}, MAX_LOG_CHARS = ${MAX_LOG_CHARS};
  var MAX_RESULT_CHARS = ${MAX_RESULT_CHARS}, MAX_DEPTH = ${MAX_RESULT_DEPTH};
  var IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

  // ---- per-call state: the clock, the random seed, the log lines and the host deadline of the current call
  var now = 0, seed = 0, logs = [], dropped = 0, deadline = 1 / 0, work = 0, budget = 1 / 0;
  var realNow = RealDate.now, indexOf = String.prototype.indexOf, slice = String.prototype.slice;

  // ---- clock [S6]: Date.now() and new Date() read the injected clock; local time is UTC everywhere
  var LOCAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
  function utcText(s) { return typeof s === 'string' && LOCAL_ISO.test(s) ? s + 'Z' : s; }
  // Named Date so that messages and constructor names read "Date"; RealDate stays unreachable from user code.
  var SafeDate = function Date(a) {
    var n = arguments.length;
    if (new.target === undefined) return new RealDate(now).toISOString();
    var v = n === 0 ? now : n === 1 ? utcText(a) : RealDate.UTC.apply(undefined, arguments);
    return R.construct(RealDate, [v], new.target);
  };
  var DP = RealDate.prototype;
  SafeDate.prototype = DP;
  defProp(DP, 'constructor', { value: SafeDate, writable: true, configurable: true });
  SafeDate.now = function now_() { return now; };
  SafeDate.UTC = RealDate.UTC;
  SafeDate.parse = function parse_(s) { return RealDate.parse(utcText(S(s))); };
  ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds'].forEach(function (k) {
    DP['get' + k] = DP['getUTC' + k];
    if (k !== 'Day') DP['set' + k] = DP['setUTC' + k];
  });
  DP.getTimezoneOffset = function () { return 0; };
  function isoOf(d) { var t = d.getTime(); return t === t ? d.toISOString() : 'Invalid Date'; }
  DP.toString = DP.toLocaleString = function () { return isoOf(this); };
  DP.toDateString = DP.toLocaleDateString = function () { var s = isoOf(this); return s.length === 24 ? s.slice(0, 10) : s; };
  DP.toTimeString = DP.toLocaleTimeString = function () { var s = isoOf(this); return s.length === 24 ? s.slice(11) : s; };
  defProp(G, 'Date', { value: SafeDate, writable: true, configurable: true });

  // ---- randomness [S6]: mulberry32, seeded per call from the event id by the host
  Math.random = function random() {
    seed = (seed + 0x6D2B79F5) | 0;
    var t = imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  // ---- helpers of the handler API [S3]
  function show(v) {
    if (typeof v === 'string') return v;
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return '[function ' + (v.name || 'anonymous') + ']';
    if (typeof v === 'bigint') return S(v) + 'n';
    if (typeof v === 'symbol') return v.toString();
    try {
      if (v instanceof Error) return v.name + ': ' + v.message;
      var s = stringify(v);
      return s === undefined ? S(v) : s;
    } catch (e) { return '[' + typeof v + ' that cannot be shown]'; }
  }
  function log() {
    if (logs.length >= MAX_LOG_LINES) { dropped++; return; }
    var parts = [];
    for (var i = 0; i < arguments.length; i++) parts.push(show(arguments[i]));
    var line = parts.join(' ');
    logs.push(line.length > MAX_LOG_CHARS ? line.slice(0, MAX_LOG_CHARS) + '\u2026' : line);
  }
  function decide(decision, reason) {
    return reason === undefined ? { decision: decision } : { decision: decision, reason: S(reason) };
  }
  function block(reason) { return decide('block_action', reason); }
  function terminate(reason) { return decide('terminate', reason); }
  function stop(reason) { return decide('stop_propagation', reason); }
  function ask(reason) { return decide('ask', reason); }
  function addContext(text) { return { decision: 'continue', context: S(text) }; }
  function rewrite(payload) { return { decision: 'continue', new_payload: payload }; }
  [['block', block], ['terminate', terminate], ['stop', stop], ['ask', ask], ['addContext', addContext], ['rewrite', rewrite], ['log', log]].forEach(function (h) {
    defProp(G, h[0], { value: h[1], writable: false, enumerable: false, configurable: false });
  });
  ${JSON.stringify(REMOVED_GLOBALS)}.forEach(function (name) { delete G[name]; });

  // ---- slow built-ins check the deadline [S7]. QuickJS polls its interrupt handler every ~10,000 calls or
  // loop iterations, whatever they cost, so a loop around a built-in that takes milliseconds (a split of a
  // large string) would run far past the deadline before the host is asked. These wrappers read the host
  // clock (the real one, kept private here) before each such call. The error they throw is the one QuickJS
  // throws for an interrupt, so it reads as a timeout; code that catches it is stopped at the next poll.
  function sizeOf(x) { return typeof x === 'string' || isArray(x) ? x.length : 0; }
  function timed(obj, names) {
    names.forEach(function (name) {
      var f = obj[name];
      if (typeof f !== 'function') return;
      var w = function () {
        if (realNow() > deadline) throw new Internal('interrupted');
        // Fuel [S13]: built-in work is counted in characters or elements handled, before and after the call.
        if (work > budget) throw new Internal('out of fuel');
        work += 1 + sizeOf(this) + sizeOf(arguments[0]);
        var r = R.apply(f, this, arguments);
        work += sizeOf(r);
        return r;
      };
      defProp(w, 'name', { value: name });
      defProp(w, 'length', { value: f.length });
      defProp(obj, name, { value: w, writable: true, enumerable: false, configurable: true });
    });
  }
  timed(String.prototype, ['split', 'repeat', 'replace', 'replaceAll', 'padStart', 'padEnd', 'indexOf', 'lastIndexOf',
    'includes', 'startsWith', 'endsWith', 'slice', 'substring', 'concat', 'normalize', 'toLowerCase', 'toUpperCase',
    'trim', 'localeCompare', 'match', 'matchAll', 'search']);
  timed(Array.prototype, ['join', 'sort', 'indexOf', 'lastIndexOf', 'includes', 'fill', 'slice', 'concat', 'splice',
    'reverse', 'flat', 'toSorted', 'toReversed', 'toSpliced', 'copyWithin', 'toString']);
  timed(getProto(Int8Array.prototype), ['set', 'fill', 'slice', 'sort', 'join', 'indexOf', 'includes', 'copyWithin', 'toSorted']);
  timed(Array, ['from']);
  timed(O, ['keys', 'values', 'entries', 'assign', 'fromEntries']);
  timed(J, ['parse', 'stringify']);

  // ---- programs: a factory per program, run afresh on every call so module-level state never survives [S6]
  var factories = new Map();
  function requireStub(name) { throw new Error('imports are not available in Hookwire code (import "' + S(name) + '")'); }
  function load(id) {
    var exp = {};
    factories.get(id)(exp, requireStub);
    return exp.default;
  }

  // ---- results: a strict JSON check with a readable path, then JSON text [S4]
  function kindOf(v) {
    var c = v.constructor;
    var name = typeof c === 'function' && typeof c.name === 'string' && c.name ? c.name : 'an object with a prototype';
    return /^[AEIOU]/.test(name) ? 'an ' + name : 'a ' + name;
  }
  // The path of the first offending value is built only when there is one (innermost segment first), so
  // checking a valid result builds no strings.
  var trail = [];
  function problem(v, depth) {
    switch (typeof v) {
      case 'string': case 'boolean': return '';
      case 'number': return v === v && v !== 1 / 0 && v !== -1 / 0 ? '' : ' is ' + S(v) + ', which JSON cannot hold';
      case 'undefined': return ' is undefined (leave the key out, or use null)';
      case 'function': return ' is a function, not JSON';
      case 'bigint': return ' is a BigInt, not JSON';
      case 'symbol': return ' is a Symbol, not JSON';
    }
    if (v === null) return '';
    if (depth > MAX_DEPTH) return ' is nested more than ' + MAX_DEPTH + ' levels deep (does it contain itself?)';
    var i, r;
    if (isArray(v)) {
      for (i = 0; i < v.length; i++) if ((r = problem(v[i], depth + 1))) { trail.push('[' + i + ']'); return r; }
      return '';
    }
    var p = getProto(v);
    if (p === PromiseProto) return ' is a Promise: code runs synchronously (no async, no await)';
    if (p !== ObjectProto && p !== null) return ' is ' + kindOf(v) + ', not a plain JSON object';
    var ks = keys(v);
    for (i = 0; i < ks.length; i++) {
      var k = ks[i];
      if ((r = problem(v[k], depth + 1))) { trail.push(IDENT.test(k) ? '.' + k : '[' + stringify(k) + ']'); return r; }
    }
    return '';
  }
  function encode(v) {
    if (v === undefined) return 'u';
    if (v === true) return 't';
    if (v === false) return 'f';
    trail = [];
    var bad = problem(v, 0);
    if (bad) return 'i' + stringify('result' + trail.reverse().join('') + bad);
    var text = stringify(v);
    return text.length > MAX_RESULT_CHARS ? 'g' + text.length : 'j' + text;
  }
  function describe(e) {
    var kind = 'thrown', name = '', message = '', stack = '';
    try {
      if (e instanceof Internal) {
        var m = e.message;
        kind = m === 'stack overflow' ? 'stack' : m === 'out of memory' ? 'memory' : m === 'interrupted' ? 'timeout' : m === 'out of fuel' ? 'fuel' : 'thrown';
      }
      if (e instanceof Error) {
        name = S(e.name); message = S(e.message);
        stack = typeof e.stack === 'string' ? e.stack.slice(0, 4000) : '';
      } else message = 'threw a value that is not an Error: ' + show(e);
    } catch (x) { message = 'threw a value that cannot be described'; }
    return stringify({ kind: kind, name: name, message: message, stack: stack });
  }
  function takeLogs() {
    if (logs.length === 0) return '';
    if (dropped > 0) logs.push('\u2026 ' + dropped + ' more log lines dropped (at most ' + MAX_LOG_LINES + ' per call)');
    var text = SEP + stringify(logs);
    logs = []; dropped = 0;
    return text;
  }
  function begin(id, nowValue, seedValue) {
    logs = []; dropped = 0; now = nowValue; seed = seedValue | 0;
    return load(id);
  }
  function noDefault(fn) { return 'n' + stringify(fn === null ? 'null' : typeof fn); }

  // ---- the runner record (host only). Headers are numbers joined by SEP, then the input's JSON text.
  function header(s, count) {
    var out = [], at = 0;
    for (var i = 0; i < count; i++) {
      var next = indexOf.call(s, SEP, at);
      out.push(+slice.call(s, at, next));
      at = next + 1;
    }
    out.push(at);
    return out;
  }
  function run(s) {
    var out;
    try {
      var h = header(s, 5); // id, now, seed, deadline, built-in work budget
      deadline = h[3]; budget = h[4]; work = 0;
      var fn = begin(h[0], h[1], h[2]);
      out = typeof fn === 'function' ? encode(fn(parse(slice.call(s, h[5])))) : noDefault(fn);
    } catch (e) { deadline = 1 / 0; out = 'e' + describe(e); }
    deadline = 1 / 0;
    return out + takeLogs();
  }
  function probe(s) {
    var out;
    try {
      var h = header(s, 3); // id, deadline, built-in work budget
      deadline = h[1]; budget = h[2]; work = 0;
      var fn = begin(h[0], 0, 0);
      out = typeof fn === 'function' ? 'o' : noDefault(fn);
    } catch (e) { deadline = 1 / 0; out = 'e' + describe(e); }
    deadline = 1 / 0;
    return out + takeLogs();
  }
  function define(id, factory) { factories.set(id, factory); }
  // Runs until the host's interrupt handler stops it: QuickJS then restarts its poll countdown, so the next call
  // starts from the same point whatever ran before (quickjsVm.ts, drainPolls) [S13].
  function spin() { for (;;) {} }
  function release(id) { factories.delete(id); }

  // ---- harden [S6]: tame the "override mistake" for a few names, then freeze everything reachable
  function tame(obj, name) {
    var d = getDesc(obj, name);
    if (!d || !('value' in d)) return;
    var value = d.value;
    defProp(obj, name, {
      get: function () { return value; },
      set: function (v) {
        if (this === obj) throw new TypeError('built-ins are frozen in Hookwire code: cannot set ' + S(name));
        defProp(this, name, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: d.enumerable, configurable: false,
    });
  }
  ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'toLocaleString'].forEach(function (n) { tame(ObjectProto, n); });
  [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, InternalError, AggregateError].forEach(function (E) {
    ['constructor', 'name', 'message', 'toString'].forEach(function (n) { tame(E.prototype, n); });
  });
  var roots = [G, RealDate, getProto(function* () {}), getProto(async function () {}), getProto(async function* () {}),
    getProto([][Symbol.iterator]()), getProto(new Map().entries()), getProto(new Set().values()),
    getProto(''[Symbol.iterator]()), getProto(/a/[Symbol.matchAll]('')), getProto([].values().map(function (x) { return x; })),
    getProto(Iterator.from({ next: function () { return { done: true }; } }))];
  var seen = new Set();
  while (roots.length) {
    var o = roots.pop();
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) continue;
    seen.add(o);
    var ds = O.getOwnPropertyDescriptors(o), names = ownKeys(ds);
    for (var i = 0; i < names.length; i++) {
      var d = ds[names[i]];
      if (typeof d.value === 'object' || typeof d.value === 'function') roots.push(d.value);
      if (d.get) roots.push(d.get);
      if (d.set) roots.push(d.set);
    }
    roots.push(getProto(o));
    freeze(o);
  }
  return { run: run, probe: probe, takeLogs: takeLogs, define: define, release: release, spin: spin };
})()`;
