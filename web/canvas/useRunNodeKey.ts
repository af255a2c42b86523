import { useEffect } from 'react';
import { useServices } from '../services/AppServices.tsx';
import { useApp } from '../store/appStore.ts';
import { keyTargets } from './useCanvasShortcuts.ts';

/**
 * Ctrl/⌘ Enter runs a node alone on the selected step or the typed event [X7]: the node the keyboard is on on the canvas, else the
 * one selected node — from the canvas, the inspector and its sample fields alike (not from the code editor,
 * where the key is Monaco's, nor under a dialog).
 */
export function useRunNodeKey(enabled: boolean): void {
  const { nodeRunner } = useServices();
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.('.monaco-editor') || document.querySelector('dialog:modal')) return;
      const s = useApp.getState();
      if (s.mode !== 'edit') return;
      const { nodes } = keyTargets(e.target, s.selectedNodes, s.selectedEdges);
      if (nodes.length !== 1) return;
      e.preventDefault();
      void nodeRunner.run(nodes[0]!);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, nodeRunner]);
}
