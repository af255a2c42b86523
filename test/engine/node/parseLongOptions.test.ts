// parseLongOptions against node:util's parseArgs: wherever it answers, the same values and positionals; where
// parseArgs refuses an argv, it refuses it too (null: the hook call goes to the full CLI).
import { describe, expect, it } from 'vitest';
import { parseArgs } from 'node:util';
import { parseLongOptions, type LongOptions } from '../../../engine/node/parseLongOptions.ts';

const FORWARD: LongOptions = { server: 'string', 'token-file': 'string', 'state-dir': 'string', deadline: 'string' };
const HOOK: LongOptions = { record: 'string', timeout: 'string', 'allow-rewrites': 'boolean', agent: 'string' };

function viaParseArgs(argv: string[], options: LongOptions, allowPositionals: boolean) {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: Object.fromEntries(Object.entries(options).map(([k, type]) => [k, { type }])), strict: true, allowPositionals });
    return { values: { ...values }, positionals };
  } catch {
    return null;
  }
}

function expectSubsetOfParseArgs(argv: string[], options: LongOptions, allowPositionals: boolean) {
  const ours = parseLongOptions(argv, options, allowPositionals);
  const theirs = viaParseArgs(argv, options, allowPositionals);
  if (ours !== null) expect({ argv, ...ours }).toStrictEqual({ argv, ...theirs! });
  if (theirs === null) expect({ argv, ours }).toEqual({ argv, ours: null });
  return ours;
}

describe('parseLongOptions: a strict subset of parseArgs', () => {
  it('reads what the hook calls are given, as parseArgs does', () => {
    const plain = [
      ['--server', 'http://127.0.0.1:4180', '--state-dir', '/tmp/s'],
      ['--server=http://127.0.0.1:4180', '--deadline=300'],
      ['--server', 'a', '--server', 'b'],
      ['--server='],
      ['--server', ''],
      ['--token-file', 'x=y', '--server=a=b'],
    ];
    for (const argv of plain) expect(expectSubsetOfParseArgs(argv, FORWARD, false)).not.toBeNull();
    for (const argv of [['p.json'], ['p.json', '--record', 'r.jsonl'], ['--allow-rewrites', 'p.json', '--timeout=5'], ['--agent', 'cursor', 'p.json', '--allow-rewrites']]) {
      expect(expectSubsetOfParseArgs(argv, HOOK, true)).not.toBeNull();
    }
  });

  it('refuses what parseArgs refuses, and what it does not read itself', () => {
    const refused = [['--server'], ['--server', '-x'], ['--server', '--deadline', '3'], ['--nope', 'x'], ['-s', 'x'], ['x'], ['--', 'x'], ['--'], ['--server', 'a', '--'], ['--constructor', 'x'], ['--__proto__=x'], ['--=x'], ['-']];
    for (const argv of refused) {
      expectSubsetOfParseArgs(argv, FORWARD, false);
      expect(parseLongOptions(argv, FORWARD, false)).toBeNull();
    }
    expect(expectSubsetOfParseArgs(['--allow-rewrites=true', 'p.json'], HOOK, true)).toBeNull();
  });

  it('never disagrees with parseArgs over random argvs', () => {
    const tokens = ['--server', '--server=', '--server=u', '--deadline', '--record', '--record=r', '--allow-rewrites', '--allow-rewrites=1', '--agent', '--nope', '--', '-', '-x', 'p.json', '', 'u', '-1', '--timeout', '--toString'];
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    for (let n = 0; n < 3000; n++) {
      const argv = Array.from({ length: next() % 6 }, () => tokens[next() % tokens.length]!);
      expectSubsetOfParseArgs(argv, FORWARD, false);
      expectSubsetOfParseArgs(argv, HOOK, true);
    }
  });
});
