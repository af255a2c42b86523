// [V2] Problems a person can act on: RE2's missing features said in words, a null document named as
// null, schema messages that do not repeat the path and suggest what was meant.
import { describe, expect, it } from 'vitest';
import { parsePipelineText } from '../../../engine/index.ts';
import { compileRegex } from '../../../engine/match/regex.ts';

const doc = (nodes: unknown[]) => JSON.stringify({ format: 'hookwire.pipeline', version: 1, name: 'x', nodes, wires: [] });
const problems = (text: string) => parsePipelineText(text).problems.map((p) => ({ code: p.code, path: p.path.join('/'), message: p.message }));
const regexMessage = (p: string) => {
  const r = compileRegex(p);
  return r.ok ? 'compiled' : r.message;
};

describe('[V2][C5] messages', () => {
  it.each([
    ['a(?=b)', 'lookahead `(?=` is not supported'],
    ['a(?!b)', 'negative lookahead `(?!` is not supported'],
    ['(?<=a)b', 'lookbehind `(?<=` is not supported'],
    ['(?<!a)b', 'negative lookbehind `(?<!` is not supported'],
    ['(a)\\1', 'a backreference such as `\\1` is not supported'],
  ])('[C5] /%s/ says what RE2 lacks in plain words', (pattern, says) => {
    expect(regexMessage(pattern)).toContain(says);
    expect(regexMessage(pattern)).toContain('Hookwire regexes are RE2');
    // … and in a pipeline, at the regex's path.
    const [p] = problems(doc([{ id: 'm', kind: 'matcher', when: { 'payload.x': { regex: pattern } } }]));
    expect(p).toMatchObject({ code: 'bad_regex', message: expect.stringContaining(says) });
  });

  it('[V1] a null pipeline says null, not "a object"', () => {
    expect(problems('null')[0]!.message).toMatch(/found null$/);
  });

  it('[V2] schema messages do not repeat the path, and suggest what was meant', () => {
    expect(problems(doc([{ id: 'h', kind: 'handler', name: 'h', action: { type: 'log' } }]))).toEqual([
      { code: 'schema', path: 'nodes/0/action/type', message: '"log" is not a handler action type; did you mean "audit"? (one of block, terminate, stop, ask, add_context, rewrite, audit, budget, code, flow)' },
    ]);
    expect(problems(doc([{ id: 'h', kind: 'handler', name: 'h', oder: 3, action: { type: 'audit' } }]))).toEqual([
      { code: 'unknown_field', path: 'nodes/0/oder', message: 'unknown field "oder"; did you mean "order"?' },
    ]);
    expect(problems(doc([{ id: 'e', kind: 'evnt', pattern: '*' }]))[0]!.message).toBe('"evnt" is not a node kind; did you mean "event"? (one of event, matcher, handler)');
    expect(problems(doc([{ id: 'm', kind: 'matcher', when: { 'payload.x': { regx: 'a' } } }]))[0]!.message).toContain('unknown operator "regx" on "payload.x"; did you mean "regex"?');
    const typeError = problems(doc([{ id: 'h', kind: 'handler', name: 'h', order: 'x', action: { type: 'audit' } }]))[0]!;
    expect(typeError).toMatchObject({ path: 'nodes/0/order' });
    expect(typeError.message).not.toContain('nodes[0]');
    // Nothing is suggested when nothing is close.
    expect(problems(doc([{ id: 'h', kind: 'handler', name: 'h', zzzzzz: 1, action: { type: 'audit' } }]))[0]!.message).toBe('unknown field "zzzzzz"');
  });
});
