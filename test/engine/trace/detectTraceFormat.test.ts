import { describe, expect, it } from 'vitest';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import { FIXTURE, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

describe('detectTraceFormat', () => {
  it.skipIf(!HAVE_FIXTURES).each([
    [FIXTURE.ccShort, 'claude-code'],
    [FIXTURE.ccHeavy, 'claude-code'],
    [FIXTURE.otelOpenai, 'otel-genai'],
    [FIXTURE.otelLangchain, 'otel-genai'],
    [FIXTURE.swe, 'swe-agent'],
    [FIXTURE.openhands, 'openhands'],
  ] as const)('[I1] recognises %s by content, even under a misleading name', (rel, format) => {
    const text = readFixture(rel);
    const d = detectTraceFormat(text.slice(0, 64 * 1024), 'upload.txt');
    expect(d).toMatchObject({ format, by: 'content' });
    // The first 4 KB are enough for every fixture.
    expect(detectTraceFormat(text.slice(0, 4096)).format).toBe(format);
  });

  it('[I1] recognises a trace v1 header', () => {
    const d = detectTraceFormat('{"format":"hookwire.trace","version":1,"trace_id":"t"}\n{"event_id":');
    expect(d).toMatchObject({ format: 'hookwire-trace', by: 'content' });
  });

  it('[I1] recognises an OpenHands {"trajectory": [...]} export and a bare span array', () => {
    expect(detectTraceFormat('{"trajectory": [{"id": 0, "timestamp": "2025-01-01T00:00:00", "source": "user", "message": "hi", "action": "message"}]}').format).toBe('openhands');
    expect(detectTraceFormat('[{"name": "call_llm", "context": {"trace_id": 1, "span_id": 2}, "start_time": 1, "attributes": {}}]').format).toBe('otel-genai');
  });

  it('[I1] uses the file name only when the content is unclear, and says so', () => {
    expect(detectTraceFormat('', 'run.traj')).toMatchObject({ format: 'swe-agent', by: 'file_name' });
    expect(detectTraceFormat('{"unrelated": true}', 'LANGCHAIN_trace.json')).toMatchObject({ format: 'otel-genai', by: 'file_name' });
    expect(detectTraceFormat('{"unrelated": true}', 'LANGCHAIN_trace.json').reason).toMatch(/guessed .* from the file name/);
  });

  it('[I1] refuses binary data and unknown content with a reason', () => {
    expect(detectTraceFormat('\u0000\u0001\u0002PK\u0003\u0004')).toMatchObject({ format: null, reason: expect.stringMatching(/binary/) });
    const csv = detectTraceFormat('name,age\nbob,3\n', 'people.csv');
    expect(csv.format).toBeNull();
    expect(csv.reason).toMatch(/^the content is not a recording Hookwire reads \(it is [^)]+\); it reads: Hookwire trace v1/);
    expect(detectTraceFormat('').reason).toMatch(/empty/);
  });

  it('[I1] says a pipeline document is a pipeline, not an unknown trace, whatever the file is called; a payload that mentions the format is not one', () => {
    const pipeline = JSON.stringify({ $schema: 'https://unpkg.com/hookwire/dist/schema/pipeline.v1.schema.json', format: 'hookwire.pipeline', version: 1, name: 'guard', nodes: [], wires: [] }, null, 2);
    for (const name of [undefined, 'guard.pipeline.json', 'mislabelled.trace.jsonl']) {
      expect(detectTraceFormat(pipeline, name)).toMatchObject({ format: null, by: null, code: 'pipeline', reason: expect.stringMatching(/Hookwire pipeline .*not a recorded run/) });
    }
    expect(detectTraceFormat('{"name":"x","version":1,"format":"hookwire.pipeline","nodes":[]}').code).toBe('pipeline');
    expect(detectTraceFormat('{"note": {"format": "hookwire.pipeline"}}').code).toBe('unknown_format');
  });
});
