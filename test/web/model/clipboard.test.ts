import { describe, expect, it } from 'vitest';
import { copyNodes, parseClipboard, pasteChange } from '../../../web/model/clipboard.ts';
import { applyChange } from '../../../web/model/changes.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';

const demo = demoPipeline();

describe('copy and paste', () => {
  it('copies nodes with the wires among them only', () => {
    const clip = copyNodes(demo, ['m-dangerous-tools', 'm-destructive-command']);
    expect(clip.nodes.map((n) => n.id)).toEqual(['m-dangerous-tools', 'm-destructive-command']);
    expect(clip.wires).toEqual([{ from: 'm-dangerous-tools', to: 'm-destructive-command' }]);
    expect(clip.positions).toHaveLength(2);
  });

  it('pastes with fresh ids, shifted positions and rewired copies; undo removes them', () => {
    const clip = parseClipboard(JSON.stringify(copyNodes(demo, ['m-destructive-command', 'h-block-destructive'])))!;
    const { change, ids } = pasteChange(demo, clip, { x: 40, y: 40 });
    const { doc, inverse } = applyChange(demo, change);
    expect(ids).toEqual(['m-destructive-command-2', 'h-block-destructive-2']);
    expect(doc.wires.at(-1)).toEqual({ from: 'm-destructive-command-2', to: 'h-block-destructive-2' });
    const h = doc.nodes.find((n) => n.id === 'h-block-destructive-2');
    expect(h?.kind === 'handler' && h.name).toBe('Block destructive commands (copy)');
    expect(doc.layout?.nodes.find((p) => p.id === 'h-block-destructive-2')).toEqual({ id: 'h-block-destructive-2', x: 870, y: 40 });
    expect(applyChange(doc, inverse).doc).toEqual(demo);
  });

  it('refuses text that is not a Hookwire clipboard', () => {
    expect(parseClipboard('hello')).toBeNull();
    expect(parseClipboard('{"format":"other"}')).toBeNull();
  });
});
