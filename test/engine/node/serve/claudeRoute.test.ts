import { describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../../../engine/node/serve/server.ts';
import { GUARD } from '../runCli.ts';
import { call, preToolUse, workDir } from './serveHelpers.ts';

// The Claude Code hook route in-process. An http hook blocks only through a 2xx JSON body; a non-2xx status is a
// non-blocking error and the tool runs (hooks reference, "HTTP response handling":
// https://code.claude.com/docs/en/hooks#http-response-handling). So an internal error on this route must still be
// the fail-closed 200, never a 500.
describe('hookwire serve: the Claude Code route', { timeout: 60_000 }, () => {
  it('[P16] an internal error while deciding is the fail-closed 200 (continue: false, PreToolUse deny), not a 500', async () => {
    const state = workDir();
    // A log that breaks exactly when a session fails closed, on top of a recording that cannot be opened.
    const server = await startServer({ pipelinePath: GUARD, stateDir: state, port: 0, watch: false, log: (line) => { if (line.includes('fails closed')) throw new Error('the log is gone'); } });
    try {
      rmSync(join(state, 'sessions'), { recursive: true, force: true });
      writeFileSync(join(state, 'sessions'), 'not a directory\n');
      const r = await call(server, 'POST', '/v1/claude/hook', preToolUse('s-internal', 'toolu_1'));
      expect(r.status).toBe(200);
      const body = r.json();
      expect(body).toMatchObject({ continue: false, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
      expect(body.stopReason).toMatch(/failing closed/);
      const asCommand = await call(server, 'POST', '/v1/claude/hook?answer=command', preToolUse('s-internal', 'toolu_2'));
      expect(asCommand.status).toBe(200);
      expect(asCommand.json()).toMatchObject({ exitCode: 2 });
    } finally {
      await server.close();
    }
  });
});
