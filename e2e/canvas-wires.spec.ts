import { test, expect, type Page } from '@playwright/test';
import { dragNode, node, openApp, shot, waitSaved } from './editorHelpers.ts';
import { openDebugger } from './debuggerHelpers.ts';
import { bigPipeline, viewSettled, wireCrossings } from './canvasGeometry.ts';

/** Waits until every wire is drawn along a route (not the plain fallback) and the canvas is still. */
async function settled(page: Page, scope = '.react-flow'): Promise<void> {
  await expect(page.locator(`${scope} .react-flow__edge`).first()).toBeVisible();
  await expect(page.locator(`${scope} .react-flow__edge-path[data-routed="no"]`)).toHaveCount(0);
  await viewSettled(page, scope); // fitView / layout animations are 250 ms
}

async function expectTruthfulWires(page: Page, what: string, scope = '.react-flow'): Promise<void> {
  const { crossings, edges, nodes } = await wireCrossings(page, scope);
  expect(edges, `${what}: wires on the canvas`).toBeGreaterThan(0);
  expect(nodes).toBeGreaterThan(0);
  expect(crossings, `${what}: wires passing under other nodes, or under their own past the handles`).toEqual([]);
}

/** Drags node `id` with the mouse until its centre sits at `target` (screen coordinates). */
async function dragCentreTo(page: Page, id: string, target: { x: number; y: number }): Promise<void> {
  // React Flow starts a drag after a small threshold: correct once if the first drag fell short.
  for (let i = 0; i < 2; i++) {
    const box = await node(page, id).boundingBox();
    if (!box) throw new Error('node not on screen');
    const dx = target.x - (box.x + box.width / 2), dy = target.y - (box.y + box.height / 2);
    if (Math.abs(dx) < 4 && Math.abs(dy) < 4) break;
    await dragNode(page, id, dx, dy);
  }
}

/** Drags node `id` with the mouse so that its centre sits on the middle of the wire `from`→`to`. */
async function dropOnWire(page: Page, id: string, from: string, to: string): Promise<void> {
  const wire = await page.locator(`.react-flow__edge[data-id='${JSON.stringify([from, to])}'] path.react-flow__edge-path`).boundingBox();
  if (!wire) throw new Error('wire not on screen');
  const target = { x: wire.x + wire.width / 2, y: wire.y + wire.height / 2 };
  await dragCentreTo(page, id, target);
  const box = (await node(page, id).boundingBox())!;
  expect(box.y < target.y && target.y < box.y + box.height, 'the node sits across the wire').toBe(true);
}

async function importPipeline(page: Page, doc: unknown, nodes: number): Promise<void> {
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'big.pipeline.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await expect(page.getByTestId('import-ok')).toContainText(`${nodes} nodes`);
  await page.getByTestId('import-confirm').click();
}

test('no wire passes under a node it is not part of: the demo, after auto-layout, after adding nodes by click', async ({ page }) => {
  await openApp(page);
  await settled(page);
  await expectTruthfulWires(page, 'demo as opened');
  await shot(page, 'wires-demo');

  // A node dragged onto a wire it is not part of: the wire goes around it, it does not run under it.
  await dropOnWire(page, 'ev-any', 'm-prompt-injection', 'h-block-injection');
  await settled(page);
  await shot(page, 'wires-demo-dragged');
  await expectTruthfulWires(page, 'demo with a node dragged onto a wire');

  await page.getByTestId('auto-layout').click();
  await settled(page);
  await expectTruthfulWires(page, 'demo after auto-layout');

  // Nodes added by click land on free space and every wire still goes around them.
  for (const item of ['matcher', 'handler:block', 'event:tool.before_call', 'handler:audit']) {
    const before = await page.locator('.react-flow__node').count();
    await page.getByTestId(`palette-${item}`).click();
    await expect(page.locator('.react-flow__node')).toHaveCount(before + 1);
  }
  await settled(page);
  await expectTruthfulWires(page, 'demo after adding four nodes');
  await waitSaved(page);
  await shot(page, 'wires-demo-added');
});

test('a wire back to a node on its left goes round its own source and target, not under them', async ({ page }) => {
  await openApp(page);
  await settled(page);
  // The handler is dragged to the left of the matcher that feeds it: the wire must come out of the matcher's
  // right side and go round both cards to reach the handler's left side.
  const matcher = (await node(page, 'm-prompt-injection').boundingBox())!;
  const handler = (await node(page, 'h-block-injection').boundingBox())!;
  // Onto free space below the other cards, its right side left of the matcher's left side.
  await dragCentreTo(page, 'h-block-injection', { x: matcher.x - 40 - handler.width / 2, y: matcher.y + 420 + handler.height / 2 });
  await settled(page);
  const moved = (await node(page, 'h-block-injection').boundingBox())!;
  expect(moved.x + moved.width, 'the handler now stands left of its matcher').toBeLessThan(matcher.x);
  await shot(page, 'wires-back-edge');
  await expectTruthfulWires(page, 'demo with a handler left of its matcher');
});

test('no wire passes under a node on a generated 60-node pipeline, as imported and after auto-layout', async ({ page }) => {
  await openApp(page);
  await importPipeline(page, bigPipeline(12), 60);
  await expect(page.getByTestId('node-h-11-1')).toBeAttached();
  await settled(page);
  await expectTruthfulWires(page, 'generated pipeline as imported');
  await shot(page, 'wires-big');
  await page.getByTestId('auto-layout').click();
  await settled(page);
  await expectTruthfulWires(page, 'generated pipeline after auto-layout');
  await shot(page, 'wires-big-layout');
});

test('in the debugger a wire never passes under a node either, so a failed matcher never seems to emit the decided wire', async ({ page }) => {
  await openDebugger(page);
  // In Edit mode a node is dragged onto the wire a matcher emits; the debugger shows the same layout.
  await page.getByTestId('mode-edit').click();
  await dropOnWire(page, 'ev-tool-after', 'm-prompt-injection', 'h-block-injection');
  await waitSaved(page);
  await page.getByTestId('mode-debug').click();
  const canvas = '.dbg-canvas-wrap .react-flow';
  await settled(page, canvas);
  await expectTruthfulWires(page, 'debugger, first step', canvas);
  // Step through the trace: the lit path changes, the wires stay truthful.
  for (let i = 0; i < 4; i++) {
    await page.getByTestId('step-next').click();
    await expectTruthfulWires(page, `debugger, step ${i + 2}`, canvas);
  }
  await shot(page, 'wires-debugger');
});
