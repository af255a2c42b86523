import type { KeyboardEvent } from 'react';

/**
 * Arrow keys on a tab strip, as the WAI-ARIA tabs pattern has them: ←/→ go to the previous / next tab, Home / End
 * to the first / last, and the tab reached is opened (automatic activation: every panel here is cheap to show).
 * The debugger's single-key shortcuts leave these keys to a tab strip.
 */
export function onTablistKeyDown(e: KeyboardEvent<HTMLElement>): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tabs = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]:not([disabled])')];
  const at = tabs.indexOf(e.target as HTMLElement);
  if (at < 0) return;
  const to = e.key === 'ArrowRight' ? (at + 1) % tabs.length
    : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length
    : e.key === 'Home' ? 0
    : e.key === 'End' ? tabs.length - 1
    : -1;
  if (to < 0) return;
  e.preventDefault();
  tabs[to]!.focus();
  tabs[to]!.click();
}
