import { useCallback, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { tabFrom } from '../ui/tabFrom.ts';

/**
 * The editor canvas's Tab order: its nodes, then its wires. React Flow draws the wires before the nodes, so Tab
 * met every wire of the pipeline before the first node (nine stops on the demo). The wires are out of the page's
 * Tab order (tabIndex -1: pipelineToFlow's `wiresAfterNodes`) and a stop after the nodes leads into them:
 * - Tab from the last node reaches the first wire; Shift+Tab from past the canvas, the last wire.
 * - Tab and Shift+Tab walk the wires in order; past the last, Tab leaves the canvas where the browser would go
 *   from the stop; before the first, Shift+Tab goes back to the last node.
 * The wire keeps its keys (Enter selects it, Delete removes it, Shift+F10 opens its menu) as before.
 */
export function useWireTabOrder(pane: RefObject<HTMLElement | null>): {
  stopRef: RefObject<HTMLSpanElement | null>;
  onStopFocus: (e: FocusEvent<HTMLSpanElement>) => void;
  onKeyDown: (e: KeyboardEvent) => void;
} {
  const stopRef = useRef<HTMLSpanElement>(null);
  const wires = useCallback(() => [...(pane.current?.querySelectorAll<SVGGElement>('.react-flow__edge') ?? [])], [pane]);

  // The stop holds the focus for no longer than it takes to hand it on (it is no control of its own).
  const onStopFocus = useCallback((e: FocusEvent<HTMLSpanElement>) => {
    const list = wires();
    const fromInside = e.relatedTarget instanceof Node && !!pane.current?.contains(e.relatedTarget);
    const to = fromInside ? list[0] : list[list.length - 1];
    if (to) to.focus({ preventScroll: true });
    else tabFrom(e.currentTarget, !fromInside)?.focus();
  }, [pane, wires]);

  const onKeyDown = useCallback((e: KeyboardEvent) => {
    if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey || !stopRef.current) return;
    const wire = (e.target as Element).closest?.('.react-flow__edge');
    if (!wire) return;
    const list = wires();
    const i = list.indexOf(wire as SVGGElement);
    const next = list[e.shiftKey ? i - 1 : i + 1];
    const to = i >= 0 && next ? next : tabFrom(stopRef.current, e.shiftKey);
    if (!to) return;
    e.preventDefault();
    // Inside the canvas the view does not scroll (React Flow moves it); outside, as a Tab would.
    to.focus({ preventScroll: !!pane.current?.contains(to) });
  }, [wires]);

  return { stopRef, onStopFocus, onKeyDown };
}
