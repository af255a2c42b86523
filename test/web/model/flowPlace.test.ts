import { describe, expect, it } from 'vitest';
import type { Pipeline } from '../../../engine/model/pipelineTypes.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { DEFAULT_SIZES } from '../../../web/model/autoLayout.ts';
import { flowPlace } from '../../../web/model/flowPlace.ts';
import { freeSpot } from '../../../web/model/freeSpot.ts';

// Issue 34: nodes added by click or Enter landed out of flow order (a matcher above its event, a handler
// left of its event). Left to right a pipeline reads events, matchers, handlers.
const xs = (doc: Pipeline, kind: string) => doc.nodes.filter((n) => n.kind === kind).map((n) => doc.layout!.nodes.find((p) => p.id === n.id)!.x);

describe('flowPlace', () => {
  const doc = demoPipeline();
  const center = { x: 0, y: 0 };

  it('aims each kind at its own column of the demo: events left of matchers left of handlers', () => {
    const ev = flowPlace(doc, 'event', center), m = flowPlace(doc, 'matcher', center), h = flowPlace(doc, 'handler', center);
    expect(ev.x).toBeLessThan(m.x);
    expect(m.x).toBeLessThan(h.x);
    expect(xs(doc, 'event')).toContain(ev.x);
    expect(xs(doc, 'matcher')).toContain(m.x);
  });

  it('with only events, a matcher goes one column right of them and a handler too; with only a handler, an event goes left of it', () => {
    const events: Pipeline = { ...doc, nodes: doc.nodes.filter((n) => n.kind === 'event'), wires: [] };
    const right = Math.max(...xs(events, 'event')) + DEFAULT_SIZES.event.width;
    expect(flowPlace(events, 'matcher', center).x).toBeGreaterThan(right);
    expect(flowPlace(events, 'handler', center).x).toBeGreaterThan(right);
    const handler = doc.nodes.find((n) => n.kind === 'handler')!;
    const one: Pipeline = { ...doc, nodes: [handler], wires: [] };
    expect(flowPlace(one, 'event', center).x + DEFAULT_SIZES.event.width).toBeLessThan(doc.layout!.nodes.find((p) => p.id === handler.id)!.x);
  });

  it('an empty pipeline: where it was asked', () => {
    expect(flowPlace({ nodes: [] }, 'matcher', { x: 10, y: 20 })).toEqual({ x: 10, y: 20 });
  });

  it('level with a selected node that comes before it, not with one after it', () => {
    const ev = doc.nodes.find((n) => n.kind === 'event')!;
    const evY = doc.layout!.nodes.find((p) => p.id === ev.id)!.y;
    expect(flowPlace(doc, 'matcher', { x: 0, y: -999 }, [ev.id]).y).toBe(evY);
    const h = doc.nodes.find((n) => n.kind === 'handler')!;
    expect(flowPlace(doc, 'event', { x: 0, y: -999 }, [h.id]).y).toBe(-999);
  });

  it('the free spot searched down and up the column keeps the column when it has room', () => {
    const want = flowPlace(doc, 'handler', { x: 0, y: doc.layout!.nodes[0]!.y });
    expect(freeSpot(doc, want, DEFAULT_SIZES.handler, undefined, { column: true }).x).toBe(want.x);
  });
});
