import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../../../engine/compile/compilePipeline.ts';
import { replayTrace } from '../../../../engine/replay/replaySteps.ts';
import { demoPipeline } from '../../../../web/demo/demoPipeline.ts';
import { demoTrace } from '../../../../web/demo/demoTrace.ts';
import { pathHighlight } from '../../../../web/debugger/model/pathHighlight.ts';
import { edgeId } from '../../../../web/model/pipelineToFlow.ts';

const doc = demoPipeline();
const compiled = (() => {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error('demo pipeline does not compile');
  return r.compiled;
})();
const steps = replayTrace(compiled, demoTrace().events);
const ids = doc.nodes.map((n) => n.id);
const stepOf = (eventId: string) => steps.find((s) => s.event.event_id === eventId)!;

describe('canvas highlight of the path an event took (read from the Explanation)', () => {
  it('a blocked rm -rf: event node, both matchers passed, the block handler fired and decided', () => {
    const h = pathHighlight(stepOf('demo:12:tool.before_call').explanation, ids);
    expect(h.nodeClasses.get('ev-tool-before')).toBe('dbg-event');
    expect(h.nodeClasses.get('m-dangerous-tools')).toBe('dbg-pass');
    expect(h.nodeClasses.get('m-destructive-command')).toBe('dbg-pass');
    expect(h.nodeClasses.get('h-block-destructive')).toBe('dbg-fired dbg-decider');
    // The audit log runs after the block (order 100): the chain ended before it.
    expect(h.nodeClasses.get('h-audit-log')).toBe('dbg-skipped');
    expect(h.edgeClasses.get(edgeId({ from: 'm-destructive-command', to: 'h-block-destructive' }))).toBe('dbg-edge-decider');
    expect(h.edgeClasses.get(edgeId({ from: 'ev-tool-before', to: 'm-dangerous-tools' }))).toBe('dbg-edge-pass');
    expect(h.nodeClasses.get('h-redact-secrets')).toBe('dbg-dim');
    expect(h.nodeClasses.get('ev-input')).toBe('dbg-dim');
  });

  it('a Read call: the "Dangerous tools" matcher failed, the wire into it is marked failed and nothing after it', () => {
    const h = pathHighlight(stepOf('demo:08:tool.before_call').explanation, ids);
    expect(h.nodeClasses.get('m-dangerous-tools')).toBe('dbg-fail');
    expect(h.nodeClasses.get('m-destructive-command')).toBe('dbg-dim');
    expect(h.nodeClasses.get('h-block-destructive')).toBe('dbg-missed');
    expect(h.edgeClasses.get(edgeId({ from: 'ev-tool-before', to: 'm-dangerous-tools' }))).toBe('dbg-edge-fail');
    expect(h.edgeClasses.has(edgeId({ from: 'm-dangerous-tools', to: 'm-destructive-command' }))).toBe(false);
    expect(h.nodeClasses.get('h-audit-log')).toBe('dbg-fired');
  });

  it('focus on one handler outlines its paths and keeps every other path in view: the injection matcher failed on the user_input event', () => {
    const all = pathHighlight(stepOf('demo:18:input.received').explanation, ids);
    const h = pathHighlight(stepOf('demo:18:input.received').explanation, ids, { focus: 'h-block-injection' });
    expect(h.nodeClasses.get('m-prompt-injection')).toBe('dbg-fail dbg-focus');
    expect(h.nodeClasses.get('h-block-injection')).toBe('dbg-missed dbg-focus');
    // What did fire is not dimmed: the audit handler shows exactly as without the focus.
    expect(h.nodeClasses.get('h-audit-log')).toBe(all.nodeClasses.get('h-audit-log'));
    expect(h.nodeClasses.get('h-audit-log')).not.toContain('dbg-dim');
    expect(h.edgeClasses).toEqual(all.edgeClasses);
  });

  it('the anchor the canvas keeps in view: the picked handler, else the decider, else the first that changed something, else the first failed matcher, else the first handler that fired', () => {
    // Step 12 blocked: the decider, unless a handler is picked for "why didn't it fire?".
    expect(pathHighlight(stepOf('demo:12:tool.before_call').explanation, ids).anchor).toBe('h-block-destructive');
    expect(pathHighlight(stepOf('demo:12:tool.before_call').explanation, ids, { focus: 'h-block-injection' }).anchor).toBe('h-block-injection');
    // Step 9 continued, but a secret was redacted: the rewrite, not the audit log that also ran.
    const redacted = stepOf('demo:09:tool.after_call');
    expect(redacted.explanation!.decision).toBe('continue');
    expect(pathHighlight(redacted.explanation, ids).anchor).toBe('h-redact-secrets');
    // Step 8 changed nothing and decided nothing: where the block did not fire.
    expect(pathHighlight(stepOf('demo:08:tool.before_call').explanation, ids).anchor).toBe('m-dangerous-tools');
    // Step 1 (agent.start): only the audit log ran and it continued; the view shows it, not only its event (issue 34).
    const first = stepOf('demo:01:agent.start');
    expect(first.explanation!.decided_by).toBeNull();
    expect(pathHighlight(first.explanation, ids).anchor).toBe('h-audit-log');
    expect(pathHighlight(null, ids).anchor).toBeNull();
  });

  it('the anchor group: a failed matcher is kept in view with the handler behind it; a picked handler that did not fire is anchored at the matcher that stopped it', () => {
    const step8 = pathHighlight(stepOf('demo:08:tool.before_call').explanation, ids);
    expect(step8.anchorGroup).toEqual(['m-dangerous-tools', 'h-block-destructive']);
    // Step 18: "why didn't the injection block fire?" is answered by its matcher (`payload.input` is missing).
    const step18 = pathHighlight(stepOf('demo:18:input.received').explanation, ids, { focus: 'h-block-injection' });
    expect([step18.anchor, step18.anchorGroup]).toEqual(['m-prompt-injection', ['m-prompt-injection', 'h-block-injection']]);
    // A picked handler that fired, or one of another event type, is the anchor itself.
    expect(pathHighlight(stepOf('demo:12:tool.before_call').explanation, ids, { focus: 'h-block-destructive' }).anchorGroup).toEqual(['h-block-destructive']);
    expect(pathHighlight(stepOf('demo:12:tool.before_call').explanation, ids, { focus: 'h-block-injection' }).anchorGroup).toEqual(['h-block-injection']);
    expect(pathHighlight(stepOf('demo:12:tool.before_call').explanation, ids).anchorGroup).toEqual(['h-block-destructive']);
  });

  it('no explanation (a step after the run ended, a repeat): everything is dimmed', () => {
    const h = pathHighlight(null, ids);
    expect([...h.nodeClasses.values()].every((c) => c === 'dbg-dim')).toBe(true);
    expect(h.edgeClasses.size).toBe(0);
  });
});
