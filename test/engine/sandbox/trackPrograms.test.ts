import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { trackPrograms } from '../../../engine/sandbox/trackPrograms.ts';
import type { Sandbox } from '../../../engine/sandbox/types.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createNodeSandbox();
});
afterAll(() => sandbox.dispose());

describe('trackPrograms', () => {
  it('releases exactly the programs compiled through it, and leaves the sandbox alive', () => {
    const outside = sandbox.compile('export default () => true', { language: 'js', role: 'matcher', name: 'outside' });
    const t = trackPrograms(sandbox);
    const a = t.sandbox.compile('export default () => true', { language: 'js', role: 'matcher', name: 'a' });
    const bad = t.sandbox.compile('export default (', { language: 'js', role: 'matcher', name: 'bad' });
    if (!outside.ok || !a.ok) throw new Error('did not compile');
    expect(bad.ok).toBe(false);
    const limits = { timeoutMs: 5000, memoryBytes: 32 << 20 };
    expect(t.sandbox.call(a.program, {}, limits)).toMatchObject({ ok: true, value: true });
    t.sandbox.dispose(); // a view: the sandbox lives on
    t.releaseAll();
    expect(sandbox.call(a.program, {}, limits)).toMatchObject({ ok: false, error: { kind: 'host' } });
    expect(sandbox.call(outside.program, {}, limits)).toMatchObject({ ok: true, value: true });
    t.releaseAll(); // twice is harmless
  });
});
