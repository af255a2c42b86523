import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import './contextMenu.css';

/**
 * A context menu as the ARIA menu pattern has it: role=menu with menuitems, focus on the first item when it
 * opens, ↑/↓/Home/End move, Enter/Space choose, → or Enter opens a sub-list ("Connect to…", "Add node
 * here…"), ← or Escape goes back one level, Escape at the top (or a click outside, or Tab) closes it and
 * gives the focus back to where it was.
 */
export type MenuItem =
  | { label: string; run: () => void; testId: string; checked?: boolean; disabled?: boolean; hint?: string }
  | { label: string; items: () => MenuItem[]; testId: string; empty: string; disabled?: boolean };

export interface MenuState {
  x: number;
  y: number;
  label: string;
  items: MenuItem[];
  /** Where the focus goes back to when the menu closes. */
  returnFocus: HTMLElement | null;
}

export function ContextMenu({ menu, onClose }: { menu: MenuState; onClose: (restoreFocus: boolean) => void }) {
  const [stack, setStack] = useState<{ label: string; items: MenuItem[]; empty?: string }[]>([{ label: menu.label, items: menu.items }]);
  const [active, setActive] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: menu.x, top: menu.y });
  const level = stack[stack.length - 1]!;
  const enabled = level.items.map((it, i) => (it.disabled ? -1 : i)).filter((i) => i >= 0);

  // Kept inside the window.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({ left: Math.max(4, Math.min(menu.x, window.innerWidth - r.width - 4)), top: Math.max(4, Math.min(menu.y, window.innerHeight - r.height - 4)) });
  }, [menu.x, menu.y, stack]);

  useEffect(() => {
    ref.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[active]?.focus();
  }, [active, stack]);

  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose(false);
    };
    window.addEventListener('pointerdown', onDown, true);
    return () => window.removeEventListener('pointerdown', onDown, true);
  }, [onClose]);

  const choose = (i: number) => {
    const it = level.items[i];
    if (!it || it.disabled) return;
    if ('items' in it) {
      setStack([...stack, { label: it.label, items: it.items(), empty: it.empty }]);
      setActive(0);
      return;
    }
    onClose(true);
    it.run();
  };

  const move = (delta: number) => {
    if (enabled.length === 0) return;
    const at = enabled.indexOf(active);
    setActive(enabled[(at + delta + enabled.length) % enabled.length]!);
  };

  const onKeyDown = (e: ReactKeyboardEvent) => {
    e.stopPropagation();
    if (e.key === 'ArrowDown') move(1);
    else if (e.key === 'ArrowUp') move(-1);
    else if (e.key === 'Home') setActive(enabled[0] ?? 0);
    else if (e.key === 'End') setActive(enabled[enabled.length - 1] ?? 0);
    else if (e.key === 'Enter' || e.key === ' ') choose(active);
    else if (e.key === 'ArrowRight' && level.items[active] && 'items' in level.items[active]!) choose(active);
    else if ((e.key === 'Escape' || e.key === 'ArrowLeft') && stack.length > 1) {
      setStack(stack.slice(0, -1));
      setActive(0);
    } else if (e.key === 'Escape' || e.key === 'Tab') onClose(true);
    else return;
    e.preventDefault();
  };

  return (
    <div ref={ref} className="ctx-menu" role="menu" aria-label={level.label} data-testid="context-menu" style={{ left: pos.left, top: pos.top }}
      onKeyDown={onKeyDown} onContextMenu={(e) => e.preventDefault()}>
      {stack.length > 1 && <div className="ctx-title" aria-hidden="true">{level.label}</div>}
      {level.items.length === 0 && <div className="ctx-empty">{level.empty ?? 'Nothing here'}</div>}
      {level.items.map((it, i) => {
        const sub = 'items' in it;
        const checkable = !sub && it.checked !== undefined;
        return (
          <button key={it.testId} type="button" className="ctx-item" role={checkable ? 'menuitemcheckbox' : 'menuitem'} tabIndex={i === active ? 0 : -1}
            {...(checkable ? { 'aria-checked': it.checked } : {})} {...(sub ? { 'aria-haspopup': 'menu' as const } : {})}
            aria-disabled={it.disabled || undefined} data-testid={it.testId}
            onClick={() => choose(i)} onMouseEnter={() => !it.disabled && setActive(i)}>
            <span className="check" aria-hidden="true">{checkable && it.checked ? '✓' : ''}</span>
            <span className="label">{it.label}</span>
            {!sub && it.hint && <span className="hint">{it.hint}</span>}
            {sub && <span className="hint" aria-hidden="true">›</span>}
          </button>
        );
      })}
    </div>
  );
}
