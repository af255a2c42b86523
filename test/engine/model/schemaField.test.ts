import { describe, expect, it } from 'vitest';
import { dispatch, initialState, loadPipeline, parsePipelineText, PIPELINE_SCHEMA_ID } from '../../../engine/index.ts';
import { block, compile, env, ev, event, handler, match, pipeline } from '../helpers.ts';

const doc = pipeline([ev('tools', 'tool.before_call'), match('rm', { 'payload.command': { prefix: 'rm' } }), handler('no', block('no rm'))], ['tools->rm', 'rm->no']);

describe('$schema at the top of a pipeline', () => {
  it('[V10] loads, and is kept as written', () => {
    const r = parsePipelineText(JSON.stringify({ $schema: PIPELINE_SCHEMA_ID, ...doc }, null, 2));
    expect(r.problems).toEqual([]);
    expect(r.ok && r.pipeline.$schema).toBe(PIPELINE_SCHEMA_ID);
    const local = loadPipeline({ ...doc, $schema: './node_modules/hookwire/dist/schema/pipeline.v1.schema.json' });
    expect(local.ok && local.pipeline.$schema).toBe('./node_modules/hookwire/dist/schema/pipeline.v1.schema.json');
  });

  it('[V10] has no effect on decisions', () => {
    const plain = compile(doc);
    const withSchema = compile({ $schema: PIPELINE_SCHEMA_ID, ...doc });
    for (const command of ['rm -rf /', 'ls']) {
      const e = event('tool.before_call', { command });
      const a = dispatch(plain, e, initialState(), env());
      const b = dispatch(withSchema, e, initialState(), env());
      expect(b.decision).toBe(a.decision);
      expect(b.reason).toBe(a.reason);
    }
  });

  it('[V10] must be a string; anything else is a problem at its path', () => {
    const r = loadPipeline({ ...doc, $schema: 42 });
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => p.path)).toContainEqual(['$schema']);
  });

  it('[V10] the id names the schema file the package ships', () => {
    expect(PIPELINE_SCHEMA_ID).toMatch(/\/hookwire\/dist\/schema\/pipeline\.v1\.schema\.json$/);
  });
});
