/**
 * Puts the keyboard focus on a node of the canvas (React Flow's node wrapper is focusable), after the
 * current render: where focus goes back after an in-place rename or a jump from the Problems panel.
 *
 * The move happens a frame later, so it gives way when the focus has gone somewhere new in between
 * (F2 pressed again at once opens a new rename box, which must keep the keys typed into it): it moves
 * only from the element that had the focus when it was asked for, or from nowhere (that element was
 * unmounted). `then` runs once the node has the focus, or once it is given up: a view change made after
 * the focus is not undone by React Flow's own pan to a node focused off screen (at the zoom of that moment).
 */
export function focusNodeElement(id: string, then?: () => void): void {
  const from = document.activeElement;
  // A node just added is drawn a frame or two later, and hidden until React Flow has measured it (a hidden
  // element takes no focus): try again each frame until it has the focus, a few frames at most.
  const attempt = (left: number) => requestAnimationFrame(() => {
    const now = document.activeElement;
    if (now !== from && now !== null && now !== document.body) return then?.();
    const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
    el?.focus({ preventScroll: true });
    if (el && document.activeElement === el) return then?.();
    if (left > 0) attempt(left - 1);
    else then?.();
  });
  attempt(10);
}

/**
 * After an edit that removes the focused element (a deleted node or wire, the inspector's Delete button
 * of the node it showed): the focus goes to the canvas, a frame later once the element is gone, instead
 * of being lost to the page (where Tab starts again at the top).
 */
export function focusCanvasIfLost(): void {
  requestAnimationFrame(() => {
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected) return;
    document.querySelector<HTMLElement>('.canvas-pane')?.focus({ preventScroll: true });
  });
}
