import { test, expect, type Page } from '@playwright/test';
import { dropFromPalette, newEmptyPipeline, node, openApp, shot, waitSaved } from './editorHelpers.ts';
import { viewSettled } from './canvasGeometry.ts';

/** The canvas zoom, read from the viewport transform React Flow renders. */
async function zoom(page: Page): Promise<number> {
  const t = await page.locator('[data-testid="canvas"] .react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
  const m = /scale\(([\d.]+)\)/.exec(t);
  if (!m) throw new Error(`no scale in ${t}`);
  return Number(m[1]);
}

/** Every wire's path as points in flow coordinates (independent of panning), sampled along the path as drawn. */
async function wirePoints(page: Page): Promise<{ x: number; y: number }[]> {
  return page.evaluate(() => {
    const out: { x: number; y: number }[] = [];
    for (const path of document.querySelectorAll<SVGPathElement>('[data-testid="canvas"] .react-flow__edge-path')) {
      const len = path.getTotalLength();
      for (let d = 0; d <= len; d += 3) {
        const p = path.getPointAtLength(d);
        out.push({ x: p.x, y: p.y });
      }
    }
    return out;
  });
}

/** Node boxes in flow coordinates, from the transform React Flow renders. */
async function flowBoxes(page: Page): Promise<{ id: string; x: number; y: number; width: number; height: number }[]> {
  return page.locator('[data-testid="canvas"] .react-flow__node').evaluateAll((els) => els.map((e) => {
    const el = e as HTMLElement;
    const m = /translate\(\s*(-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(el.style.transform)!;
    return { id: el.dataset.id!, x: Number(m[1]), y: Number(m[2]), width: el.offsetWidth, height: el.offsetHeight };
  }));
}

test('the first drop on an empty canvas lands where the pointer let go, at zoom 1', async ({ page }) => {
  await openApp(page);
  await newEmptyPipeline(page);
  const canvas = (await page.getByTestId('canvas').boundingBox())!;
  await dropFromPalette(page, 'event:tool.before_call', 200, 160);
  const added = page.locator('[data-testid="canvas"] .react-flow__node');
  await expect(added).toHaveCount(1);
  await viewSettled(page, '[data-testid="canvas"]'); // any fit animation would be over
  expect(await zoom(page)).toBe(1);
  const box = (await added.first().boundingBox())!;
  // The node is centred on the drop point (within a few pixels).
  expect(Math.abs(box.x + box.width / 2 - (canvas.x + 200))).toBeLessThan(6);
  expect(Math.abs(box.y + box.height / 2 - (canvas.y + 160))).toBeLessThan(6);
  // A second drop lands where it was dropped too (no jump of the view after the first).
  await dropFromPalette(page, 'matcher', 520, 160);
  await expect(added).toHaveCount(2);
  await viewSettled(page, '[data-testid="canvas"]');
  expect(await zoom(page)).toBe(1);
  const second = (await added.nth(1).boundingBox())!;
  expect(Math.abs(second.x + second.width / 2 - (canvas.x + 520))).toBeLessThan(6);
  await shot(page, 'placement-first-drop');
});

test('nodes added by click or by keyboard land on free space, never on a wire or a node', async ({ page }) => {
  await openApp(page);
  await viewSettled(page, '[data-testid="canvas"]');
  const items = ['handler:block', 'matcher', 'handler:audit', 'event:tool.after_call', 'handler:budget', 'matcher'];
  for (const [k, item] of items.entries()) {
    const wires = await wirePoints(page);
    const boxesBefore = await flowBoxes(page);
    const before = new Set(boxesBefore.map((b) => b.id));
    if (k % 2 === 0) await page.getByTestId(`palette-${item}`).click();
    else {
      await page.getByTestId(`palette-${item}`).focus();
      await page.keyboard.press('Enter');
    }
    await expect(page.locator('[data-testid="canvas"] .react-flow__node')).toHaveCount(before.size + 1);
    await page.waitForTimeout(150); // measured
    const box = (await flowBoxes(page)).find((b) => !before.has(b.id))!;
    const id = box.id;
    const on = wires.filter((p) => p.x > box.x && p.x < box.x + box.width && p.y > box.y && p.y < box.y + box.height);
    expect(on, `${item} (#${k + 1}) was placed on a wire`).toEqual([]);
    for (const b of boxesBefore) {
      expect(box.x < b.x + b.width && b.x < box.x + box.width && box.y < b.y + b.height && b.y < box.y + box.height, `${item} (#${k + 1}) placed on a node`).toBe(false);
    }
    // And it is on screen: the view pans to it when the free spot was off screen.
    const pane = (await page.getByTestId('canvas').boundingBox())!;
    await expect.poll(async () => {
      const r = (await node(page, id).boundingBox())!;
      return r.x >= pane.x && r.y >= pane.y && r.x + r.width <= pane.x + pane.width && r.y + r.height <= pane.y + pane.height;
    }, { message: `${item} (#${k + 1}) is in view` }).toBe(true);
  }
  await waitSaved(page);
  await shot(page, 'placement-click');
});

test('nodes added with Enter land in flow order: an event, then a matcher right of it and level with it, then a handler right of that', async ({ page }) => {
  await openApp(page);
  await newEmptyPipeline(page);
  const add = async (item: string): Promise<{ id: string; x: number; y: number; width: number; height: number }> => {
    const before = new Set((await flowBoxes(page)).map((b) => b.id));
    await page.getByTestId(`palette-${item}`).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-testid="canvas"] .react-flow__node')).toHaveCount(before.size + 1);
    await page.waitForTimeout(150); // measured
    return (await flowBoxes(page)).find((b) => !before.has(b.id))!;
  };
  // Each added node is selected, and the next one added aims level with it, one column on.
  const ev = await add('event:tool.before_call');
  const m = await add('matcher');
  const h = await add('handler:block');
  expect(m.x, 'the matcher is right of its event').toBeGreaterThan(ev.x + ev.width);
  expect(h.x, 'the handler is right of the matcher').toBeGreaterThan(m.x + m.width);
  expect(Math.abs(m.y - ev.y), 'the matcher is level with the event').toBeLessThan(2);
  expect(Math.abs(h.y - m.y), 'the handler is level with the matcher').toBeLessThan(2);
  // A second event goes to the events' column (not right of the handler), free of the first.
  const ev2 = await add('event:tool.after_call');
  expect(ev2.x).toBe(ev.x);
  expect(Math.abs(ev2.y - ev.y)).toBeGreaterThanOrEqual(ev.height);
  // A second matcher with that event selected: in the matchers' column, free of the first.
  const m2 = await add('matcher');
  expect(m2.x).toBe(m.x);
  expect(m2.y).not.toBe(m.y);

  // On the demo too: a matcher added with an event selected lands in the matchers' column, right of every event.
  await page.getByTestId('tab-library').click();
  await page.locator('[data-testid="library-item"]').filter({ hasText: 'Demo' }).first().locator('.lib-open, .title').first().click();
  await expect(node(page, 'ev-tool-before')).toBeVisible();
  await page.getByTestId('fit-view').click();
  await node(page, 'ev-tool-before').click();
  await page.getByTestId('tab-palette').click();
  const boxes = await flowBoxes(page);
  const eventsRight = Math.max(...boxes.filter((b) => b.id.startsWith('ev-')).map((b) => b.x + b.width));
  const added = await add('matcher');
  expect(added.x).toBeGreaterThan(eventsRight);
  await shot(page, 'placement-flow-order');
});
