import { afterEach, describe, expect, it } from 'vitest';
import { createReplayer, type JsonObject } from '../../../engine/index.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { createRuntime } from '../../../engine/runtime/index.ts';
import type { QuickJSSandbox } from '../../../engine/sandbox/quickjsSandbox.ts';
import { compile } from '../helpers.ts';
import { at, te } from './helpers.ts';

// A QuickJS stack larger than the thread's own: recursion as deep as the payload asks exhausts the host
// stack first (STACK-NOTES), a real host failure [S9], struck only by the event that asks for it.
const DEEP_STACK = { maxStackBytes: 4096 * 1024 };

const doc = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'host-failure',
  nodes: [
    { id: 'e', kind: 'event', pattern: '*' },
    {
      id: 'guard',
      kind: 'handler',
      name: 'Guard',
      action: {
        type: 'code',
        language: 'js',
        timeout_ms: 5000,
        memory_mb: 256,
        source: 'function f(n) { return n <= 0 ? 0 : f(n - 1) + 1; }\nexport default (ctx) => { f(ctx.payload.depth ?? 0); return ctx.payload.deny ? { decision: "block_action", reason: "denied" } : { decision: "continue" }; };',
      },
    },
  ],
  wires: [{ from: 'e', to: 'guard' }],
};

const payloads: JsonObject[] = [{ depth: 10 }, { depth: 1_000_000 }, { deny: true }, { depth: 10 }, { deny: true, depth: 5 }];

describe('a host failure in the middle of a replay', () => {
  const boxes: QuickJSSandbox[] = [];
  afterEach(() => {
    for (const b of boxes.splice(0)) b.dispose();
  });

  it('[S9][S12] event k crashes the host; events k+1… are decided normally, as the runtime decides them', async () => {
    // Production: a runtime whose events arrive over time (the host has all the time it wants to recover).
    const live = await createNodeSandbox(DEEP_STACK);
    boxes.push(live);
    const loaded = createRuntime(doc, { sandbox: live, clock: { now: (() => { let t = at(0) - 1000; return () => (t += 1000); })() } });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const trace = loaded.runtime.startTrace({ trace_id: 't' });
    const decided: { decision: string; reason: string }[] = [];
    for (const p of payloads) {
      const r = trace.emit('custom.x', p);
      decided.push({ decision: r.decision, reason: r.reason ?? '' });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(decided[1]).toMatchObject({ decision: 'block_action', reason: expect.stringMatching(/sandbox failed/) });

    // Replay: the same events in one synchronous pass, on a sandbox of its own.
    const box = await createNodeSandbox(DEEP_STACK);
    boxes.push(box);
    const c = compile(doc, { sandbox: box });
    const events = payloads.map((p, i) => te(`e${i}`, 'custom.x', p, { at: i }));
    const r = createReplayer(c, events);
    const replayed = events.map((_, i) => {
      const s = r.step(i);
      return { decision: s.decision, reason: s.reason };
    });
    expect(replayed.map((d) => d.decision)).toEqual(['continue', 'block_action', 'block_action', 'continue', 'block_action']);
    expect(replayed.slice(2)).toEqual([{ decision: 'block_action', reason: 'denied' }, { decision: 'continue', reason: '' }, { decision: 'block_action', reason: 'denied' }]);
    expect(replayed.map((d) => d.decision)).toEqual(decided.map((d) => d.decision));
    expect(replayed.slice(2)).toEqual(decided.slice(2));
  });

  it('[S12] twelve crashing events interleaved with normal ones: replay gives the runtime\'s decision for every event', async () => {
    // Each crashing event asks for recursion 1M deep (with the big stack, a real host failure); a replay runs
    // a step twice (timeline, then explanation), so this meets 24+ failures in one synchronous pass.
    const mixed: JsonObject[] = [];
    for (let i = 0; i < 12; i++) mixed.push({ depth: 1_000_000 }, { deny: true }, { depth: 10 }, i % 2 ? { deny: true, depth: 5 } : {});
    const withPolicy = { ...doc, nodes: doc.nodes.map((n) => (n.id === 'guard' ? { ...n, on_error: 'block' } : n)) };
    const live = await createNodeSandbox(DEEP_STACK);
    boxes.push(live);
    const loaded = createRuntime(withPolicy, { sandbox: live, clock: { now: (() => { let t = at(0) - 1000; return () => (t += 1000); })() } });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const trace = loaded.runtime.startTrace({ trace_id: 't' });
    const decided = mixed.map((p) => {
      const r = trace.emit('custom.x', p);
      return { decision: r.decision, reason: r.reason ?? '' };
    });
    const box = await createNodeSandbox(DEEP_STACK);
    boxes.push(box);
    const events = mixed.map((p, i) => te(`e${i}`, 'custom.x', p, { at: i }));
    const r = createReplayer(compile(withPolicy, { sandbox: box }), events);
    const replayed = events.map((_, i) => {
      const s = r.step(i);
      return { decision: s.decision, reason: s.reason };
    });
    // The crashing ones fail closed per on_error (block), with the sandbox's reason; the normal ones are unaffected.
    for (let i = 0; i < mixed.length; i += 4) expect(replayed[i]).toEqual({ decision: 'block_action', reason: expect.stringMatching(/sandbox failed/) });
    for (let i = 0; i < mixed.length; i++) {
      const p = mixed[i]!;
      if (p.depth === 1_000_000) continue;
      expect(replayed[i]).toEqual(p.deny ? { decision: 'block_action', reason: 'denied' } : { decision: 'continue', reason: '' });
    }
    expect(replayed).toEqual(decided);
    expect(box.stats().renewals).toBeGreaterThanOrEqual(12);
  }, 60_000);
});
