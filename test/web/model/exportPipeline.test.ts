import { describe, expect, it } from 'vitest';
import { checkImport, exportFileName, exportPipelineText } from '../../../web/model/exportPipeline.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { applyChange } from '../../../web/model/changes.ts';

const demo = demoPipeline();

describe('export and import', () => {
  it('the demo pipeline loads without errors', () => {
    const r = checkImport(exportPipelineText(demo, { layout: true }));
    expect(r.ok).toBe(true);
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('round-trips exactly: export → import → export gives the same text and the same pipeline', () => {
    // An edit that adds a field out of schema order still exports canonically.
    const node = demo.nodes[0]!;
    const edited = applyChange(demo, { type: 'updateNode', node: { ...node, label: 'Before a tool' } as typeof node }).doc;
    for (const layout of [true, false]) {
      const text = exportPipelineText(edited, { layout });
      const back = checkImport(text);
      expect(back.ok).toBe(true);
      expect(exportPipelineText(back.doc!, { layout })).toBe(text);
      expect(back.ok && back.pipeline.nodes).toEqual(edited.nodes);
      expect(back.ok && back.pipeline.wires).toEqual(edited.wires);
    }
  });

  it('without layout, the file has no positions and import lays it out', () => {
    const text = exportPipelineText(demo, { layout: false });
    expect(JSON.parse(text).layout).toBeUndefined();
    const back = checkImport(text);
    expect(back.doc?.layout?.nodes).toHaveLength(demo.nodes.length);
  });

  it('reports every problem of a broken file with where it is', () => {
    const broken = JSON.parse(exportPipelineText(demo, { layout: false }));
    broken.nodes[1].when = { 'payload.tool_name': { near: 1 } };
    broken.wires.push({ from: 'h-audit-log', to: 'ev-any' });
    const r = checkImport(JSON.stringify(broken));
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['bad_wire']));
    const bad = checkImport('{ "format": "hookwire.pipeline", ');
    expect(bad.problems[0]?.code).toBe('not_json');
    expect(bad.problems[0]?.message).toMatch(/line 1, column/);
  });

  it('names the file after the pipeline', () => {
    expect(exportFileName(demo)).toBe('demo-agent-safety-policy.pipeline.json');
  });
});

describe('export names the JSON Schema', () => {
  it('[V10] writes "$schema" first, the package schema id, and keeps a document\'s own', async () => {
    const { PIPELINE_SCHEMA_ID } = await import('../../../engine/model/pipelineTypes.ts');
    const text = exportPipelineText(demo, { layout: false });
    expect(Object.keys(JSON.parse(text))[0]).toBe('$schema');
    expect(JSON.parse(text).$schema).toBe(PIPELINE_SCHEMA_ID);
    const back = checkImport(text);
    expect(back.ok && back.doc?.$schema).toBe(PIPELINE_SCHEMA_ID);
    const own = exportPipelineText({ ...demo, $schema: './schema.json' }, { layout: false });
    expect(JSON.parse(own).$schema).toBe('./schema.json');
  });
});
