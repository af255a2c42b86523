import { describe, expect, it } from 'vitest';
import { createReplayer, replayTrace, type TraceEvent } from '../../../engine/index.ts';
import { timelineStep } from '../../../engine/replay/timelineStep.ts';
import { block, compile, ev, handler, match, pipeline } from '../helpers.ts';
import { te } from './helpers.ts';

/** Blocks rm with a reason; everything else continues. */
const policy = () =>
  compile(pipeline([ev('before', 'tool.before_call'), match('rm', { 'payload.tool_name': 'rm' }), handler('block-rm', block('no rm'), { name: 'Block rm' })], ['before->rm', 'rm->block-rm']));

const rm = (i: number, recorded: TraceEvent['recorded']) => te(`e${i}`, 'tool.before_call', { tool_name: 'rm' }, { at: i, recorded });

describe('[R6] the same decision for another reason or by another handler', () => {
  it('[R6] flags a recorded reason or deciding handler the replay does not give, with one sentence; the same answer is not flagged', () => {
    const events = [
      rm(0, { decision: 'block_action', reason: 'no rm', decided_by: 'block-rm', pipeline: 'sha256:0000000000000000' }),
      rm(1, { decision: 'block_action', reason: 'Blocked rm: destructive', pipeline: 'sha256:0000000000000000' }),
      rm(2, { decision: 'block_action', reason: 'no rm', decided_by: 'block-destructive' }),
      // An import records the decision alone: no reason to compare.
      rm(3, { decision: 'block_action' }),
      te('e4', 'tool.before_call', { tool_name: 'ls' }, { at: 4, recorded: { decision: 'continue', pipeline: 'sha256:0000000000000000' } }),
      // A Hookwire recording with no reason where the replay gives one.
      rm(5, { decision: 'block_action', pipeline: 'sha256:0000000000000000' }),
      // Another decision is a divergence, not another reason.
      rm(6, { decision: 'continue', pipeline: 'sha256:0000000000000000' }),
    ];
    const steps = replayTrace(policy(), events);
    expect(steps.map((s) => s.reason_differs)).toEqual([false, true, true, false, false, true, false]);
    expect(steps.map((s) => s.divergent)).toEqual([false, false, false, false, false, false, true]);
    expect(steps[1]!.divergence).toBe('Recorded BLOCK_ACTION (Blocked rm: destructive); replay decides BLOCK_ACTION too by “Block rm” (no rm): the same decision for another reason.');
    expect(steps[2]!.divergence).toBe('Recorded BLOCK_ACTION by “block-destructive” (no rm); replay decides BLOCK_ACTION too by “Block rm” (no rm): the same decision for another handler.');
    expect(steps[0]!.divergence).toBeNull();
    // [R10] the timeline flags the same steps.
    const t = createReplayer(policy(), events).timeline();
    expect(steps.map((_, i) => timelineStep(t, i)!.reason_differs)).toEqual([false, true, true, false, false, true, false]);
  });
});
