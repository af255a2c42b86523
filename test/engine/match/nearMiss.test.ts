import { describe, expect, it } from 'vitest';
import { missingPathHint, nearestKeys } from '../../../engine/match/nearMiss.ts';
import { parsePath, type Scope } from '../../../engine/match/path.ts';
import type { JsonObject } from '../../../engine/model/json.ts';
import { event } from '../helpers.ts';

const scope = (payload: JsonObject): Scope => ({ event: event('x.y', payload), payload, state: { tokens: 1 }, now: 0 });
const hint = (payload: JsonObject, path: string) => {
  const p = parsePath(path);
  if (!p.ok) throw new Error(p.message);
  return missingPathHint(scope(payload), p.path);
};

describe('near-miss hints [X3]', () => {
  it('[X3] names the key that contains the wanted one (the seed\'s input vs user_input)', () => {
    expect(hint({ user_input: 'hi', other: 1 }, 'payload.input')).toBe('`payload.input` is missing; the payload has `user_input`');
  });
  it('[X3] names keys within a small edit distance, at the deepest existing object', () => {
    expect(hint({ tool_input: { comand: 'ls' } }, 'payload.tool_input.command')).toBe('`payload.tool_input.command` is missing; `payload.tool_input` has `comand`');
  });
  it('[X3] lists what is there when nothing is close', () => {
    expect(hint({ alpha: 1, beta: 2 }, 'payload.zzzzzz')).toBe('`payload.zzzzzz` is missing; the payload has `alpha`, `beta`');
  });
  it('[X3] says when the parent is not an object', () => {
    expect(hint({ tool_input: 'ls' }, 'payload.tool_input.command')).toBe('`payload.tool_input.command` is missing; `payload.tool_input` is a string, not an object');
    expect(hint({}, 'payload.a')).toBe('`payload.a` is missing; the payload is empty');
    expect(hint({}, 'state.tokenz')).toBe('`state.tokenz` is missing; the state has `tokens`');
  });
  it('nearestKeys ranks containment before edit distance', () => {
    expect(nearestKeys('input', ['inputs', 'user_input', 'imput'])).toEqual(['inputs', 'user_input', 'imput']);
  });
});
