import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../../../engine/compile/compilePipeline.ts';
import { replayTrace } from '../../../../engine/replay/replaySteps.ts';
import { demoPipeline } from '../../../../web/demo/demoPipeline.ts';
import { demoTrace } from '../../../../web/demo/demoTrace.ts';
import { changeRows, pointerSegments, stateRows, textChange } from '../../../../web/debugger/model/payloadChanges.ts';

describe('payload and state changes for people', () => {
  it('a redaction reads as the changed middle of the string, from the engine patch', () => {
    const r = compilePipeline(demoPipeline());
    if (!r.ok) throw new Error('demo pipeline does not compile');
    const step = replayTrace(r.compiled, demoTrace().events)[8]!;
    const rows = changeRows(step.explanation!.patch, step.payload_before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path: 'payload.tool_response', kind: 'changed' });
    expect(rows[0]!.text).toMatchObject({ removed: 'sk-proj4f9Qz8LmN2vX7rT1bK6w', added: '[REDACTED]', suffix: '\nREPLICAS=3' });
    expect(rows[0]!.text!.prefix.endsWith('OPENAI_API_KEY=')).toBe(true);
  });

  it('added and removed fields, escaped pointers and array indexes', () => {
    const rows = changeRows(
      [
        { op: 'add', path: '/a~1b', value: 1 },
        { op: 'remove', path: '/list/0' },
        { op: 'replace', path: '/n', value: 3 },
      ],
      { list: ['x'], n: 2 },
    );
    expect(rows).toEqual([
      { path: 'payload.a/b', kind: 'added', after: 1 },
      { path: 'payload.list.0', kind: 'removed', before: 'x' },
      { path: 'payload.n', kind: 'changed', before: 2, after: 3 },
    ]);
    expect(pointerSegments('/x~0y/~1')).toEqual(['x~y', '/']);
    expect(pointerSegments('')).toEqual([]);
  });

  it('keys such as __proto__ are names, not prototypes', () => {
    const before = JSON.parse('{"__proto__": {"x": 1}}');
    expect(changeRows([{ op: 'replace', path: '/__proto__/x', value: 2 }], before)).toEqual([{ path: 'payload.__proto__.x', kind: 'changed', before: 1, after: 2 }]);
  });

  it('text changes keep a bounded context around the difference', () => {
    const t = textChange(`${'a'.repeat(100)}OLD${'z'.repeat(100)}`, `${'a'.repeat(100)}NEW${'z'.repeat(100)}`, 10);
    expect(t).toEqual({ prefix: 'a'.repeat(10), removed: 'OLD', added: 'NEW', suffix: 'z'.repeat(10), cutStart: true, cutEnd: true });
    expect(textChange('same', 'same')).toMatchObject({ removed: '', added: '' });
    expect(textChange('ab', 'abc')).toMatchObject({ prefix: 'ab', removed: '', added: 'c', suffix: '' });
  });

  it('state rows mark what changed', () => {
    expect(stateRows({ tokens: 1, keep: 'x' }, { tokens: 5, keep: 'x', fresh: true })).toEqual([
      { key: 'tokens', before: 1, after: 5, changed: true },
      { key: 'keep', before: 'x', after: 'x', changed: false },
      { key: 'fresh', after: true, changed: true },
    ]);
  });
});
