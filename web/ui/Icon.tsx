import type { Action } from '../../engine/app.ts';

/** A small set of line icons drawn for Hookwire (16px grid, stroke = currentColor). */
const PATHS = {
  event: 'M9 1.5 3.5 9H8l-1 5.5L12.5 7H8z',
  matcher: 'M2 3h12l-4.5 5.5V13l-3 1.5v-6z',
  block: 'M8 2a6 6 0 1 0 0 12A6 6 0 0 0 8 2zM3.8 3.8l8.4 8.4',
  terminate: 'M5.5 2h5L14 5.5v5L10.5 14h-5L2 10.5v-5zM6 6l4 4M10 6l-4 4',
  stop: 'M4 4h8v8H4z',
  ask: 'M8 14.5A6.5 6.5 0 1 0 8 1.5a6.5 6.5 0 0 0 0 13zM6 6a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.2v.5M8 11.5v.01',
  add_context: 'M2.5 3h11v7.5H7L4 13.5v-3H2.5zM8 5v3.5M6.25 6.75h3.5',
  rewrite: 'M10.5 2.5l3 3L6 13H3v-3zM9 4l3 3',
  audit: 'M4 2h8v12H4zM6 5h4M6 8h4M6 11h2',
  budget: 'M2.5 11a5.5 5.5 0 0 1 11 0M8 11l3-4M2.5 13.5h11',
  code: 'M5.5 4 2 8l3.5 4M10.5 4 14 8l-3.5 4',
  flow: 'M2 4h3l3 4h6M11 5.5 14 8l-3 2.5M2 12h3l1.5-2',
  undo: 'M5 3 2 6l3 3M2 6h7.5a4 4 0 0 1 0 8H6',
  redo: 'M11 3l3 3-3 3M14 6H6.5a4 4 0 0 0 0 8H10',
  layout: 'M2 3h4v3H2zM10 2h4v3h-4zM10 11h4v3h-4zM6 4.5h2v8h2M8 3.5h2',
  fit: 'M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4',
  search: 'M7 2.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zM10.3 10.3 14 14',
  focusSelection: 'M5 5h6v6H5zM2 5V2h3M11 2h3v3M14 11v3h-3M5 14H2v-3',
  zoomIn: 'M7 2.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zM10.3 10.3 14 14M5 7h4M7 5v4',
  zoomOut: 'M7 2.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zM10.3 10.3 14 14M5 7h4',
  import: 'M8 2v8M5 7l3 3 3-3M2.5 11v2.5h11V11',
  export: 'M8 10V2M5 5l3-3 3 3M2.5 11v2.5h11V11',
  plus: 'M8 3v10M3 8h10',
  copy: 'M5 5h8v9H5zM3 11V2h8',
  trash: 'M3 4h10M6 4V2.5h4V4M4.5 4l.7 9.5h5.6l.7-9.5',
  pencil: 'M10.5 2.5l3 3L6 13H3v-3z',
  close: 'M4 4l8 8M12 4l-8 8',
  play: 'M5 3l8 5-8 5z',
  library: 'M3 2.5v11M6 2.5v11M9 3l3.5 10.3',
  palette: 'M2 2h5v5H2zM9 2h5v5H9zM2 9h5v5H2zM9 9h5v5H9z',
  warning: 'M8 2 14.5 13.5h-13zM8 6.5v3.5M8 12v.01',
  expand: 'M9.5 2H14v4.5M14 2 9 7M6.5 14H2V9.5M2 14l5-5',
  collapse: 'M13.5 7H9V2.5M9 7l5-5M2.5 9H7v4.5M7 9l-5 5',
  sidebar: 'M2 2.5h12v11H2zM6 2.5v11',
  fold: 'M4 6l4 4 4-4',
  unfold: 'M4 10l4-4 4 4',
  history: 'M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2.5 2.5v2.6h2.6M8 5v3.2l2 1.3',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 14, strokeWidth = 1.6 }: { name: IconName; size?: number; strokeWidth?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth={strokeWidth} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}

/** Colour variable of a node kind or handler kind, as used on the canvas and in the palette. */
export function kindColor(kind: 'event' | 'matcher' | Action['type']): string {
  return `var(--c-${kind})`;
}
