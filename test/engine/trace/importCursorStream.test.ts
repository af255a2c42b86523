import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { CURSOR_START_MEMBERS } from '../../../engine/trace/importers/importCursor.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { pushInPieces } from '../../shared/pieces.ts';
import { importCursorWhole } from './cursorWhole.ts';

// [I1][I23] A Cursor composer streams member by member and bubble by bubble (its `conversation`); its bubbles wait for
// the members the chat's start reads. Streamed, in any chunking, it must import as the whole-document import did
// before it streamed (cursorWhole.ts, the importer at 4430cdc), byte for byte.
const NAME = 'composer.json';
const OPTIONS = { fileName: NAME, fallbackTraceId: 'cursor-composer' };

function streamed(text: string, cuts: number[]) {
  const events: TraceEvent[] = [];
  const s = createImportStream({ fileName: NAME, onEvent: (e) => events.push(e) });
  pushInPieces(text, cuts, (piece) => s.push(piece));
  return { ...s.end(), events };
}

const T0 = Date.UTC(2026, 2, 3, 9);
const ts = fc.constantFrom<unknown>(new Date(T0).toISOString(), T0 + 5000, '2026-03-03 09:00:07', 'not a time', null);
const toolFormer = fc.record(
  {
    name: fc.constantFrom('run_terminal_cmd', 'read_file', 'edit_file', 'mcp_github_search', ''),
    toolCallId: fc.constantFrom('call-1', 'call-2', 'call-1', ''),
    status: fc.constantFrom('completed', 'error', 'cancelled', 'running', ''),
    params: fc.constantFrom<unknown>(JSON.stringify({ command: 'rm -rf build' }), { target_file: 'a.ts' }, 'plain words', '{"cut": '),
    rawArgs: fc.constantFrom(JSON.stringify({ target_file: 'b.ts' }), ''),
    result: fc.constantFrom<unknown>(JSON.stringify({ output: 'ok', exitCode: 0 }), 'File not found', null),
    additionalData: fc.constantFrom<unknown>({ status: 'error' }, { status: 'completed' }),
  },
  { requiredKeys: ['name'] },
);
const lexical = JSON.stringify({ root: { children: [{ children: [{ text: 'from the editor' }] }, { children: [{ text: 'second line' }] }] } });
const user = fc.record(
  {
    type: fc.constantFrom<unknown>(1, 'user'),
    bubbleId: fc.constantFrom('u1', 'u2', ''),
    text: fc.constantFrom('Delete the build folder', ''),
    rawText: fc.constantFrom('raw words'),
    delegate: fc.constantFrom({ a: 'delegated' }),
    initText: fc.constantFrom(lexical, '{"root": 1}'),
    createdAt: ts,
    requestId: fc.constantFrom('r1'),
    selections: fc.constantFrom([{ text: 'const a = 1;' }, 'not one']),
    image: fc.constantFrom({ path: '/tmp/shot.png' }),
    commandType: fc.constantFrom(4),
  },
  { requiredKeys: ['type'] },
);
const assistant = fc.record(
  {
    type: fc.constantFrom<unknown>(2, 'ai'),
    bubbleId: fc.constantFrom('a1', 'a2', 'a1', ''),
    text: fc.constantFrom('I will look first.', 'Done.', ''),
    rawText: fc.constantFrom('raw answer'),
    thinking: fc.constantFrom({ text: 'List, then delete.' }, { text: '' }),
    toolFormerData: toolFormer,
    tokenCount: fc.constantFrom({ inputTokens: 1200, outputTokens: 40 }, { inputTokens: 0, outputTokens: 0 }),
    modelInfo: fc.constantFrom({ modelName: 'claude-4-sonnet-thinking' }),
    modelType: fc.constantFrom('gpt-4o'),
    createdAt: ts,
    timestamp: ts,
  },
  { requiredKeys: ['type'] },
);
const bubble = fc.oneof(
  { weight: 4, arbitrary: user },
  { weight: 8, arbitrary: assistant },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ type: 7, bubbleId: 'x1', text: 'unknown kind' }, { unreadable: 'bubble gone: no row' }, 'a string', null, [1, 2]) },
);
/** The members a composer may have besides its bubbles; the start reads some of them (CURSOR_START_MEMBERS). */
const member = fc.constantFrom<[string, unknown]>(
  ['name', 'Tidy the build'], ['name', null], ['name', 7],
  ['createdAt', T0], ['createdAt', null],
  ['unifiedMode', 'agent'], ['forceMode', 'edit'], ['unifiedMode', null],
  ['modelConfig', { modelName: 'claude-4-sonnet' }], ['modelConfig', null],
  ['subagentComposerIds', ['c-sub']], ['subComposerIds', ['c-sub2', 3]], ['subagentComposerIds', null],
  ['status', 'completed'], ['lastUpdatedAt', T0 + 60_000], ['origin', 'composer.composerData'], ['richText', '{"root":{}}'],
);
const composer = fc.record({
  v: fc.boolean(),
  id: fc.constantFrom('c-main', ''),
  members: fc.uniqueArray(member, { selector: ([k]) => k, maxLength: 10 }),
  // Content detection knows a composer by its bubbles' list: one without (or not a list) is in the whole-import tests.
  conversation: fc.array(bubble, { maxLength: 14 }),
  /** Where the bubbles are among the other members (0: before all). */
  at: fc.nat(),
  /** Every start member present (the missing ones null), so the bubbles stream once the last of them is read. */
  fill: fc.boolean(),
  order: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }),
});

type Composer = typeof composer extends fc.Arbitrary<infer T> ? T : never;

/** The composer as a document: composerId first (content detection looks for it), the bubbles among the members. */
function docOf(c: Composer): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  if (c.v) doc._v = 10;
  doc.composerId = c.id;
  const members = [...c.members];
  if (c.fill) for (const k of CURSOR_START_MEMBERS) if (k !== 'composerId' && !members.some(([m]) => m === k)) members.push([k, null]);
  const rank = new Map(members.map(([k], i) => [k, (c.order[i] ?? 0) * 100 + i]));
  members.sort(([a], [b]) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  const at = c.at % (members.length + 1);
  members.forEach(([k, v], i) => {
    if (i === at) doc.conversation = c.conversation;
    doc[k] = v;
  });
  if (at === members.length) doc.conversation = c.conversation;
  return doc;
}

describe('Cursor composers stream [I1][I23]', () => {
  it('[I1][I23] streamed in any chunking, a composer imports as the whole-document import did (events, header, report, problems)', () => {
    fc.assert(
      fc.property(composer, fc.constantFrom(0, 1, 2), fc.array(fc.nat(), { maxLength: 8 }), (c, indent, cuts) => {
        const doc = docOf(c);
        // Compact, its first line is `{`: read as a stream too (a one-line document within 64 KB is read whole).
        const text = indent > 0 ? JSON.stringify(doc, null, indent) : `{\n${JSON.stringify(doc).slice(1)}`;
        const whole = importCursorWhole(JSON.parse(text), OPTIONS);
        const s = streamed(text, cuts.map((n) => n % (text.length + 1)));
        expect(s.format).toBe('cursor');
        if (!whole.ok) {
          expect(s.trace).toBeNull();
          expect(s.problems).toEqual([whole.problem]);
          return;
        }
        expect(s.events).toEqual(whole.trace.events);
        expect(s.trace?.header).toEqual(whole.trace.header);
        expect(s.report).toEqual(whole.report);
        expect(s.problems).toEqual(whole.problems ?? []);
      }),
      { numRuns: 300 },
    );
  });

  it('[I23] a start member written as null imports as one that is absent (the store reader writes the missing ones so)', () => {
    fc.assert(
      fc.property(composer, (c) => {
        const doc = docOf(c);
        const nulled: Record<string, unknown> = { ...doc };
        for (const k of CURSOR_START_MEMBERS) if (!Object.hasOwn(nulled, k)) nulled[k] = null;
        const absent: Record<string, unknown> = { ...doc };
        for (const k of CURSOR_START_MEMBERS) if (absent[k] === null) delete absent[k];
        expect(importCursorWhole(nulled, OPTIONS)).toEqual(importCursorWhole(absent, OPTIONS));
      }),
      { numRuns: 200 },
    );
  });

  it('[I1] a long composer with its start members first holds no bubble back: events reach the sink while it streams', () => {
    const conversation = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? { type: 1, bubbleId: `u${i}`, text: `prompt ${i}` } : { type: 2, bubbleId: `a${i}`, text: `answer ${i}` }));
    const doc: Record<string, unknown> = { composerId: 'c-long' };
    for (const k of CURSOR_START_MEMBERS) if (k !== 'composerId') doc[k] = null;
    doc.conversation = conversation;
    const text = JSON.stringify(doc, null, 1);
    const events: TraceEvent[] = [];
    const s = createImportStream({ fileName: NAME, onEvent: (e) => events.push(e) });
    s.push(text.slice(0, Math.floor(text.length / 2)));
    // Half the file read: about half the events are out already (none waits for the end).
    expect(events.length).toBeGreaterThan(2000);
    s.push(text.slice(Math.floor(text.length / 2)));
    const out = s.end();
    expect(out.problems).toEqual([]);
    expect(events).toEqual(importCursorWhole(doc, OPTIONS).ok ? (importCursorWhole(doc, OPTIONS) as { trace: { events: TraceEvent[] } }).trace.events : []);
  });
});
