import type { Approval } from '../model/approval.ts';
import type { Decision } from '../model/decision.ts';
import type { EventMode } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import type { EarlierResult, StepCore } from './decideEvent.ts';
import { createRepeatSlots, REPEAT_WINDOW } from './repeatWindow.ts';

/** The results a straight replay answers repeated ids from [R5][E5]. */
export interface EarlierWindow {
  /** What a repeat of `id` is answered with, while its dispatch is in the window; else null. */
  get(id: string): EarlierResult | null;
  /** Keeps a dispatched step's result (read from `core` now: the core may be reused). */
  add(core: StepCore): void;
}

/**
 * The repeat window of a straight replay, its results kept in columns, one array per field (an EarlierResult is
 * made only for a repeat, which is rare). An object per dispatched event, kept for 1024 events, outlived the
 * young generation and was promoted: 115-170 ms of CPU per 100k events (docs/speed.md). The window's rule is
 * createRepeatSlots' [E5].
 * `const w = createEarlierWindow(); const earlier = w.get(e.event_id); …; if (!core.earlier && !core.not_reached) w.add(core)`
 */
export function createEarlierWindow(limit: number = REPEAT_WINDOW): EarlierWindow {
  const slots = createRepeatSlots(limit);
  const index: number[] = [];
  const decision: Decision[] = [];
  const reason: string[] = [];
  const decidedBy: (string | null)[] = [];
  const payload: JsonObject[] = [];
  const mode: EventMode[] = [];
  const approval: (Approval | null)[] = [];
  const context: (readonly string[])[] = [];
  return {
    get(id) {
      const s = slots.slotOf(id);
      if (s < 0) return null;
      return { index: index[s]!, decision: decision[s]!, reason: reason[s]!, decided_by: decidedBy[s]!, payload: payload[s]!, mode: mode[s]!, approval: approval[s]!, context: context[s]! };
    },
    add(core) {
      const s = slots.add(core.event.event_id);
      index[s] = core.index;
      decision[s] = core.decision;
      reason[s] = core.reason;
      decidedBy[s] = core.decided_by;
      payload[s] = core.payload_after;
      mode[s] = core.mode;
      approval[s] = core.approval;
      context[s] = core.context;
    },
  };
}
