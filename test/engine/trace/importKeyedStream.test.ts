import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import { createImportStream, fileStem } from '../../../engine/trace/importStream.ts';
import { GeminiCliImporter } from '../../../engine/trace/importers/importGeminiCli.ts';
import { GooseImporter } from '../../../engine/trace/importers/importGoose.ts';
import { importMiniSweAgent } from '../../../engine/trace/importers/importMiniSweAgent.ts';
import { importOpenCode } from '../../../engine/trace/importers/importOpenCode.ts';
import { importOpenHands } from '../../../engine/trace/importers/importOpenHands.ts';
import type { ImporterOptions, ImportResult } from '../../../engine/trace/importers/importReport.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { deepObjectText } from '../badInput/corpus.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { FIXTURE, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';
import { pushInPieces } from '../../shared/pieces.ts';

interface Case {
  name: string;
  format: TraceFormat;
  text: string;
  /** The whole-document import: the parsed object read by the importer as it always was, not streamed. */
  whole(doc: unknown, options: ImporterOptions): ImportResult;
}

const record = (imp: { record(v: unknown, line: number): void; finish(): ImportResult }, doc: unknown) => {
  imp.record(doc, 1);
  return imp.finish();
};

/** The object with its members in reverse order: the records first, what the importer needs after them. */
const reversed = (text: string) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(text) as object).reverse()), null, 1);

const base: Case[] = [
  { name: 'opencode-export.json', format: 'opencode', text: readFormat('opencode-export.json'), whole: importOpenCode },
  { name: 'slugify.traj.json', format: 'mini-swe-agent', text: readFormat('slugify.traj.json'), whole: importMiniSweAgent },
  { name: 'goose-export.json', format: 'goose', text: readFormat('goose-export.json'), whole: (d, o) => record(new GooseImporter(o), d) },
  { name: 'gemini-cli-session-legacy.json', format: 'gemini-cli', text: readFormat('gemini-cli-session-legacy.json'), whole: (d, o) => record(new GeminiCliImporter(o), d) },
  // A real OpenHands event stream wrapped as {"trajectory"}: only where the shared recordings are (the fixtures module
  // says so when they are absent).
  ...(HAVE_FIXTURES ? [{ name: 'trajectory.json', format: 'openhands' as const, text: JSON.stringify({ trajectory: JSON.parse(readFixture(FIXTURE.openhands)) as unknown[] }, null, 2), whole: importOpenHands }] : []),
];
const cases: Case[] = [...base, ...base.map((c) => ({ ...c, name: `reversed-${c.name}`, text: reversed(c.text) }))];

/** Streams `text` cut at `cuts` with a sink, as `hookwire import` does. */
function streamed(c: Case, text: string, cuts: number[], maxDocumentChars?: number) {
  const events: TraceEvent[] = [];
  const s = createImportStream({ fileName: c.name, format: c.format, onEvent: (e) => events.push(e), ...(maxDocumentChars ? { maxDocumentChars } : {}) });
  pushInPieces(text, cuts, (piece) => s.push(piece));
  return { ...s.end(), events };
}

function wholeOf(c: Case, text: string) {
  const r = c.whole(JSON.parse(text), { fileName: c.name, fallbackTraceId: `${c.format}-${fileStem(c.name)}` });
  if (!r.ok) throw new Error(r.problem.message);
  return r;
}

// [I1] A document whose records are an array under a key streams element by element (KeyedArraySplitter,
// KeyedFeeder); what comes out is what the whole document gives, wherever the agent wrote the members its
// importer needs, in any chunking.
describe('documents with their records under a key, streamed [I1]', () => {
  it('[I1] each format, members in the agent\'s order or reversed, in any chunks: the events, header, report and problems of the whole import', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.array(fc.nat(), { maxLength: 12 }), (c, cuts) => {
        const w = wholeOf(c, c.text);
        const s = streamed(c, c.text, cuts.map((k) => k % (c.text.length + 1)));
        expect(s.events, c.name).toEqual(w.trace.events);
        expect(s.trace?.header).toEqual(w.trace.header);
        expect(s.report).toEqual(w.report);
        expect(s.problems).toEqual(w.problems ?? []);
      }),
      { numRuns: 60 },
    );
  });

  it('[I1] in chunks of 1 character, the same', () => {
    for (const c of cases) expect(streamed(c, c.text, Array.from({ length: c.text.length }, (_, i) => i)).events, c.name).toEqual(wholeOf(c, c.text).trace.events);
  });

  it('[I1] a file cut off inside its records keeps the events before the cut and is reported truncated', () => {
    for (const c of base) {
      const w = wholeOf(c, c.text).trace.events.map((e) => e.event_id);
      const at = c.text.lastIndexOf('}', Math.floor(c.text.length * 0.7)) - 3;
      const s = streamed(c, c.text.slice(0, at), []);
      expect(s.problems, c.name).toContainEqual(expect.objectContaining({ code: 'truncated', severity: 'error' }));
      const ids = s.events.map((e) => e.event_id).filter((id) => !/:(end|final\.(before|after))$|:final_answer/.test(id));
      expect(ids.length, c.name).toBeGreaterThan(1);
      expect(ids, c.name).toEqual(w.filter((id) => ids.includes(id)).slice(0, ids.length));
      expect(w.slice(0, ids.length), c.name).toEqual(ids);
    }
  });

  it('[I1][V9] a too-deep record is skipped with its line; the others import', () => {
    const doc = JSON.parse(readFormat('opencode-export.json')) as { messages: unknown[] };
    const text = JSON.stringify(doc, null, 2).replace('"messages": [', `"messages": [\n${deepObjectText(200)},`);
    const c = cases[0] as Case;
    const s = streamed(c, text, [100, 5000]);
    const line = text.slice(0, text.indexOf('"messages": [')).split('\n').length + 1;
    expect(s.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'too_deep', line })]);
    expect(s.problems[0]?.message).toMatch(/an element of "messages"\.a\.a.* is nested more than 134 levels deep.*; it was skipped/);
    expect(s.events.map((e) => e.event_id)).toEqual(wholeOf(c, JSON.stringify(doc)).trace.events.map((e) => e.event_id));
  });

  it('[I1] records held for a member written after them stop at the cap with a clear too_large', () => {
    const c = cases.find((k) => k.name === 'reversed-opencode-export.json') as Case;
    const s = streamed(c, c.text, [4096, 8192], 2000);
    expect(s.trace).toBeNull();
    const big = s.problems.find((p) => p.code === 'too_large');
    expect(big).toMatchObject({ severity: 'error', fatal: true });
    expect(big?.message).toMatch(/"messages" wait for "info".*limit of 2000 characters/);
    // Where the file gives `info` first, the same cap holds one message at a time: only the one longer than it is skipped.
    const first = streamed(cases[0] as Case, (cases[0] as Case).text, [], 2000);
    expect(first.trace).not.toBeNull();
    expect(first.problems.map((p) => p.code)).toEqual(['line_too_long']);
  });

  it('[I1] a key written again: the first value is read, each later one is listed with its line and skipped', () => {
    for (const c of base) {
      const doc = JSON.parse(c.text) as Record<string, unknown>;
      const [records] = [...Object.entries(doc)].filter(([, v]) => Array.isArray(v)).map(([k]) => k);
      const pretty = JSON.stringify(doc, null, 2);
      const text = `${pretty.slice(0, pretty.lastIndexOf('}'))},\n  ${JSON.stringify(records)}: [{"role": "user"}],\n  ${JSON.stringify(records)}: 7\n}\n`;
      const s = streamed(c, text, [3000]);
      const lines = pretty.split('\n').length + 1;
      expect(s.problems.filter((p) => p.severity === 'error'), c.name).toEqual([
        expect.objectContaining({ code: 'unreadable_record', line: lines, message: `line ${lines}: the key ${JSON.stringify(records)} appears again in the object; this later value was skipped (the first was read: JSON.parse would keep the last)` }),
        expect.objectContaining({ code: 'unreadable_record', line: lines + 1 }),
      ]);
      expect(s.events, c.name).toEqual(wholeOf(c, c.text).trace.events);
    }
  });
});
