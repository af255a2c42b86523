import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeHookEvent } from '../../../../engine/runtime/claudeHook.ts';
import { PipelineStore } from '../../../../engine/node/serve/pipelineStore.ts';
import { anchorPathOf, parseAnchor } from '../../../../engine/node/serve/recordingAnchor.ts';
import { DEFAULT_SESSION_LIMITS, SessionHost, type DispatchOutcome, type LiveStep, type MakeEvent } from '../../../../engine/node/serve/sessionHost.ts';
import type { FlushPolicy } from '../../../../engine/node/serve/recordingFile.ts';
import { GUARD } from '../runCli.ts';
import { preToolUse } from './serveHelpers.ts';

// A session's turn, in process: when nothing needs waiting for, SessionHost.dispatch gives the outcome itself
// (no promise), so serve answers in the tick the body arrived. These check what must hold either way.

async function host(policy: FlushPolicy, onStep: (s: LiveStep) => void = () => undefined, clock = { t: 0 }) {
  const state = mkdtempSync(join(tmpdir(), 'hookwire-turn-'));
  const store = new PipelineStore(GUARD, join(state, 'pipelines'), () => undefined);
  await store.start();
  const sessions = new SessionHost(store, state, policy, onStep, () => undefined, { ...DEFAULT_SESSION_LIMITS, idleMs: 1000 }, () => clock.t);
  await sessions.rebuild();
  return sessions;
}

/** The session's next event: a Claude Code PreToolUse, mapped as the route maps it. */
const event = (session: string, id: string, command = 'ls'): MakeEvent => (seq) => {
  const m = claudeHookEvent(preToolUse(session, id, command), { ts: '2026-12-07T16:00:00.000Z', seq });
  return m.ok ? m.event : m.reason;
};

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');

describe('serve: a session turn taken at once', { timeout: 60_000 }, () => {
  it('[P15][K6] a live idle session answers without a promise, and only once its line and anchor are on file', async () => {
    const sessions = await host('write');
    try {
      expect(await sessions.open('s1', 'claude-code', { hook: 'claude-code-http' })).toEqual({ ok: true, created: true });
      const file = sessions.fileOf('s1');
      // The first event of a new session loads its pipeline version first (a promise).
      expect(await sessions.dispatch('s1', event('s1', 'toolu_0'))).toMatchObject({ ok: true, index: 0 });
      for (let i = 1; i <= 3; i++) {
        const r = sessions.dispatch('s1', event('s1', `toolu_${i}`));
        expect(r).not.toBeInstanceOf(Promise);
        const out = r as DispatchOutcome;
        expect(out).toMatchObject({ ok: true, index: i });
        // Read right after the call returned: the line is there, and the anchor counts it [K6].
        const written = lines(file);
        expect(written).toHaveLength(2 + i);
        expect(written.at(-1)).toContain(`toolu_${i}`);
        expect(parseAnchor(readFileSync(anchorPathOf(file), 'utf8'))?.lines).toBe(2 + i);
      }
      // A live session is known without a promise too.
      expect(sessions.open('s1', 'claude-code', { hook: 'claude-code-http' })).toEqual({ ok: true, created: false });
    } finally {
      await sessions.close();
    }
  });

  it('[P15] under --flush fsync every turn waits for its sync, and events given back to back are taken in arrival order', async () => {
    const sessions = await host('fsync');
    try {
      await sessions.open('s2', 'claude-code', { hook: 'claude-code-http' });
      const turns = [1, 2, 3, 4].map((i) => sessions.dispatch('s2', event('s2', `toolu_${i}`)));
      for (const t of turns) expect(t).toBeInstanceOf(Promise);
      const outs = await Promise.all(turns);
      expect(outs.map((o) => (o.ok ? o.index : -1))).toEqual([0, 1, 2, 3]);
      expect(lines(sessions.fileOf('s2')).slice(1).map((l) => /toolu_\d/.exec(l)?.[0])).toEqual(['toolu_1', 'toolu_2', 'toolu_3', 'toolu_4']);
      expect(sessions.queued()).toBe(0);
    } finally {
      await sessions.close();
    }
  });

  it('[P15] a turn that throws is a rejected promise, not a throw from dispatch, and still frees its session for the next event and for the idle sweep', async () => {
    let fail = false;
    const clock = { t: 0 };
    const sessions = await host('write', () => {
      if (fail) throw new Error('the live stream broke');
    }, clock);
    try {
      await sessions.open('s3', 'claude-code', { hook: 'claude-code-http' });
      expect(await sessions.dispatch('s3', event('s3', 'toolu_1'))).toMatchObject({ ok: true, index: 0 });
      fail = true;
      let thrown: unknown = null;
      let turn: ReturnType<SessionHost['dispatch']> | null = null;
      try {
        turn = sessions.dispatch('s3', event('s3', 'toolu_2'));
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeNull();
      expect(turn).toBeInstanceOf(Promise);
      await expect(turn).rejects.toThrow('the live stream broke');
      fail = false;
      // The line was written before the failure, so the event is in the state: the next one is the third.
      expect(sessions.dispatch('s3', event('s3', 'toolu_3'))).toMatchObject({ ok: true, index: 2 });
      await new Promise((r) => setImmediate(r));
      // Nothing is left pending: the session leaves memory once idle past the timeout.
      clock.t = 5000;
      sessions.sweep();
      expect(sessions.size).toBe(0);
    } finally {
      await sessions.close();
    }
  });
});
