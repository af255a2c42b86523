import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { flowExamples } from '../web/demo/flowExamples.ts';
import { exportPipelineText } from '../web/model/exportPipeline.ts';
import { flowCalls, inCallOrder, runtimeDecides, type Call, type Decided, type Session } from '../test/conformance/flowSessions.ts';
import { appReplayRows, cliReplayRows, key, stepView, typeStep, type ReplayRow } from './debuggerHelpers.ts';
import { openApp } from './editorHelpers.ts';

/**
 * Flow rules in the browser [F3][F5] (issue 31, "conformance … through the runtime, the CLI, serve and the
 * browser"): for each of the five worked examples, the sessions of test/conformance/flowSessions.ts are decided
 * live by the runtime (createRuntime, two sessions interleaved), and each session's recording, and one file with
 * both sessions interleaved, are replayed by `hookwire replay --json` (a real subprocess) and by the app's
 * debugger (its replay worker over the trace stored in IndexedDB, and what the step view shows). Every event's
 * decision, reason, deciding handler and payload in the app equals the CLI's; the tool events' decisions and
 * reasons equal the runtime's. In the interleaved file, a jump straight to the last step gives what stepping from
 * step 1 gives, and neither session's memory leaks into the other.
 */


interface Example {
  name: string;
  calls: Call[];
  live: Decided[];
  pipeline: string;
  /** Trace files: one per session, then the interleaved one. */
  files: { name: string; path: string; text: string }[];
}

let dir: string;
const examples: Example[] = [];

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hookwire-flow-browser-'));
  for (const [n, doc] of flowExamples().entries()) {
    const { calls } = flowCalls(doc.name);
    const { decided: live, recordings } = await runtimeDecides(doc, calls);
    const pipeline = join(dir, `p${n}.json`);
    writeFileSync(pipeline, exportPipelineText(doc, { layout: false }));
    const files: Example['files'] = [];
    // Both sessions in one file, in the order the calls happened, each event naming its session.
    const byId = new Map<string, Record<string, unknown>>();
    let header: Record<string, unknown> | null = null;
    for (const [session, text] of recordings) {
      const path = join(dir, `p${n}-${session}.trace.jsonl`);
      writeFileSync(path, text);
      files.push({ name: `example${n}-${session}.trace.jsonl`, path, text });
      const [head, ...events] = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      if (session === 'A') header = head!;
      for (const e of events) {
        // The hash chain covers one session's file; the merged file is a new file, written without it.
        const { chain: _chain, ...rest } = e;
        byId.set(String(e.event_id), { ...rest, trace_id: session });
      }
    }
    const { chain: _chain, ...head } = header!;
    const interleaved = [head, ...calls.map((c) => byId.get(c.event_id)!)].map((o) => `${JSON.stringify(o)}\n`).join('');
    const path = join(dir, `p${n}-interleaved.trace.jsonl`);
    writeFileSync(path, interleaved);
    files.push({ name: `example${n}-interleaved.trace.jsonl`, path, text: interleaved });
    examples.push({ name: doc.name, calls, live, pipeline, files });
  }
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tools = (rows: readonly ReplayRow[]): Decided[] => rows.filter((r) => r.type.startsWith('tool.')).map((r) => ({ decision: r.decision, reason: r.reason }));

/** Imports a trace file into the debugger and waits until its replay is complete. */
async function importTrace(page: Page, file: Example['files'][number], events: number): Promise<void> {
  await page.getByTestId('trace-file').setInputFiles({ name: file.name, mimeType: 'application/x-ndjson', buffer: Buffer.from(file.text) });
  // Files of one example may have the same number of events: the open trace is known by its name.
  const current = page.locator('[data-testid="trace-item"][aria-current="true"]');
  await expect(current).toContainText(file.name.replace(/\.jsonl$/, ''));
  await expect(current).toContainText(`${events} events`);
  await expect(page.getByTestId('position')).toContainText(`of ${events}`);
  await expect(stepView(page, 0)).toBeVisible();
}

test('the five flow-rule examples: the browser decides every event as the CLI and the runtime do', async ({ page }) => {
  // Five pipelines, fifteen imports and about a hundred steps shown, on a machine other sessions share.
  test.setTimeout(480_000);
  await openApp(page);
  expect(examples).toHaveLength(5);
  for (const ex of examples) {
    // The example comes from the library's "Flow examples…" list, picked on the keyboard by the first letter of
    // its name (each starts with its own letter; the list adds the pipeline as soon as one is picked).
    await page.getByTestId('mode-edit').click();
    await page.getByTestId('tab-library').click();
    await page.getByTestId('library-flow-examples').focus();
    await page.keyboard.press(ex.name.replace(/^Flow: /, '')[0]!);
    await expect(page.getByTestId('pipeline-title')).toHaveText(ex.name);
    await page.getByTestId('mode-debug').click();

    const perSession = new Map<Session, Decided[]>();
    for (const file of ex.files) {
      const cli = cliReplayRows(ex.pipeline, file.path);
      await importTrace(page, file, cli.length);
      // The worker answers for the trace it has open: asked again until the new one is open there too.
      await expect.poll(() => appReplayRows(page), { message: `${ex.name}, ${file.name}: the app and the CLI differ`, timeout: 30_000 }).toEqual(cli);
      const app = await appReplayRows(page);
      const session = /-(A|B)\.trace\.jsonl$/.exec(file.name)?.[1] as Session | undefined;
      if (session) {
        perSession.set(session, tools(app));
        continue;
      }
      // The interleaved file: each session decided as live, neither one's memory in the other (its reasons name
      // steps of this file, so the decisions are compared here; the reasons above, per session).
      expect(tools(app).map((d) => d.decision), `${ex.name}: interleaved sessions`).toEqual(ex.live.map((d) => d.decision));

      // On screen: a jump straight to the last step, then every step from step 1, show the CLI's decision and reason.
      const last = cli.length - 1;
      await typeStep(page, last);
      await expect(page.getByTestId('step-outcome')).toHaveText(cli[last]!.decision.toUpperCase());
      await typeStep(page, 0);
      for (let i = 0; i < cli.length; i++) {
        const row = cli[i]!;
        await expect(stepView(page, i)).toBeVisible();
        await expect(page.getByTestId('step-outcome')).toHaveText(row.decision.toUpperCase());
        if (row.reason) await expect(page.getByTestId('step-reason')).toHaveText(row.reason);
        else await expect(page.getByTestId('step-reason')).toHaveCount(0);
        if (i < cli.length - 1) await key(page, 'j');
      }
    }
    // Each session's recording, replayed in the browser, gives the runtime's live answers, reasons and all.
    expect(inCallOrder(ex.calls, perSession), `${ex.name}: the app and the runtime differ`).toEqual(ex.live);
    expect(ex.live.some((d) => d.decision !== 'continue'), `${ex.name}: the sessions set the rule off`).toBe(true);
  }
});
