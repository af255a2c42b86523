import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { Pipeline } from '../engine/app.ts';
import { demoTraceJsonl } from '../web/demo/demoTrace.ts';
import { openApp } from './editorHelpers.ts';
import { BIN, ROOT } from '../test/conformance/flowSessions.ts';

/** Shared steps of the debugger specs. Elements are found by data-testid or role. */

import { FIXTURES_DIR } from '../test/shared/fixtures.ts';
/** The real recordings beside the checkout (../shared/fixtures/traces), or HOOKWIRE_FIXTURES. */
export { FIXTURES_DIR, FIXTURE_FILES, HAVE_FIXTURES, NO_FIXTURES_MESSAGE } from '../test/shared/fixtures.ts';

export function fixture(rel: string): Buffer {
  return readFileSync(join(FIXTURES_DIR, rel));
}

/** Opens the app (first run: demo pipeline and demo trace) and switches to Debug mode. */
export async function openDebugger(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('step-view')).toBeVisible();
  // The whole trace is replayed once the badges are there.
  await expect(page.getByTestId('timeline-row').first()).not.toHaveAttribute('data-outcome', '');
}

/** The step view, once it shows step `index` (0-based). */
export function stepView(page: Page, index: number): Locator {
  return page.locator(`[data-testid="step-view"][data-index="${index}"]`);
}

/** Goes to step `index` (0-based) through the "Step [n] of N" field, and waits for its explanation. */
export async function goToStep(page: Page, index: number): Promise<void> {
  const field = page.getByTestId('goto-step');
  await field.fill(String(index + 1));
  await field.press('Enter');
  await expect(stepView(page, index)).toBeVisible();
}

/** Goes to step `index` (0-based) by typing into the "Step [n] of N" field with the keyboard. */
export async function typeStep(page: Page, index: number): Promise<void> {
  await page.getByTestId('goto-step').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(String(index + 1));
  await page.keyboard.press('Enter');
  await expect(stepView(page, index)).toBeVisible();
}

/** Presses a key with the focus outside any field, as a person using the shortcuts would. */
export async function key(page: Page, k: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(k);
}

/** The canvas node wrapper, whose classes say how the current step went through it. */
export function flowNode(page: Page, id: string): Locator {
  return page.locator(`.react-flow__node[data-id="${id}"]`);
}

export function timelineRow(page: Page, index: number): Locator {
  return page.locator(`[data-testid="timeline-row"][data-index="${index}"]`);
}

/** The demo trace with some lines broken: line numbers are 1-based, the header is line 1. */
export function brokenDemoTrace(broken: Record<number, string>): Buffer {
  const lines = demoTraceJsonl().split('\n');
  for (const [line, text] of Object.entries(broken)) lines[Number(line) - 1] = text;
  return Buffer.from(lines.join('\n'));
}

/** Drops a file on the debugger the way a browser does (a DataTransfer with a File). */
export async function dropFile(page: Page, name: string, content: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name: n, content: c }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([c], n, { type: 'application/json' }));
      return dt;
    },
    { name, content },
  );
  const target = page.getByTestId('timeline');
  await target.dispatchEvent('dragover', { dataTransfer });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Opens the app, imports `doc` through the editor's Import dialog (a new library entry), and goes to Debug. */
export async function importPipelineAndDebug(page: Page, doc: Pipeline): Promise<void> {
  await openApp(page, { fit: false });
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-text').fill(JSON.stringify(doc));
  await page.getByTestId('import-confirm').click();
  await expect(page.getByTestId('pipeline-title')).toHaveText(doc.name);
  await page.getByTestId('mode-debug').click();
}

/** One replayed event, as `hookwire replay --json` prints it and the debugger's replay worker returns it [P10]. */
export interface ReplayRow {
  event_id: string;
  type: string;
  decision: string;
  reason: string;
  decided_by: string | null;
  payload: unknown;
}

/**
 * `hookwire replay <pipeline> <trace> --json --no-check`, run as a real subprocess: one row per event [P10].
 * --no-check: the app is compared with the CLI's replay, not with the decisions the trace recorded [R16].
 */
export function cliReplayRows(pipeline: string, trace: string): ReplayRow[] {
  const out = execFileSync(process.execPath, [BIN, 'replay', pipeline, trace, '--json', '--no-check'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as ReplayRow);
}

/** The app's rows, from the debugger's own replay worker (devtools handle, web/debugger/debuggerDevtools.ts). */
export function appReplayRows(page: Page): Promise<ReplayRow[]> {
  return page.evaluate(() => (globalThis as unknown as { hookwire: { debugger: { decisions(): Promise<ReplayRow[]> } } }).hookwire.debugger.decisions());
}

/**
 * A real `hookwire serve` on `pipeline` and `stateDir`, on `port` ('0': any free one), that lets this test's app in
 * (--allow-origin); resolves once it listens and has rebuilt its sessions, with the port and token it printed.
 */
export async function startServe(pipeline: string, stateDir: string, port = '0'): Promise<{ server: ChildProcess; port: number; token: string }> {
  const origin = `http://127.0.0.1:${process.env.HOOKWIRE_E2E_PORT ?? 4173}`;
  const server = spawn(process.execPath, [BIN, 'serve', pipeline, '--port', port, '--state-dir', stateDir, '--allow-origin', origin], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    server.on('exit', (c) => reject(new Error(`serve exited ${c}`)));
    server.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const p = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const t = /token (\S+) \(also in/.exec(out)?.[1];
      if (p && t && out.includes('rebuilt')) {
        server.removeAllListeners('exit');
        resolve({ server, port: Number(p), token: t });
      }
    });
  });
}

/** "Connect to a server…", the address of the `hookwire serve` on `port` and its token typed with the keyboard, Enter. */
export async function connectLive(page: Page, port: number, token: string): Promise<void> {
  await page.getByTestId('live-connect').click();
  await page.getByTestId('live-url').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(`http://127.0.0.1:${port}`);
  await page.getByTestId('live-token').click();
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
}
