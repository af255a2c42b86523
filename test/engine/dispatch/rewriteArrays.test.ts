import { describe, expect, it } from 'vitest';
import { dispatch, initialState, type JsonObject } from '../../../engine/index.ts';
import { compile, env, ev, event, handler, pipeline } from '../helpers.ts';

type Op = { op: 'set'; path: string; value: JsonObject[string] } | { op: 'remove'; path: string } | { op: 'redact'; path?: string; pattern?: string; replacement?: string };
const run = (ops: Op[], payload: JsonObject) => {
  const c = compile(pipeline([ev('e', '*'), handler('h', { type: 'rewrite', ops })], ['e->h']));
  return dispatch(c, event('model.before_call', payload), initialState(), env()).payload;
};
const chat = (): JsonObject => ({ messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: 'my key is sk-secret' }] });

describe('rewrites through array indexes [C2][H4]', () => {
  it('[H4][C2] redact of payload.messages.1.content replaces the message text', () => {
    const out = run([{ op: 'redact', path: 'payload.messages.1.content' }], chat());
    expect(out).toEqual({ messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: '[REDACTED]' }] });
  });

  it('[H4][C2] redact with a pattern through an index redacts only the matching part', () => {
    const out = run([{ op: 'redact', path: 'payload.messages.1', pattern: 'sk-[a-z]+', replacement: '***' }], chat());
    expect(out).toEqual({ messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: 'my key is ***' }] });
  });

  it('[H4][C2] set through an index keeps the array, the other messages and their roles', () => {
    const input = chat();
    const out = run([{ op: 'set', path: 'payload.messages.1.content', value: 'hidden' }], input);
    expect(Array.isArray(out.messages)).toBe(true);
    expect(out).toEqual({ messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: 'hidden' }] });
    expect(input).toEqual(chat()); // never mutated
  });

  it('[H4][C2] set at an index replaces the element; at the length it appends', () => {
    expect(run([{ op: 'set', path: 'payload.list.0', value: 'a' }], { list: ['x', 'y'] })).toEqual({ list: ['a', 'y'] });
    expect(run([{ op: 'set', path: 'payload.list.2', value: 'z' }], { list: ['x', 'y'] })).toEqual({ list: ['x', 'y', 'z'] });
  });

  it('[H4] set creates objects only for missing steps: an existing non-object is never replaced', () => {
    expect(run([{ op: 'set', path: 'payload.a.b', value: 1 }], {})).toEqual({ a: { b: 1 } });
    // An index past the end would leave holes; a key into an array or into a string names nothing there.
    expect(run([{ op: 'set', path: 'payload.list.5', value: 1 }], { list: [0] })).toEqual({ list: [0] });
    expect(run([{ op: 'set', path: 'payload.list.x', value: 1 }], { list: [0] })).toEqual({ list: [0] });
    expect(run([{ op: 'set', path: 'payload.s.x', value: 1 }], { s: 'text' })).toEqual({ s: 'text' });
  });

  it('[H4][C2] remove through an index removes the field, or the element itself', () => {
    expect(run([{ op: 'remove', path: 'payload.messages.1.content' }], chat())).toEqual({ messages: [{ role: 'system', content: 'be nice' }, { role: 'user' }] });
    expect(run([{ op: 'remove', path: 'payload.messages.0' }], chat())).toEqual({ messages: [{ role: 'user', content: 'my key is sk-secret' }] });
  });
});
