// [C10] The bit-parallel matcher gives exactly plain re2js's answer on every pattern it takes, and leaves
// to re2js every pattern outside its subset; through compileRegex the answer is RE2's either way [C5].
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { linearTest } from '../../../engine/accel/linearRegex.ts';
import { compileRegex } from '../../../engine/match/regex.ts';

const BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
/** Plain re2js, or null when it rejects the pattern. */
function plainRe2(pattern: string, flags: string): RE2JS | null {
  let bits = 0;
  for (const f of flags) bits |= BITS[f]!;
  try {
    return RE2JS.compile(pattern, bits);
  } catch {
    return null;
  }
}

// Case-fold specials: the long s and the Kelvin sign fold with s and k; dotted/dotless i fold with nothing ASCII; Å (U+212B) with å.
const SPECIALS = ['\u017f', '\u212a', '\u0130', '\u0131', '\u212b', '\u00e5'];
const PATTERN_CHARS = ['a', 'b', 'k', 'K', 's', 'S', 'x', '0', '7', ' ', '_', '-', '/', ',', '=', '%', 'é', '😀', ...SPECIALS];
const ESCAPES = ['\\.', '\\|', '\\(', '\\)', '\\$', '\\^', '\\-', '\\[', '\\]', '\\{', '\\*', '\\\\', '\\n', '\\t', '\\r', '\\f', '\\v', '\\a', '\\x41', '\\x{212A}', '\\x{1F600}', '\\x6b'];
const PERL = ['\\d', '\\D', '\\w', '\\W', '\\s', '\\S'];
const CLASSES = [
  '[a-z]', '[^k]', '[ks]', '[KS]', '[^ks]', '[\\d_]', '[^\\W]', '[^\\w]', '[\\W]', '[]a]', '[a-]', '[-a]', '[é-ü]', '[^\\n]', '[^a-z0-9]',
  '[0-7]', '[Z-a]', '[\\x00-\\x7f]', '[^\\x00-\\x7f]', '[😀-😂]', '[^😀]', '[\\s\\d]', '[\\-.]', '[.]', '[$^]', '[\\]]', '[a\\-z]',
];
const ANCHORS = ['^', '$', '\\A', '\\z', '\\b', '\\B'];
/** RE2 syntax outside the subset (or not RE2 at all): the matcher must leave these to re2js. */
const WIDER = ['\\pL', '\\p{Greek}', '\\PL', '[[:alpha:]]', '[^[:space:]]', '\\Qa.b\\E', '\\C', '\\101', '\\0', '[\\pN]', '\\p{Lu}', '(?U)a+', 'a{,2}', 'a{', '\\Z', 'a**', 'x{1001}', '(?P=n)', '\\1'];
// `{12,}` and `{5,15}` often take a pattern past 32 positions: RE2's then.
const QUANTIFIERS = ['', '', '', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '{0}', '*?', '+?', '??', '{0,2}?', '{12,}', '{5,15}'];
const FLAG_GROUPS = ['(?i)', '(?m)', '(?s)', '(?-i)', '(?i-s)', '(?U)'];

const atom = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PATTERN_CHARS) },
  { weight: 2, arbitrary: fc.constantFrom(...ESCAPES) },
  { weight: 2, arbitrary: fc.constantFrom(...PERL) },
  { weight: 3, arbitrary: fc.constantFrom(...CLASSES) },
  { weight: 2, arbitrary: fc.constant('.') },
);

const { regex } = fc.letrec<{ regex: string; branch: string; piece: string; group: string }>((tie) => ({
  regex: fc.array(tie('branch'), { minLength: 1, maxLength: 3 }).map((bs) => bs.join('|')),
  branch: fc.array(tie('piece'), { minLength: 0, maxLength: 5 }).map((ps) => ps.join('')),
  piece: fc.oneof(
    { weight: 8, arbitrary: fc.tuple(atom, fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q) },
    { weight: 2, arbitrary: fc.tuple(tie('group'), fc.constantFrom(...QUANTIFIERS)).map(([g, q]) => g + q) },
    { weight: 2, arbitrary: fc.constantFrom(...ANCHORS) },
    { weight: 1, arbitrary: fc.constantFrom(...FLAG_GROUPS) },
    { weight: 1, arbitrary: fc.constantFrom(...WIDER) },
  ),
  group: fc
    .tuple(fc.constantFrom('(', '(?:', '(?i:', '(?-i:', '(?s:', '(?m:', '(?P<n>', '(?<m>'), fc.array(tie('branch'), { minLength: 1, maxLength: 2, depthIdentifier: 'g' }))
    .map(([open, bs]) => `${open}${bs.join('|')})`),
}));

const flags = fc.subarray(['i', 'm', 's']).map((fs) => fs.join(''));

// Texts mixing ASCII, non-ASCII, surrogate pairs and lone surrogates, newlines and case-fold specials.
const TEXT_CHARS = ['a', 'b', 'k', 'K', 's', 'S', 'x', 'A', 'Z', '0', '7', '9', ' ', '_', '-', '.', '|', '/', '\n', '\t', '\v', '\r', 'é', 'ü', '😀', '😁', '\ud83d', '\ude00', ...SPECIALS];
const text = fc.array(fc.constantFrom(...TEXT_CHARS), { maxLength: 12 }).map((xs) => xs.join(''));
/** Texts built also from the pattern's own characters, so that matches are common. */
const textFor = (p: string) => {
  const own = [...p.replace(/[\\()[\]{}|^$*+?]/g, '')];
  const pieces = own.length > 0 ? fc.oneof(fc.constantFrom(...TEXT_CHARS), fc.constantFrom(...own)) : fc.constantFrom(...TEXT_CHARS);
  return fc.array(pieces, { maxLength: 14 }).map((xs) => xs.join(''));
};

describe('[C10] the linear-time matcher', () => {
  it('[C10] agrees with plain re2js on random patterns (the subset and wider RE2 syntax) and texts', () => {
    let taken = 0;
    let valid = 0;
    let matched = 0;
    let checked = 0;
    fc.assert(
      fc.property(
        fc.tuple(regex, flags).chain(([p, f]) => fc.tuple(fc.constant(p), fc.constant(f), fc.array(fc.oneof(text, textFor(p)), { minLength: 1, maxLength: 10 }))),
        ([p, f, texts]) => {
          const re = plainRe2(p, f);
          if (re === null) return; // RE2 rejects it: compileRegex reports the error before any matcher runs
          valid++;
          const ours = linearTest(p, f);
          const compiled = compileRegex(p, f);
          expect(compiled.ok, p).toBe(true);
          if (ours !== null) taken++;
          for (const t of texts) {
            const want = re.test(t);
            if (want) matched++;
            checked++;
            if (ours !== null) expect(ours(t), `/${p}/${f} on ${JSON.stringify(t)}`).toBe(want);
            if (compiled.ok) expect(compiled.regex.test(t), `compileRegex /${p}/${f} on ${JSON.stringify(t)}`).toBe(want);
          }
        },
      ),
      { numRuns: Number(process.env.HW_RUNS ?? 3000) },
    );
    if (process.env.HW_STATS) console.log({ valid, taken, matched, checked });
    // The run must exercise both sides of the decision and both answers.
    expect(taken).toBeGreaterThan(valid * 0.4);
    expect(taken).toBeLessThan(valid);
    expect(matched).toBeGreaterThan(checked * 0.15);
    expect(matched).toBeLessThan(checked * 0.85);
  });

  it('[C10] the benchmark patterns are taken and give RE2 answers', () => {
    const patterns = ['src/file[0-9]+\\.', '[0-9]{2,}', '\\| *sh$', '\\.env\\b', 'chmod [0-7]{3}', '^(sudo|su) ', 'rm\\s+-rf', '\\bsudo\\b', '(?i)^drop\\s+table'];
    const texts = ['ls src/file123.ts', 'src/file.ts', '/work/p12/f345.ts', 'curl http://x.example | sh', 'x | sh 4', 'cat .env', 'cat .envrc', 'chmod 777 /etc', 'chmod 78', 'sudo su', 'rm  -rf /', 'DROP  TABLE x', ''];
    for (const p of patterns) {
      const ours = linearTest(p, '');
      expect(ours, p).not.toBeNull();
      const re = RE2JS.compile(p);
      for (const t of texts) expect(ours!(t), `${p} on ${JSON.stringify(t)}`).toBe(re.test(t));
    }
  });

  it.each<[string, string, string, boolean]>([
    // Code points, not UTF-16 units: a surrogate pair is one character for `.` and negated classes.
    ['^.$', '', '😀', true], ['^..$', '', '😀', false], ['^[^a]$', '', '😀', true], ['^\\W$', '', '😀', true], ['^.$', '', '\ud83d', true],
    ['^.\\z', '', '\ud83d\ud83d', false], ['^[😀-😂]+$', '', '😁😀', true], ['^\\x{1F600}$', '', '😀', true],
    // Case folding under i: RE2's simple folding (ſ with s, K with k; nothing ASCII for İ or ı).
    ['(?i)^s$', '', '\u017f', true], ['^s$', 'i', '\u017f', true], ['(?i)^k$', '', '\u212a', true], ['(?i)^[a-z]+$', '', 'O\u212a\u017f', true],
    ['(?i)^i$', '', '\u0130', false], ['(?i)^i$', '', '\u0131', false], ['(?i)[^k]', '', '\u212a', false], ['(?i)\\W', '', '\u017f', false],
    ['(?i)[^\\W]', '', '\u212a', true], ['(?i:s)x', '', 'SX', false], ['(?i:s)x', '', 'Sx', true], ['a(?i)b|c', '', 'C', true],
    // \b is an ASCII word boundary.
    ['\\.env\\b', '', '.env_', false], ['\\.env\\b', '', '.envé', true], ['\\bé', '', ' é', false], ['a\\B', '', 'ab', true],
    // $ without m is the end of the text only; with m also before a newline; ^ likewise.
    ['sh$', '', 'sh\n', false], ['sh$', 'm', 'sh\n', true], ['(?m)^b', '', 'a\nb', true], ['^b', '', 'a\nb', false], ['a\\z', 'm', 'a\n', false],
    // (?s) and the s flag: dot and newline.
    ['a.b', '', 'a\nb', false], ['a.b', 's', 'a\nb', true], ['(?s)a.b', '', 'a\nb', true], ['a[^x]b', '', 'a\nb', true],
    // \s is [\t\n\f\r ], without \v.
    ['^\\s$', '', '\v', false], ['^\\s$', '', '\f', true],
    // Repetition.
    // `]` and `}` outside a class are literals.
    ['a]b', '', 'xa]b', true], ['a}', '', 'a}', true], ['^[[]$', '', '[', true], ['^[]]$', '', ']', true],
    ['^(ab|c){2,3}$', '', 'abcab', true], ['^(ab|c){2,3}$', '', 'c', false], ['^(a*)*$', '', 'aaa', true], ['^(a|b?)+c', '', 'c', true], ['^x{0}$', '', '', true],
  ])('[C10] /%s/%s on %j is %s, as in RE2', (pattern, fl, input, want) => {
    const ours = linearTest(pattern, fl);
    expect(ours, pattern).not.toBeNull();
    expect(plainRe2(pattern, fl)!.test(input)).toBe(want);
    expect(ours!(input)).toBe(want);
  });

  it('[C10] a leading literal is skipped where found only when no thread can start inside it (literals with a border step through)', () => {
    // "abab" has the border "ab": in "ababab1" the match "abab1" starts inside the first "abab" found.
    const cases: [string, string][] = [
      ['abab[0-9]', 'ababab1'], ['aa[0-9]', 'aaa1'], ['abcab+c', 'abcabcabbc'], ['xyx[a-z]+!', 'xyxyxq!'],
      ['src/file[0-9]+\\.', 'cp src/filesrc/file12.ts'], ['abc[0-9]', 'ababc1'], ['abc[0-9]', 'abcabc'],
    ];
    for (const [p, text] of cases) {
      const t = linearTest(p, '')!;
      expect(t, p).not.toBeNull();
      expect(t(text), `${p} on ${text}`).toBe(RE2JS.compile(p).test(text));
    }
  });

  it('[C10] leaves constructs outside the subset to re2js', () => {
    for (const p of ['\\pL', '\\p{Greek}x', '[[:alpha:]]', '\\Qa.b\\E', '\\101', 'a{,2}', '(?i)é', '(?i)[à-é]', '(?i)\\x{212A}', 'a**', '(a{2}){3}{2}', 'a{130}', '(abc|def){30}']) {
      expect(linearTest(p, ''), p).toBeNull();
    }
    expect(linearTest('('.repeat(101) + 'a' + ')'.repeat(101), '')).toBeNull(); // nesting deeper than 100
    expect(linearTest('('.repeat(100) + 'a' + ')'.repeat(100), '')).not.toBeNull();
    // 32 positions fit one machine word; a 33rd does not (several words were slower than re2js's DFA per character).
    expect(linearTest('a'.repeat(32), '')).not.toBeNull();
    expect(linearTest('a'.repeat(33), '')).toBeNull();
    expect(linearTest('[a-z]{200}', '')).toBeNull();
  });

  it('[C10] past 32 positions a pattern stays with RE2, through compileRegex with the same answers', () => {
    const patterns = ['ghp_[A-Za-z0-9]{36}', '[A-Za-z0-9+/]{40,}', '\\b[a-f0-9]{40}\\b', '^(a|b){33}$', '(?s)x.{31,40}y'];
    const texts = ['ghp_' + 'aZ9'.repeat(12), 'ghp_' + 'a'.repeat(35), 'x'.repeat(40) + '+/', 'e'.repeat(40), '_' + 'e'.repeat(40), 'ab'.repeat(17), 'x' + '\n'.repeat(35) + 'y', 'x' + '😀'.repeat(35) + 'y'];
    for (const p of patterns) {
      expect(linearTest(p, ''), p).toBeNull();
      const ours = compileRegex(p);
      expect(ours.ok).toBe(true);
      const re = RE2JS.compile(p);
      for (const t of texts) expect(ours.ok && ours.regex.test(t), `${p} on ${JSON.stringify(t)}`).toBe(re.test(t));
    }
  });

  it('[C10] stays linear: a text that makes a backtracking engine explode is one pass', () => {
    const ours = linearTest('^(a|a?)+b$', '')!;
    expect(ours).not.toBeNull();
    expect(ours('a'.repeat(100_000))).toBe(false);
    expect(linearTest('(x+x+)+y', '')!('x'.repeat(100_000))).toBe(false);
  });

  it('[C10] allocates nothing per test (counted, not timed; re2js on the same texts shows the count sees allocation)', () => {
    const patterns = ['src/file[0-9]+\\.', '[0-9]{2,}', '\\| *sh$', '\\.env\\b', '(?i)^drop\\s+table', '^.+😀$'];
    const texts = ['ls src/file123.ts', '/work/p12/f345.ts', 'curl http://x.example | sh', 'cat .env', 'DROP  TABLE x', 'é😀', 'x\n😀'];
    const ours = patterns.map((p) => linearTest(p, '')!);
    const re2 = patterns.map((p) => RE2JS.compile(p));
    /** Median heap growth per call over batches small enough that no collection runs inside one. */
    const bytesPerCall = (calls: number, f: (k: number) => void): number => {
      for (let k = 0; k < 50_000; k++) f(k);
      const per: number[] = [];
      for (let trial = 0; trial < 7; trial++) {
        const before = process.memoryUsage().heapUsed;
        for (let k = 0; k < calls; k++) f(k);
        per.push((process.memoryUsage().heapUsed - before) / calls);
      }
      return per.sort((a, b) => a - b)[3]!;
    };
    let sink = 0;
    const linear = bytesPerCall(100_000, (k) => {
      if (ours[k % ours.length]!(texts[k % texts.length]!)) sink++;
    });
    // re2js allocates tens of bytes a call: smaller batches, so that a collection rarely lands inside one.
    const plain = bytesPerCall(10_000, (k) => {
      if (re2[k % re2.length]!.test(texts[k % texts.length]!)) sink++;
    });
    if (process.env.HW_STATS) console.log({ linear, plain });
    expect(sink).toBeGreaterThan(0);
    expect(linear).toBeLessThan(1);
    expect(plain).toBeGreaterThan(10);
  });
});
