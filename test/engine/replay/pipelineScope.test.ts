// [R6][R17] One rule for which recorded decisions a replay compares, in every place that says "divergent": a
// decision recorded by another version of the pipeline is not compared, so its step is not divergent and says
// which versions they are (the debugger shows the step; before, it flagged it divergent while `hookwire replay`
// did not count it). The step's flag and the CLI's check (`checkedAs`) agree on every step, whatever the versions.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createReplayer, createReplayRun, type TraceEvent } from '../../../engine/index.ts';
import { checkedAs, createReplayCheck } from '../../../engine/replay/replayCheck.ts';
import { otherPipelineOf } from '../../../engine/replay/pipelineScope.ts';
import { compile } from '../helpers.ts';
import { te } from './helpers.ts';

const DOC = {
  format: 'hookwire.pipeline', version: 1, name: 'scope',
  nodes: [
    { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
    { id: 'm', kind: 'matcher', when: { 'payload.cmd': { prefix: 'rm' } } },
    { id: 'h', kind: 'handler', name: 'no rm', order: 10, action: { type: 'block', reason: 'no rm' } },
  ],
  wires: [{ from: 'ev', to: 'm' }, { from: 'm', to: 'h' }],
};
const MINE = 'sha256:1111111111111111';
const versions = fc.constantFrom(undefined, MINE, 'sha256:2222222222222222');
const eventArb = fc.record({ cmd: fc.constantFrom('rm -rf /', 'ls'), recorded: fc.constantFrom('continue', 'block_action', null), by: versions });

function traceOf(plan: { cmd: string; recorded: string | null; by: string | undefined }[]): TraceEvent[] {
  return plan.map((p, i) => te(`e${i}`, 'tool.before_call', { cmd: p.cmd }, p.recorded === null ? {} : { recorded: { decision: p.recorded as 'continue', ...(p.by ? { pipeline: p.by } : {}) } }));
}

describe('[R17] which recorded decisions are compared', () => {
  it('[R6][R17] a step is divergent exactly when the CLI check compares it and the decisions differ; another version says both versions instead', () => {
    const c = compile(DOC);
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 12 }), fc.constantFrom(MINE, null), (plan, version) => {
        const events = traceOf(plan);
        const run = createReplayRun(c, { explain: false, pipelineVersion: version });
        const check = createReplayCheck(version, 'own');
        const replayer = createReplayer(c, events, { pipelineVersion: version, checkpointEvery: 3 });
        for (const [i, e] of events.entries()) {
          const step = run.push(e);
          const compared = checkedAs(step, version, 'own') === 'compared';
          const mismatch = check.add(step);
          expect(step.divergent).toBe(compared && step.recorded!.decision !== step.decision);
          expect(step.divergent).toBe(mismatch !== null);
          expect(replayer.step(i).divergent).toBe(step.divergent);
          const other = otherPipelineOf(e.recorded, version);
          const note = step.notes.find((n) => n.kind === 'other_pipeline');
          if (other) expect(note?.text).toContain(`Recorded with pipeline version ${other}; this is ${version}`);
          else expect(note).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('[R17] without a version every recorded decision is compared (an import, an older recording)', () => {
    const c = compile(DOC);
    const run = createReplayRun(c, { explain: false });
    const step = run.push(te('e1', 'tool.before_call', { cmd: 'rm x' }, { recorded: { decision: 'continue', pipeline: 'sha256:2222222222222222' } }));
    expect(step.divergent).toBe(true);
  });
});
