import { describe, expect, it } from 'vitest';
import { loadPipeline, parsePipelineText } from '../../../engine/index.ts';
import { parsePipeline } from '../../../engine/model/parsePipeline.ts';
import type { Migration } from '../../../engine/model/migrate.ts';
import { audit, block, ev, handler, match, pipeline, terminate } from '../helpers.ts';

const codes = (r: ReturnType<typeof loadPipeline>) => r.problems.map((p) => p.code);

describe('loading pipelines', () => {
  it('[V1] refuses a document that is not a pipeline', () => {
    const r = loadPipeline({ hello: 1 });
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toMatchObject({ code: 'not_a_pipeline', path: ['format'] });
    expect(loadPipeline([1, 2]).problems[0]!.message).toContain('a list');
  });

  it('[V1] refuses a newer version with a clear message', () => {
    const r = loadPipeline({ ...pipeline([]), version: 7 });
    expect(r.problems).toEqual([expect.objectContaining({ code: 'future_version', path: ['version'] })]);
    expect(r.problems[0]!.message).toMatch(/version 7.*up to version 1/);
  });

  it('[V1] migrates older versions step by step, and a failed step refuses the document unchanged', () => {
    const doc0 = { format: 'hookwire.pipeline', version: 0, title: 'old', nodes: [], wires: [] };
    const good: Migration = (d) => {
      const { title, ...rest } = d;
      return { ...rest, name: title as string };
    };
    const r = parsePipeline(doc0, new Map([[0, good]]));
    expect(r.problems).toEqual([]);
    expect(r.doc?.name).toBe('old');
    expect(doc0).toEqual({ format: 'hookwire.pipeline', version: 0, title: 'old', nodes: [], wires: [] });
    const bad: Migration = () => {
      throw new Error('boom');
    };
    const r2 = parsePipeline(doc0, new Map([[0, bad]]));
    expect(r2.doc).toBeNull();
    expect(r2.problems[0]).toMatchObject({ code: 'migration_failed' });
    expect(r2.problems[0]!.message).toContain('boom');
    expect(parsePipeline(doc0).problems[0]).toMatchObject({ code: 'migration_failed' });
  });

  it('[V2] returns every problem at once, each with a code, a JSON path, a message and the node', () => {
    const doc = pipeline(
      [
        ev('e1', 'tool.before_call'),
        { id: 'm1', kind: 'matcher', when: { 'payload.x': { equals: 1 } } },
        { id: 'm2', kind: 'matcher', when: { 'payload.x': { regex: '(' } } },
        { id: 'h1', kind: 'handler', name: 'h', action: { type: 'blok' } } as never,
        { id: 'e1', kind: 'event', pattern: 'bad pattern!' },
        { id: 'x', kind: 'event', pattern: '*', extra: true } as never,
      ],
      ['e1->m1', 'm1->nope'],
    );
    const r = loadPipeline(doc);
    expect(r.ok).toBe(false);
    expect(codes(r).sort()).toEqual(['bad_pattern', 'bad_regex', 'duplicate_id', 'missing_node', 'schema', 'unknown_field', 'unknown_operator'].sort());
    const schema = r.problems.find((p) => p.code === 'schema')!;
    expect(schema).toMatchObject({ path: ['nodes', 3, 'action', 'type'], node_id: 'h1' });
    expect(r.problems.find((p) => p.code === 'unknown_field')).toMatchObject({ path: ['nodes', 5, 'extra'], node_id: 'x' });
    // Structure and contents together: a bad wire does not hide a bad regex in another node [V2].
    const both = loadPipeline(pipeline([ev('e1', '*'), match('m1', { 'payload.x': { regex: '(' } }), handler('h', block())], ['e1->m1', 'm1->h', 'h->m1']));
    expect(codes(both).sort()).toEqual(['bad_regex', 'bad_wire', 'cycle'].sort());
    expect(both.problems.find((p) => p.code === 'bad_regex')).toMatchObject({ path: ['nodes', 1, 'when', 'payload.x', 'regex'], node_id: 'm1' });
    // Positions stay right when an earlier node failed its schema.
    const shifted = loadPipeline(pipeline([{ id: 'bad', kind: 'event' } as never, match('m1', { 'payload.x': { regex: '(' } })]));
    expect(shifted.problems.find((p) => p.code === 'bad_regex')?.path).toEqual(['nodes', 1, 'when', 'payload.x', 'regex']);
    // Once the structure is right, condition problems are all reported too.
    const r2 = loadPipeline(pipeline([ev('e1', '*'), match('m1', { 'payload.x': { equals: 1 } }), match('m2', { 'payload.x': { regex: '(' } }), handler('h', block())], ['e1->m1', 'm1->m2', 'm2->h']));
    expect(codes(r2)).toEqual(['unknown_operator', 'bad_regex']);
    expect(r2.problems.map((p) => p.node_id)).toEqual(['m1', 'm2']);
  });

  it('[V3] refuses wires in the wrong direction, duplicated wires and cycles', () => {
    const nodes = [ev('e', '*'), match('m1', { 'payload.a': 1 }), match('m2', { 'payload.b': 1 }), handler('h', block())];
    expect(codes(loadPipeline(pipeline(nodes, ['h->m1'])))).toContain('bad_wire');
    expect(codes(loadPipeline(pipeline(nodes, ['m1->e'])))).toContain('bad_wire');
    expect(codes(loadPipeline(pipeline(nodes, ['e->h', 'e->h'])))).toEqual(['duplicate_wire']);
    const cyc = loadPipeline(pipeline(nodes, ['e->m1', 'm1->m2', 'm2->m1', 'm2->h']));
    expect(codes(cyc)).toEqual(['cycle']);
    expect(cyc.problems[0]!.message).toContain('"m1" → "m2" → "m1"');
  });

  it('[V4] accepts exact, prefix.* and * patterns only', () => {
    for (const ok of ['tool.before_call', 'tool.*', '*', 'custom']) {
      expect(loadPipeline(pipeline([ev('e', ok), handler('h', audit())], ['e->h'])).ok).toBe(true);
    }
    for (const bad of ['tool*', '*.before', 'tool.', '', 'to ol']) {
      expect(codes(loadPipeline(pipeline([ev('e', bad), handler('h', audit())], ['e->h'])))).toEqual([bad === '' ? 'schema' : 'bad_pattern']);
    }
  });

  it('[V5] compiles templates, rewrite paths and regexes at load', () => {
    const r = loadPipeline(pipeline([
      ev('e', '*'),
      handler('h1', { type: 'block', reason: 'oops {{payload.x' }),
      handler('h2', { type: 'rewrite', ops: [{ op: 'set', path: 'state.x', value: 1 }] }),
      handler('h3', { type: 'rewrite', ops: [{ op: 'redact', pattern: '(?=x)' }] }),
      handler('h4', { type: 'budget', key: 'k', limit: 1, amount_path: 'nope.x' }),
      handler('h5', { type: 'audit', fields: ['payload.ok', 'bad'] }),
    ], ['e->h1', 'e->h2', 'e->h3', 'e->h4', 'e->h5']));
    expect(r.problems.map((p) => [p.code, p.path.join('/')])).toEqual([
      ['bad_template', 'nodes/1/action/reason'],
      ['bad_path', 'nodes/2/action/ops/0/path'],
      ['bad_regex', 'nodes/3/action/ops/0/pattern'],
      ['bad_path', 'nodes/4/action/amount_path'],
      ['bad_path', 'nodes/5/action/fields/1'],
    ]);
  });

  it('[V5] a matcher without any condition is a problem', () => {
    expect(codes(loadPipeline(pipeline([ev('e', '*'), { id: 'm', kind: 'matcher' }, handler('h', audit())], ['e->m', 'm->h'])))).toEqual(['empty_matcher']);
  });

  it('[V6] warns about unreachable, shadowed, dangling nodes and conflicting rewrites, and still loads', () => {
    const r = loadPipeline(pipeline([
      ev('e1', 'tool.*'),
      ev('e2', 'tool.before_call'),
      ev('e3', 'agent.end'),
      match('m', { 'payload.x': 1 }),
      handler('wall', block('no tools'), { order: 1 }),
      handler('late', audit(), { order: 50 }),
      handler('orphan', audit()),
      handler('r1', { type: 'rewrite', ops: [{ op: 'set', path: 'payload.tool_input.command', value: 'ls' }] }, { order: 60 }),
      handler('r2', { type: 'rewrite', ops: [{ op: 'remove', path: 'payload.tool_input' }] }, { order: 70 }),
    ], ['e1->wall', 'e2->late', 'e1->r1', 'e2->r2', 'e3->m']));
    expect(r.ok).toBe(true);
    const byCode = Object.fromEntries([...r.problems].reverse().map((p) => [p.code, p.node_id]));
    expect(byCode).toEqual({ unreachable_handler: 'orphan', dangling_node: 'e3', shadowed_handler: 'late', conflicting_rewrites: 'r2' });
    expect(r.problems.filter((p) => p.code === 'dangling_node').map((p) => p.node_id)).toEqual(['e3', 'm']);
    expect(r.problems.every((p) => p.severity === 'warning')).toBe(true);
    // r1 and r2 are shadowed too (tool.* is covered by the wall) — only the first per handler is named above.
    expect(r.problems.filter((p) => p.code === 'shadowed_handler').map((p) => p.node_id)).toEqual(['late', 'r1', 'r2']);
  });

  it('[V6] a block on an async-capable pattern does not shadow (async events never block)', () => {
    const r = loadPipeline(pipeline([ev('all', '*'), handler('wall', terminate(), { order: 1 }), handler('after', audit())], ['all->wall', 'all->after']));
    expect(r.problems.filter((p) => p.code === 'shadowed_handler')).toEqual([]);
  });

  it('[V11] a near miss of a lifecycle event type is a warning naming the type; custom types and wildcards are not', () => {
    const r = loadPipeline(pipeline([
      ev('typo', 'tool.before_cal'), ev('ok', 'tool.before_call'), ev('custom', 'billing.charge_card'), ev('wild', 'tool.*'),
      handler('a', audit()),
    ], ['typo->a', 'ok->a', 'custom->a', 'wild->a']));
    expect(r.ok).toBe(true);
    const typos = r.problems.filter((p) => p.code === 'misspelled_event');
    expect(typos.map((p) => [p.node_id, p.severity])).toEqual([['typo', 'warning']]);
    expect(typos[0]!.message).toContain('did you mean "tool.before_call"');
  });

  it('[V8] node ids named __proto__ are plain names', () => {
    const r = loadPipeline(pipeline([ev('__proto__', '*'), handler('constructor', audit())], ['__proto__->constructor']));
    expect(r.ok).toBe(true);
    expect(r.ok && r.pipeline.nodes.map((n) => n.id)).toEqual(['__proto__', 'constructor']);
  });

  it('reports a JSON syntax error with line and column', () => {
    const r = parsePipelineText('{\n  "format": "hookwire.pipeline",\n  "version": 1,,\n}');
    expect(r.problems[0]).toMatchObject({ code: 'not_json' });
    expect(r.problems[0]!.message).toMatch(/line 3, column \d+/);
  });

  it('fills defaults: order 100, enabled, not shadow, fail closed', () => {
    const r = loadPipeline(pipeline([ev('e', '*'), handler('h', block())], ['e->h']));
    expect(r.ok && r.pipeline.nodes[1]).toMatchObject({ order: 100, enabled: true, shadow: false, on_error: 'block' });
  });
});
