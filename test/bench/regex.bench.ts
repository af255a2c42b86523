// Regex micro benchmark. Not a test: nothing here asserts a time. Method: each contender runs in its own
// child process (this file with `child <contender>`), on the same inputs (the `cmd` and `path` strings of
// the dispatch workload's seeded events), every pattern in turn: a warm-up pass, then timed passes, each
// timed on the process's CPU time (process.cpuUsage). The contenders' processes take turns, round after
// round (the machine is shared), and each figure is the median of every pass of every round, in CPU ns per
// test call. Before the figures mean anything, every contender's match count per pattern must equal re2js's.
// Contenders: `linear` (engine/accel/linearRegex.ts alone; `-` for a pattern outside its subset), `hookwire` (compileRegex's test: the prefilters
// and string operations in front, then the linear matcher or re2js), `re2js` (plain RE2JS.test) and
// `native` (the JavaScript RegExp with the `u` flag: a backtracking engine, for scale only; Hookwire cannot
// use it, since a payload could make it hang).
// Run: npx tsx test/bench/regex.bench.ts [events] [passes] [rounds]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RE2JS } from 're2js';
import { linearTest } from '../../engine/accel/linearRegex.ts';
import { compileRegex } from '../../engine/match/regex.ts';
import { makeEvents } from './dispatch/workload.ts';
import { table } from './measure.ts';

/** The dispatch workload's patterns that are not finite languages, then a few more of the kinds pipelines use. */
export const PATTERNS = [
  'src/file[0-9]+\\.', '[0-9]{2,}', '\\| *sh$', '\\.env\\b', 'chmod [0-7]{3}',
  'rm\\s+-[a-z]*r', '(?i)^drop\\s+table', '\\bsudo\\b', '^[a-z]+://[^/]+/', '\\.(ts|js)x?$', '(?s)BEGIN.*KEY', '[A-Za-z0-9+/]{40,}',
];

type Contender = 'linear' | 'hookwire' | 're2js' | 'native';
const CONTENDERS: Contender[] = ['linear', 'hookwire', 're2js', 'native'];

/** The contender's test, or null when it does not take the pattern (the linear matcher, outside its subset). */
function testerFor(name: Contender, pattern: string): ((s: string) => boolean) | null {
  if (name === 'linear') return linearTest(pattern, '');
  if (name === 'hookwire') {
    const r = compileRegex(pattern);
    if (!r.ok) throw new Error(r.message);
    return (s) => r.regex.test(s);
  }
  if (name === 're2js') {
    const re = RE2JS.compile(pattern);
    return (s) => re.test(s);
  }
  const inline = /^\(\?([is]+)\)/.exec(pattern);
  const re = new RegExp(inline ? pattern.slice(inline[0].length) : pattern, `u${inline?.[1] ?? ''}`);
  return (s) => re.test(s);
}

function child(name: Contender, events: number, passes: number): void {
  const inputs = makeEvents(events).flatMap((e) => [e.payload.cmd as string, e.payload.path as string]);
  const out: { pattern: string; ns: number[]; matches: number }[] = [];
  for (const pattern of PATTERNS) {
    const test = testerFor(name, pattern);
    if (test === null) continue;
    let matches = 0;
    for (const s of inputs) if (test(s)) matches++;
    const ns: number[] = [];
    for (let p = 0; p < passes; p++) {
      const t0 = process.cpuUsage();
      let sink = 0;
      for (let i = 0; i < inputs.length; i++) if (test(inputs[i]!)) sink++;
      const t = process.cpuUsage(t0);
      if (sink !== matches) throw new Error('unstable');
      ns.push(((t.user + t.system) * 1000) / inputs.length);
    }
    out.push({ pattern, ns, matches });
  }
  console.log(JSON.stringify(out));
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export function runRegexBench(events = 50_000, passes = 5, rounds = 3): void {
  const self = fileURLToPath(import.meta.url);
  console.log(`regex: ${PATTERNS.length} patterns × ${events * 2} strings (the dispatch workload's cmd and path values); each contender in its own process, ${rounds} rounds of processes taking turns, ${passes} timed passes each after a warm-up pass; CPU ns per test call (median of all passes); ratio = re2js's time / contender's time`);
  const ns = new Map<string, number[]>();
  const matches = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    for (const name of CONTENDERS) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, 'child', name, String(events), String(passes)], { encoding: 'utf8', maxBuffer: 1 << 24 });
      for (const r of JSON.parse(out.trim().split('\n').pop()!) as { pattern: string; ns: number[]; matches: number }[]) {
        const key = `${name}\u0000${r.pattern}`;
        ns.set(key, [...(ns.get(key) ?? []), ...r.ns]);
        const want = matches.get(r.pattern);
        if (name === 're2js') matches.set(r.pattern, r.matches);
        else if (want !== undefined && want !== r.matches) throw new Error(`${name} disagrees with re2js on ${r.pattern}: ${r.matches} vs ${want} matches`);
      }
    }
  }
  const rows: (string | number)[][] = [['pattern', 'matches', ...CONTENDERS.map((c) => `${c} ns`), 'linear vs re2js', 'hookwire vs re2js', 'native vs re2js']];
  for (const p of PATTERNS) {
    const m = (c: Contender) => median(ns.get(`${c}\u0000${p}`) ?? [NaN]);
    const ratio = (c: Contender) => (Number.isNaN(m(c)) ? '- (RE2\'s)' : `${(m('re2js') / m(c)).toFixed(2)}x`);
    rows.push([p, matches.get(p)!, ...CONTENDERS.map((c) => (Number.isNaN(m(c)) ? '-' : m(c).toFixed(1))), ratio('linear'), ratio('hookwire'), ratio('native')]);
  }
  table(rows);
}

if (process.argv[2] === 'child') child(process.argv[3] as Contender, Number(process.argv[4]), Number(process.argv[5]));
else if (import.meta.url === `file://${process.argv[1]}`) {
  const [events, passes, rounds] = process.argv.slice(2);
  runRegexBench(Number(events ?? 50_000), Number(passes ?? 5), Number(rounds ?? 3));
}
