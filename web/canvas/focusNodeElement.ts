/**
 * Puts the keyboard focus on a node of the canvas (React Flow's node wrapper is focusable), after the
 * current render: where focus goes back after an in-place rename or a jump from the Problems panel.
 *
 * The move happens a frame later, so it gives way when the focus has gone somewhere new in between
 * (F2 pressed again at once opens a new rename box, which must keep the keys typed into it): it moves
 * only from the element that had the focus when it was asked for, or from nowhere (that element was
 * unmounted).
 */
export function focusNodeElement(id: string): void {
  const from = document.activeElement;
  requestAnimationFrame(() => {
    const now = document.activeElement;
    if (now !== from && now !== null && now !== document.body) return;
    const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
    el?.focus({ preventScroll: true });
  });
}
