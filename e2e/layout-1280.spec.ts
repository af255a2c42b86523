import { test, expect, type Locator, type Page } from '@playwright/test';
import { openApp, shot } from './editorHelpers.ts';
import { key, openDebugger } from './debuggerHelpers.ts';
import { demoTraceJsonl } from '../web/demo/demoTrace.ts';
import { overlap, screenBoxes, viewSettled, type Box } from './canvasGeometry.ts';

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

/** The zoom of the canvas inside `scope`. */
async function zoomOf(page: Page, scope: string): Promise<number> {
  const t = await page.locator(`${scope} .react-flow__viewport`).evaluate((el) => (el as HTMLElement).style.transform);
  return Number(/scale\(([\d.]+)\)/.exec(t)![1]);
}

/**
 * The debugger's lit path is in view once the view has come to rest: every node the step went through when
 * they fit together, else its anchor (the handler that decided it, else the first that changed something,
 * else the first matcher that failed), or when there is none of these its first event.
 */
async function expectStepInView(page: Page, label: string): Promise<{ lit: number; fitTogether: boolean; anchor: string | null }> {
  await viewSettled(page, '.dbg-canvas-wrap');
  const pane = await box(page.locator('.dbg-canvas-wrap'));
  const boxes = await page.locator('.dbg-canvas-wrap .react-flow__node').evaluateAll((els) => els
    .filter((e) => /\bdbg-(event|pass|fail|fired|error|decider)\b/.test(e.className))
    .map((e) => ({ id: (e as HTMLElement).dataset.id!, decider: e.classList.contains('dbg-decider'), event: e.classList.contains('dbg-event'), r: e.getBoundingClientRect().toJSON() as DOMRect })));
  const x0 = Math.min(...boxes.map((b) => b.r.x)), x1 = Math.max(...boxes.map((b) => b.r.x + b.r.width));
  const y0 = Math.min(...boxes.map((b) => b.r.y)), y1 = Math.max(...boxes.map((b) => b.r.y + b.r.height));
  const fitTogether = x1 - x0 + 56 <= pane.width && y1 - y0 + 56 <= pane.height;
  const decider = boxes.filter((b) => b.decider);
  const first = boxes.filter((b) => b.event).sort((a, b) => a.r.y - b.r.y).slice(0, 1);
  expect(first.length, `${label}: its event is lit`).toBeGreaterThan(0);
  const anchorId = await page.locator('.dbg-canvas-wrap').getAttribute('data-anchor');
  if (decider.length > 0) expect(anchorId, `${label}: the decider is the anchor`).toBe(decider[0]!.id);
  const anchor = boxes.filter((b) => b.id === anchorId);
  for (const { id, r } of fitTogether ? boxes : anchor.length > 0 ? anchor : first) {
    expect(r.x >= pane.x - 1 && r.y >= pane.y - 1 && r.x + r.width <= pane.x + pane.width + 1 && r.y + r.height <= pane.y + pane.height + 1, `${label}: ${id} is in view`).toBe(true);
  }
  return { lit: boxes.length, fitTogether, anchor: anchorId };
}

/** The smallest rendered text in the nodes of the canvas in `scope`: font size times zoom, in screen px. */
async function smallestNodeText(page: Page, scope: string): Promise<{ px: number; text: string }> {
  const zoom = await zoomOf(page, scope);
  return page.evaluate(({ scope: sel, zoom: z }) => {
    let min = { px: Infinity, text: '' };
    for (const el of document.querySelectorAll<HTMLElement>(`${sel} .react-flow__node *`)) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!own || el.getClientRects().length === 0) continue;
      const px = parseFloat(getComputedStyle(el).fontSize) * z;
      if (px < min.px) min = { px, text: el.textContent!.trim().slice(0, 40) };
    }
    return min;
  }, { scope, zoom });
}

/** No node of the canvas in `scope` is under the zoom controls (or any other control floating over the canvas). */
async function expectControlsClearOfNodes(page: Page, scope: string): Promise<void> {
  const nodes = await screenBoxes(page, scope);
  const pane = await box(page.locator(`${scope}`));
  const floating = page.locator(`${scope} .react-flow__controls, ${scope} .react-flow__panel`);
  const n = await floating.count();
  for (let i = 0; i < n; i++) {
    const c = await floating.nth(i).boundingBox();
    if (!c) continue;
    for (const [id, b] of nodes) {
      // Only nodes on screen in the pane count (the user may pan others under anything).
      if (!overlap(b, pane)) continue;
      expect(overlap(c, b), `control ${i} covers node ${id}`).toBe(false);
    }
  }
}

/** Every node of the demo is inside the editor's canvas pane. */
async function expectWholeDemoInView(page: Page): Promise<void> {
  const pane = await box(page.getByTestId('canvas'));
  const nodes = await screenBoxes(page, '[data-testid="canvas"]');
  expect(nodes.size).toBe(13);
  for (const [id, b] of nodes) expect(b.x >= pane.x && b.y >= pane.y && b.x + b.width <= pane.x + pane.width && b.y + b.height <= pane.y + pane.height, `${id} is in view`).toBe(true);
}

/** All elements matched share one line: the same top (within 3 px) and the container is one row tall. */
async function expectOneLine(container: Locator, maxHeight: number, what: string): Promise<void> {
  const b = await box(container);
  expect(b.height, `${what} is one line`).toBeLessThanOrEqual(maxHeight);
  const tops = await container.locator(':scope > *').evaluateAll((els) => els.filter((e) => e.getClientRects().length).map((e) => e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2));
  const spread = Math.max(...tops) - Math.min(...tops);
  expect(spread, `${what}: its parts sit on one row`).toBeLessThan(4);
}

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('editor: readable node text at the default zoom, and no control over a node', async ({ page }) => {
    await openApp(page, { fit: false });
    await viewSettled(page, '[data-testid="canvas"]');
    const text = await smallestNodeText(page, '[data-testid="canvas"]');
    expect(text.px, `smallest node text "${text.text}"`).toBeGreaterThanOrEqual(12);
    // The whole demo is in view at that zoom (both side panels start folded at this width).
    await expectWholeDemoInView(page);
    await expectControlsClearOfNodes(page, '[data-testid="canvas"] .react-flow');
    // The tips' key chords ("Ctrl/⌘ Shift E") never break across lines.
    const chords = await page.locator('.kbd').evaluateAll((els) => els.filter((e) => e.getClientRects().length > 1).map((e) => e.textContent));
    expect(chords, 'key chords broken across lines').toEqual([]);
    expect(await page.locator('.kbd').count()).toBeGreaterThan(3);
    await shot(page, 'layout-1280-editor');
  });

  test('debugger: a usable canvas, step header and transport bar on one line, toasts clear of the timeline', async ({ page }) => {
    await openDebugger(page);
    await viewSettled(page, '.dbg-canvas-wrap');
    const canvas = await box(page.locator('.dbg-canvas-wrap'));
    expect(canvas.height, 'debugger canvas height').toBeGreaterThanOrEqual(340);
    const text = await smallestNodeText(page, '.dbg-canvas-wrap');
    expect(text.px, `smallest node text "${text.text}"`).toBeGreaterThanOrEqual(12);
    await expectControlsClearOfNodes(page, '.dbg-canvas-wrap .react-flow');
    await expectOneLine(page.getByTestId('canvas-step'), 30, 'step header');
    await expectOneLine(page.locator('.dbg-canvas-bar'), 40, 'step bar');
    // The transport bar: buttons, speed, "Step n of N", the jumps and the shortcuts sit on one row.
    const parts = [page.locator('.dbg-transport'), page.getByTestId('position'), page.locator('.dbg-jumps'), page.getByTestId('shortcuts')];
    const mids = await Promise.all(parts.map(async (l) => { const b = await box(l); return b.y + b.height / 2; }));
    expect(Math.max(...mids) - Math.min(...mids), 'transport bar on one row').toBeLessThan(4);
    for (const l of parts) expect((await box(l)).height).toBeLessThanOrEqual(34);

    // At zoom 1 not all of the pipeline fits: the view follows the step, so every node it went through
    // is in view whenever they fit together, and otherwise its anchor: the handler that decided it, else
    // the first that changed something, else the first matcher that failed (or, when there is none of
    // these, its first event).
    let lit = 0, partial = 0;
    const anchors: (string | null)[] = [];
    for (let i = 0; i < 12; i++) {
      await page.getByTestId('step-next').click();
      await expect(page.getByTestId('position')).toHaveAttribute('data-position', String(i + 1));
      const step = await expectStepInView(page, `step ${i + 2}`);
      lit += step.lit;
      if (!step.fitTogether) partial++;
      anchors.push(step.anchor);
    }
    expect(partial, 'steps whose lit path does not fit at zoom 1').toBeGreaterThan(0);
    // Step 9 decides nothing but redacts a secret; step 8 changes nothing and its block did not fire.
    expect(anchors[7], 'step 9').toBe('h-redact-secrets');
    expect(anchors[6], 'step 8').toBe('m-dangerous-tools');
    expect(lit).toBeGreaterThan(12);

    // A toast (here: a trace imported) never covers a timeline row.
    await page.getByTestId('trace-file').setInputFiles({ name: 'again.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(demoTraceJsonl()) });
    const toast = page.locator('.toast').first();
    await expect(toast).toBeVisible();
    const t = await box(toast);
    const rows = page.getByTestId('timeline-row');
    for (let i = 0; i < (await rows.count()); i++) {
      const r = await rows.nth(i).boundingBox();
      if (r) expect(overlap(t, r), `toast covers timeline row ${i + 1}`).toBe(false);
    }
    await shot(page, 'layout-1280-debugger');
  });

  test('the side panel and the replay panel fold by keyboard: a wider and a taller canvas, kept across a reload', async ({ page }) => {
    await openApp(page, { fit: false });
    // Under 1422 px wide the left panel opens folded to a rail: the canvas has the width.
    const bench = page.locator('.workbench');
    await expect(bench).toHaveAttribute('data-left', 'closed');
    await expect(page.getByTestId('tab-palette')).toBeHidden();
    const narrow = (await box(page.locator('.workbench > .main'))).width;
    expect(narrow, 'canvas width with the side panel folded').toBeGreaterThanOrEqual(1280 - 372 - 40);
    // Ctrl+B unfolds it (the palette and library are there), and the choice survives a reload.
    await key(page, 'Control+b');
    await expect(bench).toHaveAttribute('data-left', 'open');
    await expect(page.getByTestId('tab-palette')).toBeVisible();
    expect((await box(page.locator('.workbench > .main'))).width).toBeLessThan(narrow - 200);
    await page.reload();
    await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
    await expect(bench).toHaveAttribute('data-left', 'open');
    // Its button says what it does and folds it again.
    await expect(page.getByTestId('left-toggle')).toHaveAttribute('aria-expanded', 'true');
    await page.getByTestId('left-toggle').focus();
    await page.keyboard.press('Enter');
    await expect(bench).toHaveAttribute('data-left', 'closed');
    await expect(page.getByTestId('left-toggle')).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('left-toggle')).toBeFocused();

    // The debugger has its own choice: folded here too. At step 1 only the audit log ran (it continued): the
    // view shows it, not only its event.
    await page.getByTestId('mode-debug').click();
    await expect(page.getByTestId('timeline-row').first()).not.toHaveAttribute('data-outcome', '');
    await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'closed');
    const first = await expectStepInView(page, 'step 1');
    expect(first.anchor).toBe('h-audit-log');
    const short = (await box(page.locator('.dbg-canvas-wrap'))).height;
    // Ctrl+J folds the replay panel to its tabs: the canvas gets the height, the keys still step.
    await key(page, 'Control+j');
    await expect(page.getByTestId('bottom-toggle')).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('timeline-row')).toHaveCount(0);
    await viewSettled(page, '.dbg-canvas-wrap');
    const tall = (await box(page.locator('.dbg-canvas-wrap'))).height;
    expect(tall, 'canvas height with the replay panel folded').toBeGreaterThanOrEqual(540);
    expect(tall).toBeGreaterThan(short + 150);
    await key(page, 'ArrowRight');
    await expect(page.getByTestId('canvas-step')).toContainText('Step 2');
    await expectStepInView(page, 'step 2, panel folded');
    await shot(page, 'layout-1280-debugger-folded');
    // Choosing a tab unfolds it, on the step it was on.
    await page.getByTestId('tab-timeline').click();
    await expect(page.getByTestId('bottom-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('position')).toHaveAttribute('data-position', '1');
    await key(page, 'Control+j');
    await expect(page.getByTestId('timeline-row')).toHaveCount(0);
    await key(page, 'Control+j');
    await expect(page.getByTestId('timeline-row').first()).toBeVisible();
  });

  test('the right panel folds by Ctrl+Alt+B or its button, in each mode on its own, kept across a reload', async ({ page }) => {
    await openApp(page, { fit: false });
    const bench = page.locator('.workbench');
    // In a narrow window the Edit mode's inspector starts folded; selecting a node unfolds it for now only.
    await expect(bench).toHaveAttribute('data-right', 'closed');
    const wide = (await box(page.locator('.workbench > .main'))).width;
    await page.getByTestId('node-ev-tool-before').click();
    await expect(bench).toHaveAttribute('data-right', 'open');
    await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'ev-tool-before');
    expect((await box(page.locator('.workbench > .main'))).width, 'canvas width with the inspector open').toBeLessThan(wide - 300);
    await page.reload();
    await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
    await expect(bench).toHaveAttribute('data-right', 'closed');
    await expect(page.getByTestId('right-toggle')).toHaveAttribute('aria-expanded', 'false');
    // Ctrl+Alt+B is a choice: kept across a reload.
    await key(page, 'Control+Alt+b');
    await expect(bench).toHaveAttribute('data-right', 'open');
    await expect(page.getByTestId('inspector')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
    await expect(bench).toHaveAttribute('data-right', 'open');
    // Its button, by keyboard, folds it and keeps the focus; a folded choice stays folded when a node is selected.
    await page.getByTestId('right-toggle').focus();
    await page.keyboard.press('Enter');
    await expect(bench).toHaveAttribute('data-right', 'closed');
    await expect(page.getByTestId('right-toggle')).toBeFocused();
    await page.getByTestId('node-ev-input').click();
    await expect(bench).toHaveAttribute('data-right', 'closed');
    await shot(page, 'layout-1280-editor-right-folded');
    // The debugger has its own choice: open, and the same key folds it there.
    await page.getByTestId('mode-debug').click();
    await expect(page.getByTestId('step-view')).toBeVisible();
    await expect(page.locator('.workbench')).toHaveAttribute('data-right', 'open');
    const narrow = (await box(page.locator('.dbg-canvas-wrap'))).width;
    await key(page, 'Control+Alt+b');
    await expect(page.locator('.workbench')).toHaveAttribute('data-right', 'closed');
    await expect(page.getByTestId('step-view')).toBeHidden();
    expect((await box(page.locator('.dbg-canvas-wrap'))).width).toBeGreaterThan(narrow + 300);
    // The keys still step with the step panel folded.
    await key(page, 'ArrowRight');
    await expect(page.getByTestId('canvas-step')).toContainText('Step 2');
    await shot(page, 'layout-1280-debugger-right-folded');
    await key(page, 'Control+Alt+b');
    await expect(page.locator('.workbench')).toHaveAttribute('data-right', 'open');
    await expect(page.getByTestId('step-view')).toHaveAttribute('data-index', '1');
  });

  test('playing at 25 steps a second, the view ends on the step it stops at, paused or at the end', async ({ page }) => {
    await openDebugger(page);
    await page.getByTestId('speed').selectOption('25');
    // Steps come every 40 ms, faster than a 200 ms pan: each is measured against where the view is going.
    for (let round = 0; round < 3; round++) {
      await key(page, ' ');
      await page.waitForTimeout(150 + 120 * round);
      await key(page, ' ');
      await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Play');
      const at = Number(await page.getByTestId('position').getAttribute('data-position'));
      await expectStepInView(page, `paused at step ${at + 1}`);
    }
    await key(page, ' ');
    await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Play', { timeout: 15_000 });
    const end = Number(await page.getByTestId('position').getAttribute('data-position'));
    const of = /of ([\d,]+)/.exec((await page.getByTestId('position').textContent())!)![1]!;
    expect(end + 1, 'play ran to the last step').toBe(Number(of.replace(/,/g, '')));
    await expectStepInView(page, `the last step (${end + 1})`);
  });
});

test.describe('at 1920×1080', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });
  test('editor and debugger: the whole demo at the first view, screenshots', async ({ page }) => {
    await openApp(page, { fit: false });
    await viewSettled(page, '[data-testid="canvas"]');
    // Room for both side panels beside the demo.
    await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'open');
    await expect(page.locator('.workbench')).toHaveAttribute('data-right', 'open');
    await expectWholeDemoInView(page);
    await expectControlsClearOfNodes(page, '[data-testid="canvas"] .react-flow');
    await shot(page, 'layout-1920-editor');
    await page.getByTestId('mode-debug').click();
    await expect(page.getByTestId('step-view')).toBeVisible();
    await viewSettled(page, '.dbg-canvas-wrap');
    await expectControlsClearOfNodes(page, '.dbg-canvas-wrap .react-flow');
    await shot(page, 'layout-1920-debugger');
  });
});

test.describe('at 1440×900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  test('editor and debugger: the whole demo, readable, at the first view; screenshots', async ({ page }) => {
    await openApp(page, { fit: false });
    await viewSettled(page, '[data-testid="canvas"]');
    const text = await smallestNodeText(page, '[data-testid="canvas"]');
    expect(text.px, `smallest node text "${text.text}"`).toBeGreaterThanOrEqual(12);
    // The palette stays; the inspector starts folded (no room for it beside the demo) and a node unfolds it.
    await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'open');
    await expect(page.locator('.workbench')).toHaveAttribute('data-right', 'closed');
    await expectWholeDemoInView(page);
    await expectControlsClearOfNodes(page, '[data-testid="canvas"] .react-flow');
    await shot(page, 'layout-1440-editor');
    // A handler of the right-hand column, clicked: the inspector unfolds to show it, and the view pans so the
    // node stays in sight beside it instead of under it.
    await page.getByTestId('node-h-block-destructive').click();
    await expect(page.locator('.workbench')).toHaveAttribute('data-right', 'open');
    await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'h-block-destructive');
    await viewSettled(page, '[data-testid="canvas"]');
    const pane = await box(page.getByTestId('canvas'));
    const handler = await box(page.getByTestId('node-h-block-destructive'));
    expect(handler.x >= pane.x && handler.x + handler.width <= pane.x + pane.width, 'the selected handler is in view').toBe(true);
    await shot(page, 'layout-1440-editor-selected');
    // From the first view again (the inspector folded: it was unfolded for that page only), a code handler added
    // from the palette: the inspector unfolds at a code node's width, the pane narrows and the view keeps the new
    // node in sight at its bottom right, where the minimap shows while nodes are out of view. The minimap gives
    // way to the selected node instead of covering it.
    await page.reload();
    await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
    await expect(page.locator('.workbench')).toHaveAttribute('data-right', 'closed');
    await page.getByTestId('palette-handler:code').click();
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
    const added = page.locator('[data-testid="canvas"] .react-flow__node.selected');
    await expect(added).toHaveCount(1);
    await viewSettled(page, '[data-testid="canvas"]');
    const a = await box(added);
    const p = await box(page.getByTestId('canvas'));
    expect(a.x + a.width > p.x + p.width - 15 - 168 && a.y + a.height > p.y + p.height - 15 - 112, 'the new node is in the minimap\'s corner').toBe(true);
    const minimap = page.locator('[data-testid="canvas"] .react-flow__minimap');
    if (await minimap.count()) expect(overlap(await box(minimap), a), 'the minimap covers the new node').toBe(false);
    await shot(page, 'layout-1440-editor-added');
    await page.getByTestId('mode-debug').click();
    await expect(page.getByTestId('step-view')).toBeVisible();
    await viewSettled(page, '.dbg-canvas-wrap');
    expect((await smallestNodeText(page, '.dbg-canvas-wrap')).px).toBeGreaterThanOrEqual(12);
    await shot(page, 'layout-1440-debugger');
  });
});
