/** The debugger's transport and status icons, drawn like web/ui/Icon.tsx (16px grid, stroke = currentColor). */
const PATHS = {
  first: 'M3.5 3v10M13 3.5 6 8l7 4.5z',
  prev: 'M11.5 3.5 5 8l6.5 4.5z',
  next: 'M4.5 3.5 11 8l-6.5 4.5z',
  last: 'M12.5 3v10M3 3.5 10 8l-7 4.5z',
  play: 'M5 3l8 5-8 5z',
  pause: 'M5 3.5v9M11 3.5v9',
  block: 'M8 2a6 6 0 1 0 0 12A6 6 0 0 0 8 2zM3.8 3.8l8.4 8.4',
  diverge: 'M3 2.5v5.5a3 3 0 0 0 3 3h7M10 8.5l3 2.5-3 2.5M3 8v5.5',
  breakpoint: 'M8 3.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9z',
  run: 'M3 3l6 5-6 5zM9.5 3l5 5-5 5',
  pin: 'M6 2.5h4M7 2.5v4.5L4.5 9.5h7L9 7V2.5M8 9.5V14',
  search: 'M7 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM10 10l3.5 3.5',
  trace: 'M2.5 4h11M2.5 8h7M2.5 12h9',
  upload: 'M8 10V2.5M5 5.5l3-3 3 3M2.5 10.5v3h11v-3',
  download: 'M8 2.5V10M5 7l3 3 3-3M2.5 10.5v3h11v-3',
  question: 'M6 6a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.2V10M8 12.5v.01',
  check: 'M3 8.5 6.5 12 13 4.5',
  cross: 'M4 4l8 8M12 4l-8 8',
  pencil: 'M10.5 2.5l3 3L6 13H3v-3z',
  trash: 'M3 4h10M6 4V2.5h4V4M4.5 4l.7 9.5h5.6l.7-9.5',
  close: 'M4 4l8 8M12 4l-8 8',
  keyboard: 'M2 4.5h12v7H2zM4.5 7h.01M7 7h.01M9.5 7h.01M12 7h.01M5 9.5h6',
} as const;

export type DebugIconName = keyof typeof PATHS;

export function DebugIcon({ name, size = 14, strokeWidth = 1.6, filled = false }: { name: DebugIconName; size?: number; strokeWidth?: number; filled?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={strokeWidth} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
