import { describe, expect, it } from 'vitest';
import { recordingAgent } from '../../../../engine/app.ts';
import { traceSource } from '../../../../web/debugger/library/traceSource.ts';

describe('traceSource: what a library row says a trace came from', () => {
  it('names the agent first and the format after it (a cut row keeps the agent)', () => {
    expect(traceSource('specstory', recordingAgent({ kind: 'specstory', agent: 'cursor' }))).toEqual({ agent: 'Cursor', format: 'SpecStory' });
    expect(traceSource('hookwire-trace', recordingAgent({ agent: 'codex' }))).toEqual({ agent: 'Codex', format: 'Hookwire trace' });
  });

  it('drops the format when it says no more than the agent', () => {
    expect(traceSource('qwen-code', recordingAgent({ agent: 'qwen' }))).toEqual({ agent: 'Qwen Code', format: null });
    expect(traceSource('hookwire-trace', recordingAgent({ kind: 'claude-code-hook' }))).toEqual({ agent: 'Claude Code', format: 'Hookwire trace' });
  });

  it('is the format alone when no agent is named', () => {
    expect(traceSource('otel-genai', null)).toEqual({ agent: null, format: 'OpenTelemetry' });
    expect(traceSource('claude-code', recordingAgent({ agent: '__proto__' }))).toEqual({ agent: null, format: 'Claude Code' });
  });
});
