const TABBABLE = 'a[href], button, input, select, textarea, [tabindex]';

/**
 * The control Tab (or Shift+Tab) reaches from `host`, as the browser would: the next (previous) tabbable element
 * in document order, outside `host` and its ancestors, inside the modal dialog when `host` is in one. For the
 * places that keep Tab for themselves (Monaco indents with it; the canvas walks its wires after its nodes) and
 * then let the keyboard out where the browser would have gone.
 */
export function tabFrom(host: Element, back: boolean): HTMLElement | null {
  const scope = host.closest('dialog[open]') ?? document;
  const all = [...scope.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) =>
    el.tabIndex >= 0 && !el.matches(':disabled') && !host.contains(el) && !el.contains(host) && el.getClientRects().length > 0 && !el.closest('[inert]'));
  const after = all.filter((el) => host.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const before = all.filter((el) => host.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING);
  return (back ? before[before.length - 1] : after[0]) ?? null;
}
