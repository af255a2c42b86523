import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetPipeline, call, startServe, workDir } from './serveHelpers.ts';

describe('hookwire serve: the token of a state dir survives a restart', { timeout: 120_000 }, () => {
  it('[P16] a restart on the same state dir keeps the token (the old one still opens the gate); a token file others can read is replaced', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(5) });
    const state = join(dir, 'state');
    const first = await startServe(join(dir, 'p.json'), state);
    await first.stop();
    const second = await startServe(join(dir, 'p.json'), state);
    try {
      expect(second.token).toBe(first.token);
      expect((await call({ port: second.port, token: first.token }, 'GET', '/v1/pipeline')).status).toBe(200);
    } finally {
      await second.stop();
    }
    // A token file readable by others is not trusted: the next start makes a new one (owner-only again).
    chmodSync(join(state, 'token'), 0o644);
    const third = await startServe(join(dir, 'p.json'), state);
    try {
      expect(third.token).not.toBe(first.token);
      expect(readFileSync(join(state, 'token'), 'utf8').trim()).toBe(third.token);
    } finally {
      await third.stop();
    }
    // Something that is not a token of ours is replaced too.
    writeFileSync(join(state, 'token'), 'short\n', { mode: 0o600 });
    const fourth = await startServe(join(dir, 'p.json'), state);
    await fourth.stop();
    expect(fourth.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
