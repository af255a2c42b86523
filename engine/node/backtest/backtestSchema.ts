// The `hookwire backtest --json` document [B3], as a zod schema: `npm run schema` writes it to
// engine/schema/backtest.v1.schema.json, and the CLI tests parse real output with it (strict objects, so a
// field added to or dropped from the engine's BacktestReport without this schema fails them).
import { z } from 'zod';
import { DECISIONS } from '../../model/decision.ts';
import { BACKTEST_CATEGORIES } from '../../replay/backtest.ts';
import { DIFF_CHANGES, type DiffChange } from '../../replay/diffPipelines.ts';
import { BACKTEST_FORMAT, BACKTEST_VERSION } from '../../replay/backtestReport.ts';
import { OUTCOMES } from '../../replay/types.ts';

const count = z.number().int().min(0);
const counts = {
  changed: count.describe('Events that differ (what `hookwire diff` lists).'),
  new_blocks: count.describe('BLOCK_ACTION or TERMINATE in the new pipeline, neither in the old.'),
  lifted_blocks: count.describe('BLOCK_ACTION or TERMINATE in the old pipeline, neither in the new.'),
  changed_rewrites: count.describe('Other differences whose final payloads differ.'),
  new_asks: count.describe('ASK in the new pipeline and not in the old (and no new or lifted block).'),
  other: count.describe('The rest: a changed reason, a changed non-blocking decision.'),
};

const SideSchema = z
  .strictObject({
    outcome: z.enum(OUTCOMES as [string, ...string[]]),
    decision: z.enum(DECISIONS as [string, ...string[]]),
    reason: z.string(),
    decided_by: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()).describe('The final payload (untrusted: render as text).'),
    context: z.array(z.string()).describe('The texts for the model the handlers added, in order (untrusted).'),
  })
  .describe('What one pipeline made of the event, as `hookwire diff --json` gives it.');

const DifferenceSchema = z.strictObject({
  event_id: z.string(),
  type: z.string(),
  step: z.number().int().min(1).describe("The event's place in its trace, from 1."),
  category: z.enum(BACKTEST_CATEGORIES as [string, ...string[]]),
  changes: z.array(z.enum(DIFF_CHANGES as [DiffChange, ...DiffChange[]])).describe('outcome, else reason, else decided_by; then payload and context when they differ.'),
  a: SideSchema,
  b: SideSchema,
});

const ViolatedLabelSchema = z
  .strictObject({
    event_id: z.string(),
    type: z.string(),
    step: z.number().int().min(1),
    expected: z.record(z.string(), z.unknown()).nullable().describe("The label, the event's `meta.expect` (null when it does not read)."),
    failures: z.array(z.string()).describe('What the new pipeline does not meet, one line each.'),
    violated_before: z.boolean().describe('The old pipeline did not meet it either.'),
  })
  .describe('A step labelled with an expected decision that the new pipeline violates [B7].');

const FileSchema = z.strictObject({
  file: z.string().describe('As walked from the argument.'),
  format: z.string().describe('The format it was imported as.'),
  events: count,
  problems: z.array(z.string()).describe('What the import dropped or warned about.'),
  ...counts,
  labels: count.describe('Steps labelled with an expected decision (`meta.expect`).'),
  violated_labels: z.array(ViolatedLabelSchema),
  differences: z.array(DifferenceSchema),
});

/** The whole document. */
export const BacktestReportSchema = z.strictObject({
  format: z.literal(BACKTEST_FORMAT),
  version: z.literal(BACKTEST_VERSION),
  old: z.string(),
  new: z.string(),
  files: z.array(FileSchema),
  skipped: z.array(z.strictObject({ file: z.string(), reason: z.string() })).describe('Files no importer accepted, with the reason.'),
  total: z.strictObject({ files: count, events: count, skipped: count, labels: count, labels_violated: count, ...counts }),
  unguarded: z
    .array(z.strictObject({ agent: z.string(), tool: z.string(), count, files: count }))
    .describe('Tool calls (tool.before_call) no enabled, enforcing handler of the new pipeline matched, by agent and tool.'),
  never_matched: z
    .array(z.strictObject({ matcher_id: z.string(), label: z.string(), handlers: z.array(z.string()) }))
    .describe('Matchers of the new pipeline that matched no event of the corpus.'),
  never_sent: z
    .array(z.strictObject({ event_node_id: z.string(), pattern: z.string(), handlers: z.array(z.string()) }))
    .describe('Event nodes of the new pipeline whose pattern selects no event type the corpus holds.'),
});
