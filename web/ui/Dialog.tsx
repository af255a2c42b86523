import { useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from './Icon.tsx';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native `<dialog>`: `showModal()` moves the focus in (to the first control, or the one
 * marked `data-autofocus`), makes the page behind inert and gives Escape a `cancel`; Tab and Shift+Tab cycle inside
 * it (the browser alone would pass through its own toolbar); when it goes, the focus goes back to what had
 * it before. Escape, × or a click on the backdrop call `onClose`.
 */
export function Dialog({ title, onClose, children, footer, testId }: { title: string; onClose: () => void; children: ReactNode; footer?: ReactNode; testId?: string }) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!d.open) d.showModal();
    // React's autoFocus focuses an element while the dialog is still closed (and writes no autofocus attribute for
    // showModal to find): a control marked data-autofocus takes the focus once the dialog is open.
    d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (d.open) d.close();
      // Back to the opener, unless it is gone (then wherever the page puts it) or something took focus since.
      if (opener?.isConnected && (document.activeElement === document.body || document.activeElement === null || d.contains(document.activeElement))) opener.focus();
    };
  }, []);

  const cycle = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab') return;
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={id} data-testid={testId} onKeyDown={cycle}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // A press on the backdrop lands on the <dialog> itself (its content is inside .dialog-inner).
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog-inner">
        <header>
          <h2 id={id}>{title}</h2>
          <button className="btn ghost icon" onClick={onClose} aria-label="Close" data-testid="dialog-close"><Icon name="close" /></button>
        </header>
        <div className="body">{children}</div>
        {footer && <footer>{footer}</footer>}
      </div>
    </dialog>
  );
}
