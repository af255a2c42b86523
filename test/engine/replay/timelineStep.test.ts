import { describe, expect, it } from 'vitest';
import { timelineStep } from '../../../engine/replay/timelineStep.ts';
import { NO_RECORD, OUTCOMES, STEP_FLAG, type ReplayTimeline } from '../../../engine/replay/types.ts';

describe('timelineStep', () => {
  it('[R10] decodes a packed timeline step: outcome, recorded decision and flags; past the end is null', () => {
    const t = {
      count: 2,
      outcome: Uint8Array.from([OUTCOMES.indexOf('block_action'), 0]),
      flags: Uint16Array.from([STEP_FLAG.divergent | STEP_FLAG.payload_changed, STEP_FLAG.duplicate | STEP_FLAG.context]),
      recorded: Uint8Array.from([0, NO_RECORD]),
    } as unknown as ReplayTimeline;
    expect(timelineStep(t, 0)).toMatchObject({ outcome: 'block_action', recorded: 'continue', divergent: true, payload_changed: true, duplicate: false });
    expect(timelineStep(t, 1)).toMatchObject({ outcome: 'continue', recorded: null, duplicate: true, divergent: false, context: true, denied: false });
    expect(timelineStep(t, 2)).toBeNull();
  });
});
