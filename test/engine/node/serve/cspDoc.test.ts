// The app's Content Security Policy is said once in code (APP_CSP) and must be the same in index.html and in
// what docs/serve.md tells an operator about the live view's reach (issue 33: they had drifted).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CSP } from '../../../../engine/node/uiServer.ts';
import { ROOT } from '../runCli.ts';

const connectSrc = (policy: string) => policy.split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src'))!;

describe('the app CSP connect-src agrees everywhere', () => {
  it('index.html, APP_CSP and docs/serve.md name the same connect-src', () => {
    const html = /Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(join(ROOT, 'index.html'), 'utf8'))![1]!;
    expect(connectSrc(html)).toBe(connectSrc(APP_CSP));
    const doc = readFileSync(join(ROOT, 'docs', 'serve.md'), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`\`${connectSrc(APP_CSP)}\``);
  });
});
