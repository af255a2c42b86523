// What the debugger's measurement scripts share (debuggerPerf.ts, breakpointPerf.ts): the big trace they import,
// a probe in the page that times a key press to the step it shows, and the debugger's status.
import type { Page } from '@playwright/test';
import type { Trace } from '../../engine/trace/traceTypes.ts';
import { demoTrace } from '../../web/demo/demoTrace.ts';

/** The demo trace's 22 events repeated to `n`, each with an id and a time of its own. */
export function bigTrace(n: number): Trace {
  const demo = demoTrace();
  const events = Array.from({ length: n }, (_, i) => {
    const e = demo.events[i % demo.events.length]!;
    return { ...e, event_id: `perf-${i}`, ts: new Date(Date.parse(demo.header.created) + i * 1000).toISOString() };
  });
  return { header: { ...demo.header, trace_id: 'perf', title: `Perf: ${n.toLocaleString('en')} events` }, events };
}

/**
 * Installs the page's probe: the time of the last keydown, the main thread's long tasks (>50 ms) and the gaps
 * between animation frames, and the time the trace file input changed (`__importStart`). Page code goes as text:
 * tsx would add helpers (__name) to functions that the page does not have.
 */
export const INSTALL_PROBE = `(() => {
  window.__probe = { t0: 0, long: [], gaps: [] };
  window.addEventListener('keydown', () => { window.__probe.t0 = performance.now(); }, true);
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__probe.long.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
  let last = performance.now();
  const frame = (t) => { window.__probe.gaps.push([t, t - last]); last = t; if (window.__probe.gaps.length > 20000) window.__probe.gaps.splice(0, 10000); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  document.querySelector('[data-testid="trace-file"]').addEventListener('change', () => { window.__importStart = performance.now(); }, true);
})()`;

export interface KeyTiming {
  /** From the keydown to the frame after the step view shows the step. */
  ms: number;
  /** The main thread's long tasks in that time: how many, the longest; and its longest gap between frames. */
  long: number;
  longest: number;
  gap: number;
}

/** Presses `keyName` and waits (at most `limitMs`) for the step view at `index`; throws when it does not come. */
export async function timedKey(page: Page, keyName: string, index: number, limitMs = 20_000): Promise<KeyTiming> {
  await page.evaluate(`(() => { window.__probe.done = new Promise((resolve) => {
    const ready = () => document.querySelector('[data-testid="step-view"][data-index="${index}"]:not(.loading)');
    const finish = () => requestAnimationFrame(() => resolve(performance.now() - window.__probe.t0));
    if (ready()) { finish(); return; }
    setTimeout(() => resolve(-1), ${limitMs});
    const obs = new MutationObserver(() => { if (ready()) { obs.disconnect(); finish(); } });
    obs.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-index', 'class'] });
  }); })()`);
  await page.keyboard.press(keyName);
  const t = (await page.evaluate('window.__probe.done')) as number;
  if (t < 0) throw new Error(`step ${index} was not shown within ${limitMs / 1000} s after ${keyName} (position ${(await status(page)).position})`);
  const [long, longest, gap] = (await page.evaluate(`(() => {
    const p = window.__probe, from = p.t0, to = p.t0 + ${t};
    const long = p.long.filter(([s]) => s >= from && s <= to);
    const gaps = p.gaps.filter(([s]) => s >= from && s <= to).map(([, g]) => g);
    return [long.length, Math.max(0, ...long.map(([, d]) => d)), Math.max(0, ...gaps)];
  })()`)) as [number, number, number];
  return { ms: t, long, longest, gap };
}

/** What the debugger shows (the app's test handle). */
export async function status(page: Page): Promise<{ timeline: boolean; coverage: boolean; position: number; events: number }> {
  return page.evaluate('globalThis.hookwire.debugger.status()') as never;
}
