import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which Chromium Playwright drives. PLAYWRIGHT_CHROMIUM wins; then Debian's /usr/bin/chromium (Playwright
 * cannot download browsers on these machines); otherwise undefined, so Playwright uses its own download
 * (a developer laptop after `npx playwright install chromium`).
 */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.PLAYWRIGHT_CHROMIUM;
  if (fromEnv) return fromEnv;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Browser UI that a full Chromium builds for every window even when headless, and that no test looks at: the
 * omnibox's suggestion popups, two WebUI pages (chrome://omnibox-popup.top-chrome/) loaded in a renderer of their
 * own as each window opens. Every test has a context of its own, so a window: Debian's Chromium 156 spent ~1.5 s
 * of CPU per test on them, ~7% of the e2e suite's CPU (docs/performance.md, "The e2e suite"). Playwright's own
 * download (chromium-headless-shell) has no browser UI.
 */
export const UNUSED_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * The launch options of the e2e tests. With a full Chromium they switch off UNUSED_BROWSER_UI through
 * e2e/chromiumLaunch.sh, which joins the --disable-features lists (Chromium keeps only the last one given, and
 * Playwright passes one of its own); with Playwright's download, nothing to switch off.
 */
export function e2eChromium(): { executablePath?: string; args: string[]; env?: Record<string, string> } {
  const real = chromiumExecutable();
  if (!real) return { args: [] };
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return {
    executablePath: join(import.meta.dirname, 'chromiumLaunch.sh'),
    args: [`--disable-features=${UNUSED_BROWSER_UI.join(',')}`],
    env: { ...env, HOOKWIRE_CHROMIUM_REAL: real },
  };
}
