/**
 * Puts the keyboard focus on a node of the canvas (React Flow's node wrapper is focusable), after the
 * current render: where focus goes back after an in-place rename or a jump from the Problems panel.
 */
export function focusNodeElement(id: string): void {
  requestAnimationFrame(() => {
    const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
    el?.focus({ preventScroll: true });
  });
}
