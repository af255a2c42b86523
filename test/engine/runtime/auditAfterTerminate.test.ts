import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../../engine/runtime/index.ts';
import type { AuditRecord } from '../../../engine/dispatch/records.ts';
import { ev, handler, match, pipeline } from '../helpers.ts';

// [E6][P8] The audit sink gets every sync event's decision, the refusals after a TERMINATE too (before, the
// events after a TERMINATE reached the raw sink and the recording but never the audit log).
const DOC = pipeline(
  [ev('tools', 'tool.before_call'), match('halt', { 'payload.tool_input.command': 'halt' }), handler('stop', { type: 'terminate', reason: 'halted by policy' })],
  ['tools->halt', 'halt->stop'],
);

describe('audit after TERMINATE [E6][P8]', () => {
  it('[E6][P8] every later sync event is audited as terminate with the terminating reason; a repeated id is not audited again', async () => {
    const audit: AuditRecord[] = [];
    let t = Date.parse('2026-03-01T10:00:00.000Z');
    const r = createRuntime(DOC, { clock: { now: () => (t += 1000) }, sinks: { audit: (a) => void audit.push(a) } });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const trace = r.runtime.startTrace({ trace_id: 't' });
    const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });
    trace.emit('tool.before_call', bash('ls'), { event_id: 'a' });
    trace.emit('tool.before_call', bash('halt'), { event_id: 'b' });
    trace.emit('tool.before_call', bash('rm -rf /'), { event_id: 'c' });
    trace.emit('tool.before_call', bash('ls'), { event_id: 'a' }); // a repeat: its first answer, no new decision
    trace.emit('tool.before_call', bash('echo'), { event_id: 'd' });
    await trace.flush();
    expect(audit.map((a) => [a.decision, a.reason, a.tool_name])).toEqual([
      ['continue', '', 'Bash'],
      ['terminate', 'halted by policy', 'Bash'],
      ['terminate', 'halted by policy', 'Bash'],
      ['terminate', 'halted by policy', 'Bash'],
    ]);
    // Each refused call is its own record, at its own time.
    expect(new Set(audit.map((a) => a.timestamp)).size).toBe(4);
  });
});
