import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryRecordStore, type RecordStore } from '../../../engine/model/idIndex.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { importSweAgent } from '../../../engine/trace/importers/importSweAgent.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { writeWorkload } from '../../bench/formatWorkloads.ts';
import { FIXTURE, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';
import { pushInPieces } from '../../shared/pieces.ts';
import { importSweAgentWhole } from './sweAgentWhole.ts';

const NAME = 'run.traj';
const OPTIONS = { fileName: NAME, fallbackTraceId: 'swe-agent-run' };

/** Streams `text` cut at `cuts`, with a sink, as `hookwire import` does; `spool` as the CLI's temporary file. */
function streamed(text: string, cuts: number[], spool?: RecordStore) {
  const events: TraceEvent[] = [];
  const s = createImportStream({ fileName: NAME, format: 'swe-agent', onEvent: (e) => events.push(e), ...(spool ? { spool } : {}) });
  pushInPieces(text, cuts, (piece) => s.push(piece));
  return { ...s.end(), events };
}

/** The whole-document import as it was before it streamed (the oracle). */
function whole(doc: unknown) {
  const r = importSweAgentWhole(doc, OPTIONS);
  if (!r.ok) throw new Error(r.problem.message);
  return r;
}

function generated(format: 'swe-agent' | 'swe-agent-fc', steps: number): string {
  const parts: string[] = [];
  writeWorkload(format, steps, (t) => parts.push(t));
  return parts.join('');
}

// Random trajectories: both formats, demonstrations, steps and messages that do not pair, tool calls answered,
// repeated or never, arguments that are not JSON, elements that are not objects, members in any order.
const ids = fc.constantFrom('call_a', 'call_b', 'call_c');
const content = fc.oneof(fc.string({ maxLength: 30 }), fc.constant('COMMANDS:\nmy_tool:\n  docstring: x\n'), fc.array(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 10 }) }), { maxLength: 2 }));
const toolCall = fc.record({ id: ids, function: fc.record({ name: fc.constantFrom('bash', 'submit', 'str_replace_editor'), arguments: fc.oneof(fc.constant('{"command":"ls"}'), fc.constant('not json'), fc.constant({ path: 'a.py' })) }) }, { requiredKeys: ['function'] });
const historyMessage = fc.oneof(
  { weight: 12, arbitrary: fc.record({ role: fc.constantFrom('system', 'user', 'assistant', 'tool'), content, agent: fc.constantFrom('primary', 'main'), is_demo: fc.boolean(), thought: fc.string({ maxLength: 10 }), tool_calls: fc.array(toolCall, { maxLength: 2 }), tool_call_ids: fc.array(ids, { maxLength: 2 }) }, { requiredKeys: ['role'] }) },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 5 })) },
);
const step = fc.oneof(
  { weight: 12, arbitrary: fc.record({ action: fc.constantFrom('submit\n', 'open a.py 3\n', 'edit 1:2\n  x = 1\nend_of_edit\n', 'my_tool "a b"\n', 'ls -la | head', '', '  '), observation: content, response: fc.string({ maxLength: 20 }), thought: fc.string({ maxLength: 10 }), state: fc.oneof(fc.constant('{"open_file": "a.py"}'), fc.constant({ working_dir: '/w' }), fc.constant('not json')), execution_time: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 100 }), query: fc.array(fc.record({ role: fc.constant('user'), content }), { maxLength: 2 }) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.integer()) },
);
const info = fc.record({ exit_status: fc.constantFrom('submitted', 'submitted (exit_cost)', 'exit_context', 'early_exit'), submission: fc.oneof(fc.constant('diff --git a b'), fc.constant(''), fc.constant(null)), model_stats: fc.constant({ api_calls: 3 }) }, { requiredKeys: [] });
const replayConfig = fc.oneof(
  fc.constant(JSON.stringify({ agent: { model: { name: 'gpt-4o' } }, problem_statement: { id: 'astropy__astropy-1' } })),
  fc.constant({ agent: { model: { model_name: 'claude' } }, instance_id: 'django-2' }),
  fc.constant('not json'),
);
const trajectoryDoc = fc
  .record({ trajectory: fc.array(step, { maxLength: 8 }), history: fc.array(historyMessage, { maxLength: 14 }), info, replay_config: replayConfig, extra: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['trajectory'] })
  .chain((doc) => fc.shuffledSubarray(Object.keys(doc), { minLength: Object.keys(doc).length }).map((order) => Object.fromEntries([['environment', 'swe_main'], ...order.map((k) => [k, doc[k as keyof typeof doc]])])));

// [I1][I6] A SWE-agent trajectory streams: its steps and messages are kept (in the CLI, in a temporary file) with
// what the end needs to know of them, and the events are made at the end; what comes out is what the whole
// document gave.
describe('SWE-agent trajectories, streamed [I1][I6]', () => {
  it('[I1][I6] any trajectory, any member order, pretty or compact, in any chunks, spooled or not: the events, header, report and problems of the whole import', () => {
    fc.assert(
      fc.property(trajectoryDoc, fc.constantFrom(0, 1, 2), fc.array(fc.nat(), { maxLength: 10 }), fc.boolean(), (doc, indent, cuts, spooled) => {
        const text = JSON.stringify(doc, null, indent);
        const w = whole(JSON.parse(text));
        const s = streamed(text, cuts.map((k) => k % (text.length + 1)), spooled ? memoryRecordStore() : undefined);
        expect(s.events).toEqual(w.trace.events);
        expect(s.trace?.header).toEqual(w.trace.header);
        expect(s.report).toEqual(w.report);
        expect(s.problems).toEqual(w.problems ?? []);
      }),
      { numRuns: 300 },
    );
  });

  it.skipIf(!HAVE_FIXTURES)('[I1][I6] the real trajectory in chunks of 1 character, spooled: the whole import', () => {
    const text = readFixture(FIXTURE.swe);
    const s = streamed(text, Array.from({ length: text.length }, (_, i) => i), memoryRecordStore());
    const w = whole(JSON.parse(text));
    expect(s.events).toEqual(w.trace.events);
    expect(s.report).toEqual(w.report);
    expect(s.events).toHaveLength(54);
  });

  it('[I1][I6] generated trajectories of both formats (the benchmark\'s), spooled: the whole import', () => {
    for (const format of ['swe-agent', 'swe-agent-fc'] as const) {
      const text = generated(format, 300);
      const s = streamed(text, [7, 4096, 65536, 65537], memoryRecordStore());
      const w = whole(JSON.parse(text));
      expect(s.events, format).toEqual(w.trace.events);
      expect(s.trace?.header, format).toEqual(w.trace.header);
      expect(s.report, format).toEqual(w.report);
      expect(s.report?.tool_calls, format).toBe(300);
    }
  });

  it('[I1] with a spool, the steps, the messages and the calls awaiting their answers are kept in it, a step without its query', () => {
    const text = generated('swe-agent-fc', 50);
    const kept: string[] = [];
    const memory = memoryRecordStore();
    const spool: RecordStore = { append: (t) => (kept.push(t), memory.append(t)), read: (h) => memory.read(h) };
    const s = streamed(text, [1000], spool);
    expect(s.report?.tool_calls).toBe(50);
    // 50 steps, 3 + 100 messages, 50 calls' inputs.
    expect(kept).toHaveLength(50 + 103 + 50);
    expect(kept.some((t) => t.includes('"query"'))).toBe(false);
  });

  it('[I1] a file cut inside its history keeps what came before the cut: the import of the steps and the messages read, reported truncated', () => {
    const doc = JSON.parse(generated('swe-agent', 20)) as { environment: string; trajectory: unknown[]; history: unknown[] };
    const text = JSON.stringify(doc, null, 2);
    const marker = text.indexOf('"Step 12: search.', text.indexOf('"history"'));
    const at = text.lastIndexOf('{', marker) + 5;
    const s = streamed(text.slice(0, at), [1000, 50_000], memoryRecordStore());
    expect(s.problems).toContainEqual(expect.objectContaining({ code: 'truncated', severity: 'error' }));
    // The messages before the cut: system, demonstration, issue, then two a step for steps 0–11.
    const read = whole({ environment: doc.environment, trajectory: doc.trajectory, history: doc.history.slice(0, 3 + 24) });
    expect(s.events).toEqual(read.trace.events);
    expect(s.report).toEqual(read.report);
    expect(s.events.filter((e) => e.type === 'tool.after_call')).toHaveLength(20);
    expect(s.report?.warnings).toContain('20 trajectory steps but 12 assistant messages in history; paired in order');
  });

  it('[I6] a document with neither array is refused as before; one with only a history imports', () => {
    expect(importSweAgent({ trajectory: 3, history: 'x' })).toMatchObject({ ok: false, problem: { code: 'bad_source' } });
    expect(importSweAgent([])).toMatchObject({ ok: false, problem: { code: 'bad_source' } });
    const only = { history: [{ role: 'user', content: 'Fix it' }, { role: 'assistant', content: 'ok', tool_calls: [{ id: 'c1', function: { name: 'submit', arguments: '{}' } }] }, { role: 'tool', content: 'diff', tool_call_ids: ['c1'] }], trajectory: null };
    const r = importSweAgent(only, OPTIONS);
    expect(r).toEqual(whole(only));
    const s = streamed(`${JSON.stringify({ environment: 'swe_main', ...only }, null, 1)}\n`, [], memoryRecordStore());
    expect(s.events).toEqual(whole({ environment: 'swe_main', ...only }).trace.events);
  });
});
