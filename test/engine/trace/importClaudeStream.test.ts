import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { importClaudeCode, SESSION_ID_WITHIN } from '../../../engine/trace/importers/importClaudeCode.ts';
import type { TraceEvent, TraceHeader } from '../../../engine/trace/traceTypes.ts';
import type { ImportResult } from '../../../engine/trace/importers/importReport.ts';
import { FIXTURE, fileName, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

// [I1][I4] Claude Code transcripts stream: records are planned as they arrive and imported once their model call
// is complete, and events go out as soon as no hook record can still name them. What streams out must be what the
// whole import (all records first, annotations attached at the end: importClaudeCode without a sink) makes, and
// it must go out before the end.

type Rec = Record<string, unknown>;
const ENV = { sessionId: 's-prop', cwd: '/w', version: '2.1.0', gitBranch: 'main', userType: 'external' };

/** One generated session: turns of model calls whose blocks are one record each, as Claude Code writes them. */
interface Plan {
  turns: {
    prompt: string;
    calls: { blocks: ('text' | 'thinking' | 'tool' | 'task')[]; resultBetween: boolean; preHooks: number; postHook: boolean; progress: number; system: boolean }[];
    finalText: boolean;
    trailingSystem: boolean;
  }[];
  sidechain: boolean;
}

const planArb: fc.Arbitrary<Plan> = fc.record({
  turns: fc.array(
    fc.record({
      prompt: fc.string({ maxLength: 12 }),
      calls: fc.array(
        fc.record({
          blocks: fc.array(fc.constantFrom('text', 'thinking', 'tool', 'task'), { minLength: 1, maxLength: 4 }),
          resultBetween: fc.boolean(),
          preHooks: fc.nat(2),
          postHook: fc.boolean(),
          progress: fc.nat(2),
          system: fc.boolean(),
        }),
        { maxLength: 4 },
      ),
      finalText: fc.boolean(),
      trailingSystem: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  sidechain: fc.boolean(),
});

function transcript(plan: Plan): string {
  const out: Rec[] = [];
  let t = 0;
  let n = 0;
  const ts = () => new Date(Date.UTC(2026, 0, 1) + 1000 * t++).toISOString();
  const a = (msg: string, block: Rec, extra: Rec = {}) => out.push({ ...ENV, type: 'assistant', uuid: `a${n++}`, timestamp: ts(), message: { id: msg, role: 'assistant', model: 'm', content: [block], stop_reason: null, usage: { input_tokens: n, output_tokens: 1 } }, ...extra });
  const result = (id: string, extra: Rec = {}) => out.push({ ...ENV, type: 'user', uuid: `r${n++}`, timestamp: ts(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `out ${id}`, is_error: n % 3 === 0 }] }, toolUseResult: { stdout: id }, ...extra });
  const hook = (event: string, id: string) => out.push({ ...ENV, type: 'progress', timestamp: ts(), toolUseID: id, data: { type: 'hook_progress', hookEvent: event, hookName: `${event}:Bash`, command: 'guard' } });
  out.push({ ...ENV, type: 'progress', timestamp: ts(), toolUseID: 'boot', data: { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:startup', command: 'boot' } });
  plan.turns.forEach((turn, ti) => {
    out.push({ ...ENV, type: 'user', uuid: `p${ti}`, timestamp: ts(), message: { role: 'user', content: turn.prompt === '' ? 'go' : turn.prompt } });
    turn.calls.forEach((call, ci) => {
      const msg = `msg_${ti}_${ci}`;
      const pending: string[] = [];
      const tasks = new Set<string>();
      call.blocks.forEach((kind, bi) => {
        const id = `toolu_${ti}_${ci}_${bi}`;
        if (kind === 'text') a(msg, { type: 'text', text: `say ${bi}` });
        else if (kind === 'thinking') a(msg, { type: 'thinking', thinking: 'hm' });
        else {
          a(msg, { type: 'tool_use', id, name: kind === 'task' ? 'Task' : 'Bash', input: kind === 'task' ? { prompt: 'sub' } : { command: `ls ${id}` } });
          for (let h = 0; h < call.preHooks; h++) hook('PreToolUse', id);
          if (kind === 'task') {
            tasks.add(id);
            for (let p = 0; p < call.progress; p++) out.push({ ...ENV, type: 'progress', timestamp: ts(), parentToolUseID: id, data: { type: 'agent_progress', step: p } });
            if (plan.sidechain) {
              a(`side_${id}`, { type: 'tool_use', id: `${id}_s`, name: 'Read', input: { file_path: '/x' } }, { isSidechain: true });
              result(`${id}_s`, { isSidechain: true });
              a(`side2_${id}`, { type: 'text', text: 'sub done' }, { isSidechain: true });
            }
          }
          pending.push(id);
          // A streamed tool call: its result may come before the call's next block.
          if (call.resultBetween) {
            if (call.postHook) hook('PostToolUse', id);
            result(pending.shift() as string);
          }
        }
      });
      for (const id of pending) {
        // A subagent reports while the call's other tools run: its progress names its Task call, several events back.
        if (tasks.has(id)) for (let p = 0; p < call.progress; p++) out.push({ ...ENV, type: 'progress', timestamp: ts(), parentToolUseID: id, data: { type: 'agent_progress', late: p } });
        if (call.postHook) hook('PostToolUse', id);
        result(id);
      }
      if (call.system) out.push({ ...ENV, type: 'system', subtype: 'informational', timestamp: ts(), content: 'note' });
    });
    if (turn.finalText) a(`msg_${ti}_final`, { type: 'text', text: 'All done.' });
    if (turn.trailingSystem) {
      out.push({ ...ENV, type: 'system', subtype: 'stop_hook_summary', timestamp: ts(), content: 'stop' });
      hook('Stop', '');
    }
  });
  return `${out.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

/** The whole import: every record read first, annotations attached at the end (the importer without a sink). */
function whole(text: string) {
  const records = text.trimEnd().split('\n').map((l, i) => ({ line: i + 1, value: JSON.parse(l) as unknown }));
  const r = importClaudeCode(records, { fileName: 'session.jsonl', fallbackTraceId: 'x' });
  if (!r.ok) throw new Error(r.problem.message);
  return r;
}

/** The streamed import: chunks of the given size, events taken as handed over, noting how many came before the end. */
function streamed(text: string, chunk: number) {
  const events: TraceEvent[] = [];
  let header: TraceHeader | null = null;
  let beforeEnd = 0;
  let headerBeforeEvents = true;
  const s = createImportStream({ fileName: 'session.jsonl', onEvent: (e) => void events.push(e), onHeader: (h) => void (headerBeforeEvents = events.length === 0, (header = h)) });
  for (let at = 0; at < text.length; at += chunk) s.push(text.slice(at, at + chunk));
  beforeEnd = events.length;
  const out = s.end();
  return { out, events, header: header as TraceHeader | null, beforeEnd, headerBeforeEvents };
}

describe('Claude Code transcripts stream [I1][I4]', () => {
  it('[I1][I4] any generated session, in any chunks: the streamed events, header and report are the whole import\'s', () => {
    fc.assert(
      fc.property(planArb, fc.integer({ min: 7, max: 5000 }), (plan, chunk) => {
        const text = transcript(plan);
        const w = whole(text);
        const s = streamed(text, chunk);
        expect(s.out.format).toBe('claude-code');
        expect(s.out.problems).toEqual([]);
        expect(s.events).toEqual(w.trace.events);
        expect(s.out.trace?.header).toEqual(w.trace.header);
        expect(s.out.report).toEqual(w.report);
        // The header was announced before the first event, and it is the one the import ends with.
        expect(s.headerBeforeEvents).toBe(true);
        expect(s.header).toEqual(w.trace.header);
      }),
      { numRuns: 300 },
    );
  });

  it('[I1] a long session is not held to the end: all but its last turn have gone out before the input ends', () => {
    const turn: Plan['turns'][number] = { prompt: 'go', calls: [{ blocks: ['text', 'tool', 'task'], resultBetween: true, preHooks: 1, postHook: true, progress: 2, system: true }], finalText: true, trailingSystem: true };
    const text = transcript({ turns: Array.from({ length: 400 }, () => turn), sidechain: true });
    expect(text.length).toBeGreaterThan(200_000);
    const w = whole(text);
    const s = streamed(text, 4096);
    expect(s.events).toEqual(w.trace.events);
    const total = w.trace.events.length;
    // The last turn (its final answer waits for the turn's end) and agent.end are all that may wait for end().
    expect(s.beforeEnd).toBeGreaterThanOrEqual(total - 20);
  });

  it.skipIf(!HAVE_FIXTURES)('[I4] the real transcripts stream to what the whole import makes', () => {
    for (const rel of [FIXTURE.ccShort, FIXTURE.ccHeavy]) {
      const text = readFixture(rel);
      const records = text.trimEnd().split('\n').map((l, i) => ({ line: i + 1, value: JSON.parse(l) as unknown }));
      const w = importClaudeCode(records, { fileName: fileName(rel) });
      const viaTrace = importTrace(text, { fileName: fileName(rel) });
      expect(viaTrace.trace?.events).toEqual(w.ok && w.trace.events);
      for (const chunk of [1, 97, 1 << 20]) expect(streamed(text, chunk).events, `${rel} in chunks of ${chunk}`).toEqual(w.ok && w.trace.events);
    }
  });

  it('[I4] a tool call\'s before event waits for its hooks: a PreToolUse run after the next call\'s record still reaches it', () => {
    const text = transcript({ turns: [{ prompt: 'go', calls: [{ blocks: ['tool', 'tool'], resultBetween: false, preHooks: 0, postHook: false, progress: 0, system: false }], finalText: true, trailingSystem: false }], sidechain: false });
    // Move a PreToolUse run of the first call after the second call's record (Claude Code writes hooks as they run).
    const lines = text.trimEnd().split('\n');
    const second = lines.findIndex((l) => l.includes('toolu_0_0_1') && l.includes('"assistant"'));
    lines.splice(second + 1, 0, JSON.stringify({ ...ENV, type: 'progress', timestamp: '2026-01-01T00:00:30.000Z', toolUseID: 'toolu_0_0_0', data: { type: 'hook_progress', hookEvent: 'PreToolUse', hookName: 'PreToolUse:Bash', command: 'late' } }));
    const s = streamed(`${lines.join('\n')}\n`, 64);
    const first = s.events.find((e) => e.event_id === 'cc:toolu_0_0_0:before');
    expect(first?.meta?.annotations).toEqual([expect.objectContaining({ hook_event: 'PreToolUse', command: 'late' })]);
  });

  it('[I3][I4] tool ids out of order or repeated: a result before its tool_use, a tool_use id used again after its result, a call never answered', () => {
    let t = 0;
    const ts = () => new Date(Date.UTC(2026, 0, 1) + 1000 * t++).toISOString();
    const user = (uuid: string, content: unknown) => ({ ...ENV, type: 'user', uuid, timestamp: ts(), message: { role: 'user', content } });
    const use = (uuid: string, msg: string, id: string, name: string, input: Rec) => ({ ...ENV, type: 'assistant', uuid, timestamp: ts(), message: { id: msg, role: 'assistant', model: 'm', content: [{ type: 'tool_use', id, name, input }] } });
    const result = (uuid: string, id: string) => user(uuid, [{ type: 'tool_result', tool_use_id: id, content: `out ${uuid}` }]);
    const hook = (event: string, id: string) => ({ ...ENV, type: 'progress', timestamp: ts(), toolUseID: id, data: { type: 'hook_progress', hookEvent: event, hookName: `${event}:x`, command: 'c' } });
    const recs = [
      user('u1', 'go'), result('r0', 'tx'), use('a1', 'm1', 't1', 'Bash', { command: 'a' }), hook('PreToolUse', 't1'), result('r1', 't1'),
      use('a2', 'm2', 'tx', 'Read', { file_path: '/x' }), hook('PostToolUse', 'tx'), use('a3', 'm3', 't1', 'Edit', { file: 'b' }), hook('PreToolUse', 't1'),
      result('r2', 't1'), hook('PostToolUse', 't1'), use('a4', 'm4', 't9', 'Grep', {}), hook('PreToolUse', 't9'), user('u2', 'next'), hook('PostToolUse', 't1'),
    ];
    const text = `${recs.map((r) => JSON.stringify(r)).join('\n')}\n`;
    // Streamed as the CLI imports (the whole import differs here: it attaches tx's PostToolUse run to the result
    // that came before the tool_use, which had gone out by then).
    const s = streamed(text, 1 << 16);
    for (const chunk of [1, 50]) expect(streamed(text, chunk).events).toEqual(s.events);
    const tools = s.events.filter((e) => e.type.startsWith('tool.')).map((e) => [e.event_id, e.payload.tool_name, e.payload.tool_input, (e.meta?.annotations as Rec[] | undefined)?.map((a) => a.hook_event) ?? []]);
    expect(tools).toEqual([
      // A result of an id no tool_use named yet; the tool_use that comes later is not held for it, and not unanswered.
      ['cc:tx:after', 'unknown', {}, []],
      ['cc:t1:before', 'Bash', { command: 'a' }, ['PreToolUse']],
      ['cc:t1:after', 'Bash', { command: 'a' }, []],
      ['cc:tx:before', 'Read', { file_path: '/x' }, ['PostToolUse']],
      // The id used again: a second result takes the name and input of the id's last tool_use [I3].
      ['cc:t1:before#2', 'Edit', { file: 'b' }, ['PreToolUse']],
      ['cc:t1:after#2', 'Edit', { file: 'b' }, ['PostToolUse']],
      ['cc:t9:before', 'Grep', {}, ['PreToolUse']],
    ]);
    expect(s.out.report?.warnings).toEqual([
      'tool_result for tx has no matching tool_use',
      'tool call t9 (Grep) has no tool_result in the transcript',
      '2 source ids appeared more than once; their events got ids ending in #2, #3, ...',
    ]);
  });

  it('[I1][I4] a transcript without a sessionId streams too: past the first SESSION_ID_WITHIN records, the trace id is derived and the records go on', () => {
    const call = { blocks: ['text', 'tool'] as Plan['turns'][number]['calls'][number]['blocks'], resultBetween: false, preHooks: 1, postHook: true, progress: 0, system: false };
    const plan: Plan = { turns: Array.from({ length: 1700 }, () => ({ prompt: 'go', calls: [call], finalText: true, trailingSystem: false })), sidechain: false };
    const lines = transcript(plan).trimEnd().split('\n').map((l) => {
      const { sessionId: _drop, ...rest } = JSON.parse(l) as Rec;
      return rest;
    });
    expect(lines.length).toBeGreaterThan(SESSION_ID_WITHIN);
    // A sessionId after the first SESSION_ID_WITHIN records is not the trace id: by then the records have gone out.
    (lines[SESSION_ID_WITHIN + 5] as Rec).sessionId = 'late-session';
    const text = `${lines.map((r) => JSON.stringify(r)).join('\n')}\n`;
    // Detection needs a sessionId: the format is given, as with `--from claude-code`.
    const events: TraceEvent[] = [];
    const stream = createImportStream({ fileName: 'session.jsonl', format: 'claude-code', onEvent: (e) => void events.push(e) });
    for (let at = 0; at < text.length; at += 4096) stream.push(text.slice(at, at + 4096));
    const beforeEnd = events.length;
    const out = stream.end();
    const w = importClaudeCode(lines.map((value, i) => ({ line: i + 1, value })), { fileName: 'session.jsonl', fallbackTraceId: 'claude-code-session' }) as Extract<ImportResult, { ok: true }>;
    expect(events).toEqual(w.trace.events);
    expect(out.trace?.header).toEqual(w.trace.header);
    expect(w.trace.header.trace_id).toBe('claude-code-session');
    expect(beforeEnd).toBeGreaterThan(events.length - 20);
    expect(out.report?.warnings).toContain(`no record of the first ${SESSION_ID_WITHIN} carries a sessionId: the trace id was derived from the input`);
  });
});
