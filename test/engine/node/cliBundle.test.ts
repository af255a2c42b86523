// The checkout's freshness check (engine/node/cliBundle.cjs), run by every hook call from a checkout: a bundle
// is used only when none of the engine files it was made of (listed at build time) is newer than it.
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_BUNDLE, HOOK_FAST_BUNDLE, READING_BUNDLE, freshBundle } from '../../../engine/node/cliBundle.cjs';

function bundleAt(time: number, inputs: string[] | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-bundle-'));
  const file = join(dir, 'main.js');
  writeFileSync(file, 'export {};\n');
  if (inputs) writeFileSync(join(dir, 'inputs.json'), JSON.stringify(inputs));
  utimesSync(file, time, time);
  return file;
}

const FUTURE = Date.now() / 1000 + 365 * 86400;
const PAST = 1;

describe('prebuilt bundle freshness', () => {
  it('fresh when no listed input nor package.json is newer than the bundle; stale when one is', () => {
    expect(freshBundle(bundleAt(FUTURE, ['node/hookMain.ts', 'match/regex.ts']))).not.toBeNull();
    expect(freshBundle(bundleAt(PAST, ['node/hookMain.ts']))).toBeNull();
  });

  it('stale when a listed input is gone; a bundle that does not exist is no bundle', () => {
    expect(freshBundle(bundleAt(FUTURE, ['node/hookMain.ts', 'node/noSuchModule.ts']))).toBeNull();
    expect(freshBundle(join(tmpdir(), 'hookwire-no-such-bundle', 'main.js'))).toBeNull();
  });

  it('without a list (or with a broken one) every engine source is compared, as before the list', () => {
    expect(freshBundle(bundleAt(FUTURE, null))).not.toBeNull();
    expect(freshBundle(bundleAt(PAST, null))).toBeNull();
    const broken = bundleAt(PAST, null);
    writeFileSync(join(broken, '..', 'inputs.json'), '["node/hook');
    expect(freshBundle(broken)).toBeNull();
  });

  it("the hook bundle's list names its entry and the engine files a hook call runs", async (ctx) => {
    if (!freshBundle(HOOK_BUNDLE)) ctx.skip(); // not built (or stale) in this checkout
    const { readFileSync } = await import('node:fs');
    const list = JSON.parse(readFileSync(join(HOOK_BUNDLE, '..', 'inputs.json'), 'utf8')) as string[];
    expect(list).toEqual(expect.arrayContaining(['node/hookMain.ts', 'node/commands/claudeHookCommand.ts', 'dispatch/dispatch.ts', 'match/regex.ts', 'model/parsePipeline.ts']));
    expect(list.every((f) => !f.startsWith('..') && !f.includes('node_modules'))).toBe(true);
  });

  it("the fast hook route's bundle is stale whenever the hook bundle is: the same list, the parts it leaves out included", async (ctx) => {
    if (!freshBundle(HOOK_FAST_BUNDLE)) ctx.skip(); // not built (or stale) in this checkout
    const { readFileSync } = await import('node:fs');
    const list = (bundle: string) => JSON.parse(readFileSync(join(bundle, '..', 'inputs.json'), 'utf8')) as string[];
    expect(list(HOOK_FAST_BUNDLE)).toEqual(list(HOOK_BUNDLE));
    // parsePipeline validated the cache entries the fast route trusts; recordingFile is one of the parts it leaves out.
    expect(list(HOOK_FAST_BUNDLE)).toEqual(expect.arrayContaining(['model/parsePipeline.ts', 'node/serve/recordingFile.ts']));
  });

  it("the reading commands' bundle lists its entry and only files that exist (a plugin's stand-in modules are no input)", async (ctx) => {
    const { existsSync, readFileSync } = await import('node:fs');
    if (!existsSync(READING_BUNDLE)) ctx.skip(); // not built in this checkout
    const list = JSON.parse(readFileSync(join(READING_BUNDLE, '..', 'inputs.json'), 'utf8')) as string[];
    expect(list).toEqual(expect.arrayContaining(['node/readingMain.ts', 'node/cli.ts', 'node/commands/replayCommand.ts']));
    expect(list.filter((f) => !existsSync(join(__dirname, '..', '..', '..', 'engine', f)))).toEqual([]);
  });

  it('the bundles bin.cjs compiles through the code cache are ASCII only: V8 holds such a source one byte a character, any other character makes all of it two', async (ctx) => {
    const { existsSync, readFileSync } = await import('node:fs');
    const bundles = [READING_BUNDLE, HOOK_FAST_BUNDLE].filter((b) => existsSync(b));
    if (bundles.length === 0) ctx.skip(); // not built in this checkout
    // esbuild escapes non-ASCII text in strings, but not in regular expression literals nor in String.raw templates:
    // those are written with \u escapes at the source (specStoryTools.ts, replayCheck.ts, sandbox/prelude.ts).
    for (const b of bundles) expect({ bundle: b, nonAscii: readFileSync(b, 'latin1').match(/[^\x00-\x7f].{0,40}/gs) ?? [] }).toEqual({ bundle: b, nonAscii: [] });
  });
});
