import { describe, expect, it } from 'vitest';
import { segmentCrossesBox } from '../../../web/model/routeWires.ts';
import { createFlowMapper, nodeBoxes, edgeId, pipelineToFlow, wireOfEdgeId, EMPTY_VIEW } from '../../../web/model/pipelineToFlow.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { applyChange } from '../../../web/model/changes.ts';
import type { Problem } from '../../../engine/model/problem.ts';

const demo = demoPipeline();

describe('pipelineToFlow', () => {
  it('maps every node and wire, with positions from layout and kinds as node types', () => {
    const { nodes, edges } = pipelineToFlow(demo);
    expect(nodes.map((n) => n.id)).toEqual(demo.nodes.map((n) => n.id));
    expect(nodes.map((n) => n.type)).toEqual(demo.nodes.map((n) => n.kind));
    expect(nodes.find((n) => n.id === 'm-dangerous-tools')?.position).toEqual({ x: 250, y: 0 });
    expect(edges.map((e) => [e.source, e.target])).toEqual(demo.wires.map((w) => [w.from, w.to]));
  });

  it('summarises matchers and handlers and gives event nodes their mode [D8]', () => {
    const { nodes } = pipelineToFlow(demo);
    const data = (id: string) => nodes.find((n) => n.id === id)!.data;
    expect(data('m-dangerous-tools').summary).toBe('tool_name in [Bash, delete_file, run_shell]');
    expect(data('h-token-budget').summary).toBe('state.output_tokens += usage.output_tokens, limit 4000 → block');
    expect(data('ev-tool-before').mode).toBe('sync');
    expect(data('ev-any').mode).toBe('mixed');
    const withDecl = { ...demo, event_types: [{ type: 'tool.before_call', mode: 'async' as const }] };
    expect(pipelineToFlow(withDecl).nodes[0]!.data.mode).toBe('async');
  });

  it('attaches problems to the node they name and marks selection', () => {
    const problem: Problem = { code: 'bad_regex', severity: 'error', path: ['nodes', 2], message: 'bad', node_id: 'm-destructive-command' };
    const { nodes, edges } = pipelineToFlow(demo, {
      ...EMPTY_VIEW,
      problems: [problem, { ...problem, node_id: undefined }],
      selectedNodes: new Set(['ev-any']),
      selectedEdges: new Set([edgeId(demo.wires[0]!)]),
    });
    expect(nodes.find((n) => n.id === 'm-destructive-command')!.data.problems).toEqual([problem]);
    expect(nodes.filter((n) => n.data.problems.length)).toHaveLength(1);
    expect(nodes.filter((n) => n.selected).map((n) => n.id)).toEqual(['ev-any']);
    expect(edges[0]!.selected).toBe(true);
  });

  it('uses drag positions and measured sizes when given', () => {
    const { nodes } = pipelineToFlow(demo, { ...EMPTY_VIEW, dragging: new Map([['ev-any', { x: 1, y: 2 }]]), measured: new Map([['ev-any', { width: 10, height: 20 }]]) });
    const n = nodes.find((x) => x.id === 'ev-any')!;
    expect(n.position).toEqual({ x: 1, y: 2 });
    expect(n.measured).toEqual({ width: 10, height: 20 });
  });

  it('adds the class maps of other modes (debugger highlights) to nodes and edges', () => {
    const e = edgeId(demo.wires[0]!);
    const { nodes, edges } = pipelineToFlow(demo, { ...EMPTY_VIEW, nodeClasses: new Map([['ev-any', 'hl-fired']]), edgeClasses: new Map([[e, 'hl-path']]) });
    expect(nodes.find((n) => n.id === 'ev-any')?.className).toBe('hl-fired');
    expect(nodes.filter((n) => n.className)).toHaveLength(1);
    expect(edges[0]?.className).toBe('hl-path');
  });

  it('takes the wires out of the Tab order when asked (the editor reaches them after the nodes), the same attributes each time', () => {
    expect(pipelineToFlow(demo).edges.every((e) => e.domAttributes === undefined)).toBe(true);
    const view = { ...EMPTY_VIEW, wiresAfterNodes: true };
    const { edges } = pipelineToFlow(demo, view);
    expect(edges.every((e) => e.domAttributes?.tabIndex === -1)).toBe(true);
    const map = createFlowMapper();
    const first = map(demo, view).edges;
    expect(map(demo, { ...view, selectedNodes: new Set(['m-dangerous-tools']) }).edges).toEqual(first);
    expect(map(demo, { ...view, selectedNodes: new Set(['m-dangerous-tools']) }).edges.every((e, i) => e === first[i])).toBe(true);
  });

  it('round-trips wires through edge ids, whatever the characters in node ids', () => {
    const w = { from: 'a"->b', to: '["x"]' };
    expect(wireOfEdgeId(edgeId(w))).toEqual(w);
  });
});

describe('agent marks [AG6]', () => {
  it('puts each node\'s loss lines on that node only, and the mapper renews a node whose marks changed', () => {
    const marks = new Map([['h-block-destructive', ['ask → block on windsurf']]]);
    const { nodes } = pipelineToFlow(demo, { ...EMPTY_VIEW, marks });
    expect(nodes.find((n) => n.id === 'h-block-destructive')!.data.marks).toEqual(['ask → block on windsurf']);
    expect(nodes.filter((n) => n.data.marks !== undefined).map((n) => n.id)).toEqual(['h-block-destructive']);
    const map = createFlowMapper();
    const before = map(demo, EMPTY_VIEW).nodes.find((n) => n.id === 'h-block-destructive');
    const after = map(demo, { ...EMPTY_VIEW, marks }).nodes.find((n) => n.id === 'h-block-destructive');
    expect(after).not.toBe(before);
    expect(map(demo, { ...EMPTY_VIEW, marks: new Map(marks) }).nodes.find((n) => n.id === 'h-block-destructive')).toBe(after);
  });
});

describe('createFlowMapper', () => {
  it('keeps the objects of nodes an edit did not touch', () => {
    const map = createFlowMapper();
    const a = map(demo, EMPTY_VIEW);
    const moved = applyChange(demo, { type: 'moveNodes', positions: [{ id: 'ev-any', x: 5, y: 5 }] }).doc;
    const b = map(moved, EMPTY_VIEW);
    const changed = b.nodes.filter((n, i) => n !== a.nodes[i]).map((n) => n.id);
    expect(changed).toEqual(['ev-any']);
    // A wire keeps its object unless its route changed; the moved node's own wire is routed anew.
    for (const [i, e] of b.edges.entries()) {
      const same = JSON.stringify(e.data?.points) === JSON.stringify(a.edges[i]!.data?.points);
      expect(e === a.edges[i]).toBe(same);
    }
    expect(b.edges.find((e) => e.source === 'ev-any')).not.toBe(a.edges.find((e) => e.source === 'ev-any'));
  });

  it('keeps every route when an edit moved nothing', () => {
    const map = createFlowMapper();
    const a = map(demo, EMPTY_VIEW);
    const b = map(demo, { ...EMPTY_VIEW, selectedNodes: new Set(['ev-any']) });
    expect(b.edges.every((e, i) => e.data?.points === a.edges[i]!.data?.points)).toBe(true);
  });
});

describe('pipelineToFlow routes', () => {
  it('routes every demo wire around the nodes it is not part of', () => {
    const { nodes, edges } = pipelineToFlow(demo);
    const boxes = nodeBoxes(nodes);
    for (const e of edges) {
      const pts = e.data!.points!;
      expect(pts.length).toBeGreaterThanOrEqual(2);
      for (let k = 1; k < pts.length; k++) {
        for (const [id, b] of boxes) if (id !== e.source && id !== e.target) expect(segmentCrossesBox(pts[k - 1]!, pts[k]!, b), `${e.id} under ${id}`).toBe(false);
      }
    }
  });
});
