import { test, expect } from '@playwright/test';
import { codeSource, edges, exportedDoc, newCodeHandler, newEmptyPipeline, node, openApp, shot, tabTo, waitSaved } from './editorHelpers.ts';

test('Space types into Monaco with the real keyboard, in Edit mode and in the debugger\'s Edit node tab', async ({ page }) => {
  await openApp(page);
  await newCodeHandler(page);
  await page.keyboard.type('const answer = 42;');
  await page.keyboard.press('Space');
  await page.keyboard.type('// the answer');
  await waitSaved(page);
  expect(codeSource(await exportedDoc(page))).toBe('const answer = 42; // the answer');

  // The debugger's canvas is React Flow too: Space there must type, not pan or play.
  await page.getByTestId('mode-debug').click();
  await page.getByTestId('tab-edit-node').click();
  const debugLines = page.locator('.monaco-editor .view-lines');
  await expect(debugLines).toContainText('const answer', { timeout: 20_000 });
  await debugLines.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' twice over');
  await expect(page.getByTestId('play')).not.toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('mode-edit').click();
  await waitSaved(page);
  expect(codeSource(await exportedDoc(page))).toBe('const answer = 42; // the answer twice over');
});

test('build a pipeline without a mouse: add from the palette, wire in the inspector, move with the arrow keys, undo', async ({ page }) => {
  await openApp(page);
  await newEmptyPipeline(page);
  // Nodes added from the palette by keyboard (Enter) land side by side, never on one spot.
  await tabTo(page, '[data-testid="palette-event:tool.before_call"]');
  await page.keyboard.press('Enter');
  await tabTo(page, '[data-testid="palette-matcher"]');
  await page.keyboard.press('Enter');
  await tabTo(page, '[data-testid="palette-handler:block"]');
  await page.keyboard.press('Enter');
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  const boxes = await page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!, b = boxes[j]!;
      expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top, `nodes ${i} and ${j} overlap`).toBe(true);
    }
  }

  // The block handler (added last) is selected: wire the matcher into it from the inspector.
  await expect(page.getByTestId('inspector')).toContainText('Block handler');
  await tabTo(page, '[data-testid="connect-target"]');
  const options = await page.getByTestId('connect-target').locator('option').allTextContents();
  expect(options).toEqual(expect.arrayContaining(['← from tool.before_call']));
  // A closed <select> changes with the arrow keys: walk to the matcher.
  for (let i = 0; i < options.length && !(await page.getByTestId('connect-target').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]!.text.includes('atcher'))); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('connect-button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(edges(page)).toHaveCount(1);
  await expect(page.getByTestId('wire-item')).toHaveCount(1);

  // Select the event node on the canvas by keyboard (Tab to it, Enter) and wire it to the matcher.
  await tabTo(page, '.react-flow__node[data-id^="ev"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('inspector')).toContainText('Event');
  await tabTo(page, '[data-testid="connect-target"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(edges(page)).toHaveCount(2);

  // Arrow keys move the selected node: 3 × 5 px right, one undo step.
  const doc0 = await exportedDoc(page);
  const evId = doc0.nodes.find((n: { kind: string }) => n.kind === 'event').id;
  const at0 = doc0.layout.nodes.find((p: { id: string }) => p.id === evId);
  await tabTo(page, `.react-flow__node[data-id="${evId}"]`);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await waitSaved(page);
  const doc1 = await exportedDoc(page);
  expect(doc1.layout.nodes.find((p: { id: string }) => p.id === evId)).toEqual({ id: evId, x: at0.x + 15, y: at0.y + 5 });
  await tabTo(page, `.react-flow__node[data-id="${evId}"]`);
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  expect((await exportedDoc(page)).layout.nodes.find((p: { id: string }) => p.id === evId)).toEqual(at0);
  expect((await exportedDoc(page)).wires).toHaveLength(2);
  await shot(page, 'editor-keyboard-pipeline');
  await expect(node(page, evId)).toBeVisible();
});

test('a TypeScript error under Monaco is also in the Problems panel (a warning: types are stripped before the code runs)', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('palette-handler:code').click();
  const lines = page.locator('.monaco-editor .view-lines');
  await expect(lines).toContainText('export default function', { timeout: 20_000 });
  await expect(page.getByTestId('code-markers')).toContainText('No problems', { timeout: 20_000 });
  const warnings = async () => Number.parseInt((await page.getByTestId('warning-count').textContent()) ?? '', 10);
  const before = await warnings();
  await lines.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type("const n: number = 'x';");
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('code-marker').first()).toContainText("Type 'string' is not assignable to type 'number'", { timeout: 20_000 });
  const panel = page.getByTestId('problems-panel');
  await expect(panel).toContainText('Type check, line 1:7', { timeout: 20_000 });
  await expect.poll(warnings).toBe(before + 1);
  // Fixed in the editor, gone from the panel.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Shift+End');
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('code-markers')).toContainText('No problems', { timeout: 20_000 });
  await expect.poll(warnings).toBe(before);
  await expect(panel).not.toContainText('Type check');
});

test('the keys act on the node the focus is on, which shows a ring: F2 and Delete there leave a node selected elsewhere alone', async ({ page }) => {
  await openApp(page);
  const wrapper = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
  const ring = (id: string) => wrapper(id).locator('> .hw-node').evaluate((el) => {
    const cs = getComputedStyle(el);
    return cs.outlineStyle === 'none' ? 0 : parseFloat(cs.outlineWidth);
  });
  // Select "Dangerous tools" (Tab to it, Enter), then Tab on: "Destructive command" has the focus, not the selection.
  await tabTo(page, '.react-flow__node[data-id="m-dangerous-tools"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'm-dangerous-tools');
  await page.keyboard.press('Tab');
  await expect(wrapper('m-destructive-command')).toBeFocused();
  // The focus ring is on the focused card only (the selected one shows its selection, not a ring).
  expect(await ring('m-destructive-command')).toBeGreaterThanOrEqual(2);
  expect(await ring('m-dangerous-tools')).toBe(0);
  await shot(page, 'editor-keyboard-focus-ring');

  // F2 renames the focused node (it had renamed the selected one), and selects it.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('node-rename')).toBeFocused();
  await page.keyboard.type('Rm commands');
  await page.keyboard.press('Enter');
  await expect(wrapper('m-destructive-command')).toBeFocused();
  await expect(node(page, 'm-destructive-command')).toContainText('Rm commands');
  await expect(node(page, 'm-dangerous-tools')).toContainText('Dangerous tools');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'm-destructive-command');

  // Delete removes the focused node (it had removed the selected one); the focus goes to the canvas, not to the page.
  await page.keyboard.press('Shift+Tab');
  await expect(wrapper('m-dangerous-tools')).toBeFocused();
  await page.keyboard.press('Delete');
  await expect(wrapper('m-dangerous-tools')).toHaveCount(0);
  await expect(wrapper('m-destructive-command')).toHaveCount(1);
  await expect(page.getByTestId('canvas')).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect(wrapper('m-dangerous-tools')).toHaveCount(1);

  // A focused wire: Backspace removes that wire, and the selected node stays.
  await tabTo(page, '.react-flow__edge[data-id=\'["ev-input","m-prompt-injection"]\']');
  await page.keyboard.press('Backspace');
  await expect(page.locator('.react-flow__edge[data-id=\'["ev-input","m-prompt-injection"]\']')).toHaveCount(0);
  await expect(wrapper('m-destructive-command')).toHaveCount(1);
  await expect(page.getByTestId('canvas')).toBeFocused();
});

test('the inspector\'s Delete button gives the focus to the canvas, not to the page', async ({ page }) => {
  await openApp(page);
  await tabTo(page, '.react-flow__node[data-id="m-prompt-injection"]');
  await page.keyboard.press('Enter');
  await tabTo(page, '[data-testid="inspector-delete"]');
  await page.keyboard.press('Enter');
  await expect(page.locator('.react-flow__node[data-id="m-prompt-injection"]')).toHaveCount(0);
  await expect(page.getByTestId('canvas')).toBeFocused();
  // From there the keyboard goes on in the canvas: Ctrl+Z brings the node back.
  await page.keyboard.press('Control+z');
  await expect(page.locator('.react-flow__node[data-id="m-prompt-injection"]')).toHaveCount(1);
});

test('Monaco keeps Tab for indenting and lets the keyboard out: Escape then Tab (or Shift+Tab) moves the focus on, as its hint says', async ({ page }) => {
  await openApp(page);
  await tabTo(page, '[data-testid="palette-handler:code"]');
  await page.keyboard.press('Enter');
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
  const textbox = page.locator('.monaco-editor [role="textbox"]');
  await tabTo(page, '.monaco-editor [role="textbox"]');
  await expect(page.getByTestId('code-tab-hint')).toHaveText('Esc, Tab leaves the editor');
  await expect(textbox).toHaveAttribute('aria-label', /Escape then Tab leaves the editor/);
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('const a = 1;');
  await page.keyboard.press('Tab');
  await expect(textbox).toBeFocused();

  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Time limit (ms)')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(textbox).toBeFocused();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('code-expand')).toBeFocused();
  // Escape, then typing, then Tab: Tab indents again.
  await page.keyboard.press('Tab');
  await expect(textbox).toBeFocused();
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await page.keyboard.press('Tab');
  await expect(textbox).toBeFocused();
  await waitSaved(page);
  expect(codeSource(await exportedDoc(page))).toBe('const a = 1;    ');
});

test('Escape on a focused wire unselects it and keeps the focus there, so Tab goes on from the wire', async ({ page }) => {
  await openApp(page);
  const wire = page.locator('.react-flow__edge[aria-label="Wire from Dangerous tools to Destructive command"]');
  await tabTo(page, '.react-flow__edge[aria-label="Wire from Dangerous tools to Destructive command"]');
  await page.keyboard.press('Enter');
  await expect(wire).toHaveClass(/selected/);
  await page.keyboard.press('Escape');
  await expect(wire).not.toHaveClass(/selected/);
  await expect(wire).toBeFocused();
});

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('Tab meets the nodes first, then the wires, then leaves the canvas; Shift+Tab walks back the same way', async ({ page }) => {
    await openApp(page);
    // What has the focus: a node or a wire of the canvas (by its name), else "out".
    const where = () => page.evaluate(() => {
      const a = document.activeElement;
      const el = a?.closest('.react-flow__node, .react-flow__edge');
      if (el) return `${el.classList.contains('react-flow__node') ? 'node' : 'wire'}: ${el.getAttribute('aria-label')}`;
      return a?.closest('[data-testid="canvas"]') ? 'canvas' : a === document.body ? 'body' : 'out';
    });
    const walk = async (keyName: string, times: number) => {
      const seen: string[] = [];
      for (let i = 0; i < times; i++) {
        await page.keyboard.press(keyName);
        seen.push(await where());
      }
      return seen;
    };
    const nodes = await page.locator('[data-testid="canvas"] .react-flow__node').count();
    const wires = await page.locator('[data-testid="canvas"] .react-flow__edge').count();
    expect(nodes).toBe(13);
    expect(wires).toBe(9);
    await tabTo(page, '[data-testid="canvas"]');
    // React Flow draws the wires before the nodes: Tab met the nine wires before the first of the 13 nodes.
    const forward = await walk('Tab', nodes + wires + 1);
    expect(forward.slice(0, nodes).every((s) => s.startsWith('node: ')), `the first ${nodes} stops are nodes: ${forward.join(' | ')}`).toBe(true);
    expect(forward[0]).toBe('node: Event tool.before_call');
    expect(forward.slice(nodes, nodes + wires).every((s) => s.startsWith('wire: ')), `then the ${wires} wires: ${forward.join(' | ')}`).toBe(true);
    expect(forward[nodes]).toBe('wire: Wire from tool.before_call to Dangerous tools');
    expect(new Set(forward.slice(0, nodes + wires)).size, 'each node and wire once').toBe(nodes + wires);
    // Past the last wire the keyboard leaves the canvas (for what follows it on the page, not the first node).
    expect(forward[nodes + wires]).toBe('out');
    // Shift+Tab comes back in at the last wire, walks the wires back, then the nodes.
    const back = await walk('Shift+Tab', wires + 1);
    expect(back).toEqual([...forward.slice(nodes, nodes + wires).reverse(), forward[nodes - 1]]);
    // A wire reached this way keeps its keys: Enter selects it, Backspace removes it and the canvas keeps the focus.
    await walk('Tab', 3);
    expect(await where()).toBe(forward[nodes + 2]);
    await page.keyboard.press('Enter');
    await expect(page.locator('.react-flow__edge.selected')).toHaveCount(1);
    await page.keyboard.press('Backspace');
    await expect(edges(page)).toHaveCount(wires - 1);
    await expect(page.getByTestId('canvas')).toBeFocused();
    // The keys' help says so.
    await page.keyboard.press('?');
    await expect(page.getByTestId('help-editor-keys')).toContainText('each node, then each wire');
  });
});
