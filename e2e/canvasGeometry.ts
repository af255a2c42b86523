import { expect, type Page } from '@playwright/test';

export type Box = { x: number; y: number; width: number; height: number };
export type Crossing = { edge: string; node: string; segment: [number, number, number, number] };

/**
 * What the canvas really draws, in flow coordinates: every node's box (from its transform and size) and
 * every wire's SVG path read back as its points. A wire "tells a lie" when a segment of its path enters
 * the box of a node that is neither its source nor its target.
 */
export async function wireCrossings(page: Page, scope = '.react-flow'): Promise<{ crossings: Crossing[]; edges: number; nodes: number }> {
  return page.evaluate((scopeSel) => {
    const root = document.querySelector(scopeSel)!;
    const boxes = new Map<string, { x: number; y: number; width: number; height: number }>();
    for (const el of root.querySelectorAll<HTMLElement>('.react-flow__node')) {
      const m = /translate\(\s*(-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(el.style.transform);
      if (!m) continue;
      boxes.set(el.dataset.id!, { x: Number(m[1]), y: Number(m[2]), width: el.offsetWidth, height: el.offsetHeight });
    }
    const crossings: { edge: string; node: string; segment: [number, number, number, number] }[] = [];
    let edges = 0;
    for (const g of root.querySelectorAll<SVGGElement>('.react-flow__edge')) {
      const id = g.dataset.id ?? g.getAttribute('data-id') ?? '';
      const [from, to] = JSON.parse(id) as [string, string];
      const d = g.querySelector('path.react-flow__edge-path')?.getAttribute('d') ?? '';
      edges++;
      // Sample the path densely (curves too), so any shape of path is checked as drawn.
      const path = g.querySelector<SVGPathElement>('path.react-flow__edge-path')!;
      const len = path.getTotalLength();
      const pts: { x: number; y: number }[] = [];
      const n = Math.max(2, Math.ceil(len / 4));
      for (let i = 0; i <= n; i++) {
        const p = path.getPointAtLength((len * i) / n);
        pts.push({ x: p.x, y: p.y });
      }
      for (const [nid, b] of boxes) {
        // The wire's own two nodes too, past the first and last 12 px (where it leaves and enters their handles).
        const own = nid === from || nid === to;
        const skip = own ? Math.ceil(12 / (len / n)) : 0;
        // Inside by more than a pixel (a wire may graze a border, not run under a card).
        const inside = (p: { x: number; y: number }) => p.x > b.x + 1 && p.x < b.x + b.width - 1 && p.y > b.y + 1 && p.y < b.y + b.height - 1;
        for (let i = 1 + skip; i < pts.length - skip; i++) {
          const a = pts[i - 1]!, c = pts[i]!;
          const mid = { x: (a.x + c.x) / 2, y: (a.y + c.y) / 2 };
          if (inside(a) || inside(c) || inside(mid)) {
            crossings.push({ edge: `${from}→${to} ${d.slice(0, 80)}`, node: nid, segment: [a.x, a.y, c.x, c.y] });
            break;
          }
        }
      }
    }
    return { crossings, edges, nodes: boxes.size };
  }, scope);
}

/** Boxes of the nodes on screen (client pixels), by node id. */
export async function screenBoxes(page: Page, scope = '.react-flow'): Promise<Map<string, Box>> {
  const list = await page.evaluate((scopeSel) => {
    return [...document.querySelector(scopeSel)!.querySelectorAll<HTMLElement>('.react-flow__node')].map((el) => {
      const r = el.getBoundingClientRect();
      return [el.dataset.id!, { x: r.x, y: r.y, width: r.width, height: r.height }] as const;
    });
  }, scope);
  return new Map(list);
}

export const overlap = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A pipeline with `n` layered groups (event → 2 matchers → handlers, with skip wires event → handler). */
export function bigPipeline(groups: number): unknown {
  const nodes: unknown[] = [];
  const wires: { from: string; to: string }[] = [];
  const events = ['tool.before_call', 'tool.after_call', 'input.received', 'model.after_call'];
  for (let g = 0; g < groups; g++) {
    nodes.push({ id: `ev-${g}`, kind: 'event', pattern: events[g % events.length] });
    for (let m = 0; m < 2; m++) {
      nodes.push({ id: `m-${g}-${m}`, kind: 'matcher', label: `Check ${g}.${m}`, when: { 'payload.tool_name': { eq: `T${g}${m}` } } });
      wires.push({ from: `ev-${g}`, to: `m-${g}-${m}` });
      nodes.push({ id: `h-${g}-${m}`, kind: 'handler', name: `Log ${g}.${m}`, order: g * 10 + m, enabled: true, shadow: false, on_error: 'continue', action: { type: 'audit', level: 'info', fields: ['payload.tool_name'] } });
      wires.push({ from: `m-${g}-${m}`, to: `h-${g}-${m}` });
    }
    // An event wired straight to a handler of its group and to one of the next group: wires that skip a layer.
    wires.push({ from: `ev-${g}`, to: `h-${g}-1` });
    if (g + 1 < groups) wires.push({ from: `ev-${g}`, to: `h-${g + 1}-0` });
  }
  return { format: 'hookwire.pipeline', version: 1, name: `Generated ${groups} groups`, event_types: [], nodes, wires };
}

/**
 * Waits until the canvas in `scope` stops moving: its transform the same over four reads 80 ms apart. The
 * canvas pans and fits with 150–250 ms animations; on a loaded machine their frames come late, so a fixed
 * wait can measure the view half-way.
 */
export async function viewSettled(page: Page, scope: string): Promise<void> {
  const read = () => page.locator(`${scope} .react-flow__viewport`).evaluate((el) => (el as HTMLElement).style.transform);
  let last = await read(), same = 0;
  for (let i = 0; i < 100 && same < 3; i++) {
    await page.waitForTimeout(80);
    const now = await read();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  expect(same, `the view in ${scope} came to rest`).toBe(3);
}
