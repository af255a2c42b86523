import type { ReactNode } from 'react';
import { onTablistKeyDown } from './tablistKeys.ts';

/**
 * A tab strip as the WAI-ARIA tabs pattern has it: one Tab stop (the selected tab; the others are reached
 * with the arrow keys, Home and End: `onTablistKeyDown`), each tab a button that opens its panel.
 */
export function TabList({ label, className = 'tabs', children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className} role="tablist" aria-label={label} onKeyDown={onTablistKeyDown}>
      {children}
    </div>
  );
}

export function Tab({ selected, onSelect, testId, children }: { selected: boolean; onSelect: () => void; testId: string; children: ReactNode }) {
  return (
    <button type="button" role="tab" aria-selected={selected} tabIndex={selected ? 0 : -1} onClick={onSelect} data-testid={testId}>
      {children}
    </button>
  );
}
