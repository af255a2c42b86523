import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eventAgent, recordingAgent } from '../../../engine/agents/traceAgent.ts';
import { agentAdapter } from '../../../engine/runtime/agentHook.ts';
import { AGENT_IDS, HOOK_AGENT_IDS } from '../../../engine/agents/types.ts';
import { NATIVE } from './nativeInputs.ts';

describe('[AG7] which agent a trace came from', () => {
  it('[AG7] every agent\'s mapped event names its agent through meta.agent', () => {
    for (const id of HOOK_AGENT_IDS) {
      const native = NATIVE[id]({ kind: 'shell', command: 'ls' });
      if (!native) continue;
      const p = agentAdapter(id).parse(native, { ts: '2026-12-01T00:00:00.000Z', seq: 1 });
      expect(p.ok, id).toBe(true);
      expect(p.ok && eventAgent(p.event.meta)?.id).toBe(id);
    }
  });

  it('[AG7] a recording header names its agent by source.agent; old Claude Code recordings by their source', () => {
    expect(recordingAgent({ kind: 'codex-hook', agent: 'codex', pipeline: 'p' })).toEqual({ id: 'codex', name: 'Codex' });
    expect(recordingAgent({ kind: 'claude-code-hook', pipeline: 'p' })?.id).toBe('claude');
    expect(recordingAgent({ kind: 'hookwire-serve', hook: 'claude-code-http' })?.id).toBe('claude');
    expect(recordingAgent({ kind: 'hookwire-serve' })).toBeNull();
    expect(recordingAgent({ kind: 'gemini-cli' })).toBeNull();
    expect(recordingAgent(undefined)).toBeNull();
    // The OpenCode plugin's traces (engine/adapters/opencode) name their agent too.
    expect(recordingAgent({ kind: 'opencode-plugin', session_id: 'ses_1', agent: 'opencode' })).toEqual({ id: 'opencode', name: 'OpenCode' });
  });

  it('[AG7] anything that is not an agent id is not named: constructor, __proto__, other text, other types', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('constructor', '__proto__', 'toString', 'Claude', 'claude-code'), fc.integer(), fc.constant(null)), (v) => {
        const known = typeof v === 'string' && (AGENT_IDS as readonly string[]).includes(v);
        expect(eventAgent({ agent: v } as never) !== null).toBe(known);
        expect(recordingAgent({ kind: 'x', agent: v }) !== null).toBe(known);
      }),
    );
    expect(eventAgent(JSON.parse('{"__proto__": {"agent": "codex"}}'))).toBeNull();
    expect(recordingAgent(JSON.parse('{"kind": "x", "__proto__": {"agent": "codex"}}'))).toBeNull();
  });
});
