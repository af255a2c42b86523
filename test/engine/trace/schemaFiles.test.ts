import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DIR, schemaFiles } from '../../../engine/node/writeSchemas.ts';
import { traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';

describe('generated JSON Schemas', () => {
  const files = schemaFiles();

  it.each(Object.keys(files))('[T1] engine/schema/%s is up to date (run `npm run schema` after changing a zod schema)', (name) => {
    expect(readFileSync(join(SCHEMA_DIR, name), 'utf8')).toBe(files[name]);
  });

  it('[T1] the trace schema describes the header and the event line, with payload an object', () => {
    const s = JSON.parse(files['trace.v1.schema.json'] as string);
    expect(s.$defs.header.properties.format.const).toBe('hookwire.trace');
    expect(s.$defs.header.required).toEqual(expect.arrayContaining(['format', 'version', 'trace_id', 'agent_id', 'source', 'created']));
    expect(s.$defs.event.required).toEqual(['event_id', 'type', 'ts', 'payload']);
    expect(s.$defs.event.properties.payload.type).toBe('object');
    expect(s.$defs.event.properties.recorded.properties.decision.enum).toEqual(['continue', 'stop_propagation', 'ask', 'block_action', 'terminate']);
    expect(s.$defs.event.additionalProperties).toBe(false);
  });

  it('[T1] what the writer writes has the fields the schema requires', () => {
    const s = JSON.parse(files['trace.v1.schema.json'] as string);
    const text = traceToJsonl({
      header: { format: 'hookwire.trace', version: 1, trace_id: 't', agent_id: 'a', source: { kind: 'test' }, created: '2026-01-01T00:00:00.000Z' },
      events: [{ event_id: 'e', trace_id: 't', agent_id: 'a', type: 'x', ts: '2026-01-01T00:00:00.000Z', payload: {} }],
    });
    const [h, e] = text.trimEnd().split('\n').map((l) => JSON.parse(l));
    for (const k of s.$defs.header.required) expect(h).toHaveProperty(k);
    for (const k of s.$defs.event.required) expect(e).toHaveProperty(k);
    for (const k of Object.keys(e)) expect(Object.keys(s.$defs.event.properties)).toContain(k);
  });
});
