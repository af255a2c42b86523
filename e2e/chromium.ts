import { existsSync } from 'node:fs';

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
