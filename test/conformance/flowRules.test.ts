import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { flowExamples } from '../../web/demo/flowExamples.ts';
import { exportPipelineText } from '../../web/model/exportPipeline.ts';
import { cliReplay, flowCalls, inCallOrder, runtimeDecides, type Decided, type Session } from './flowSessions.ts';

// Conformance of flow rules [F3] across places: the runtime deciding live (createRuntime, the events of two
// sessions interleaved, one recording per session) and `hookwire replay --json` (the CLI, a real subprocess) over
// each recording give the same decision and reason for every event, for each of the five worked examples.
// `serve` with a restart mid-session is flowRulesServe.test.ts; the browser is e2e/flow-conformance.spec.ts.

const dir = mkdtempSync(join(tmpdir(), 'hookwire-flow-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('flow rules: the runtime and the CLI decide alike [F3][F5]', () => {
  for (const doc of flowExamples()) {
    it(`${doc.name}`, async () => {
      const { calls } = flowCalls(doc.name);
      const { decided: live, recordings } = await runtimeDecides(doc, calls);
      expect(live.some((x) => x.decision !== 'continue'), 'the session sets the rule off').toBe(true);

      const pipelineFile = join(dir, 'p.json');
      writeFileSync(pipelineFile, exportPipelineText(doc, { layout: false }));
      // Each session is its own recording (a trace is one session); each is replayed by the CLI on its own.
      const replayed = new Map<Session, Decided[]>();
      for (const [id, text] of recordings) {
        const traceFile = join(dir, `${id}.jsonl`);
        writeFileSync(traceFile, text);
        replayed.set(id, cliReplay(pipelineFile, traceFile));
      }
      expect(inCallOrder(calls, replayed)).toEqual(live);
    });
  }
});
