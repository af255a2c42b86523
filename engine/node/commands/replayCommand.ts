// `hookwire replay <pipeline.json> <trace>`: the decision of every event, as a table or as JSON Lines [P10].
// The replay itself is engine/replay's (state carried, clock = event ts, duplicates, TERMINATE, divergence).
import type { StepOutcome } from '../../replay/types.ts';
import { createReplayRun } from '../../replay/replaySteps.ts';
import { decisionLine } from '../../runtime/decideTrace.ts';
import type { ReplayStep } from '../../replay/types.ts';
import type { TraceFormat } from '../../trace/detectTraceFormat.ts';
import { bufferedIo, cell, EXIT, plural, table, type Io } from '../cliIo.ts';
import { compilePipelineFile } from '../loadPipelineFile.ts';
import { isPartial, streamTraceForCli } from '../loadTraceForCli.ts';
import { openSpill } from '../spillFile.ts';
import { approvalNote, checkVerdict, createReplayCheck, stepOutcomeWord, UNRECORDED_STEP } from '../../replay/replayCheck.ts';

export interface ReplayOptions {
  json?: boolean;
  from?: TraceFormat;
  /**
   * Compare replayed decisions with the recorded ones [R16][R17]: true (`--check`: every recorded decision),
   * false (`--no-check`), or undefined: the decisions recorded by this pipeline file's version (or naming none).
   */
  check?: boolean;
}

/** Short flags for the table: what a person should notice about a step. */
function notes(s: ReplayStep): string {
  const out: string[] = [];
  if (s.not_reached) out.push(`not reached (run ended at #${(s.ended_at ?? 0) + 1})`);
  if (s.duplicate) out.push(`repeat of #${(s.duplicate_of ?? 0) + 1}`);
  if (s.payload_changed) out.push('rewritten');
  if (s.errors.length > 0) out.push(plural(s.errors.length, 'error'));
  if (s.divergent && s.recorded) out.push(`recorded ${s.recorded.decision}`);
  // [R6] the same decision, recorded as made by another handler or for another reason.
  if (s.reason_differs && s.recorded) out.push(s.recorded.decided_by !== undefined && s.recorded.decided_by !== s.decided_by ? `recorded by ${s.recorded.decided_by}` : 'recorded another reason');
  // [S14] reproduced, not re-timed: the step's note says so in full (the debugger shows it).
  if (s.notes.some((n) => n.kind === 'wall_clock')) out.push('wall-clock net as recorded');
  // [R17] recorded by another version of the pipeline: not compared (the step's note names both versions).
  if (s.notes.some((n) => n.kind === 'other_pipeline') && s.recorded) out.push(`recorded ${s.recorded.decision} by ${s.recorded.pipeline}`);
  const answer = approvalNote(s);
  if (answer) out.push(answer);
  // Said once, where it starts: every later step is counterfactual too (the summary says so).
  if (s.counterfactual && s.counterfactual_since === s.index - 1) out.push('counterfactual from here');
  return out.join(', ');
}

export async function replayCommand(pipelinePath: string, tracePath: string, options: ReplayOptions, unbuffered: Io): Promise<number> {
  const loaded = await compilePipelineFile(pipelinePath);
  // One write per 64 Ki characters, not one per event line.
  const io = bufferedIo(unbuffered);
  // The reader's index of every id [T6] keeps its records in a temporary file (with a Map of ids and final
  // payloads, 1M events peaked at 559 MB); replay keeps only its repeat window [E5][R5].
  const spill = openSpill();
  try {
    const rows: string[][] = [];
    const counts = new Map<StepOutcome, number>();
    let divergent = 0;
    let counterfactualSince = -1;
    let events = 0;
    let anyRecorded = false;
    // [R17] the steps know this file's version: a decision another version recorded is no divergence.
    const run = createReplayRun(loaded.compiled, { explain: false, pipelineVersion: loaded.version });
    // [R17] by default only the decisions this file's version made (or that name none) are compared.
    const check = options.check === false ? null : createReplayCheck(loaded.version, options.check === true ? 'all' : 'own');
    // Each event is replayed as it is read and its line written at once: `--json` holds neither the trace
    // nor its steps, so memory stays flat in the trace length.
    const read = await streamTraceForCli(tracePath, io, options.from, (event) => {
      events++;
      if (event.recorded !== undefined) anyRecorded = true;
      if (options.json) {
        // The rules' answer without the step's sentences and flags, which the line does not print [P10]; the
        // check makes the whole step only of an event that recorded a decision.
        const core = run.decide(event);
        check?.add(core.recorded === null ? UNRECORDED_STEP : run.expand(core));
        io.out(decisionLine(core));
        return;
      }
      const step = run.push(event);
      check?.add(step);
      counts.set(step.outcome, (counts.get(step.outcome) ?? 0) + 1);
      if (step.divergent) divergent++;
      if (step.counterfactual && counterfactualSince < 0) counterfactualSince = step.counterfactual_since ?? -1;
      rows.push([String(step.index + 1), cell(step.event.event_id, 36), cell(step.event.type, 24), stepOutcomeWord(step), cell(step.decided_by ?? '-', 24), cell(notes(step), 48), cell(step.reason, 80)]);
    }, spill);
    if (!options.json) {
      io.out(table(['#', 'event', 'type', 'decision', 'decided by', 'notes', 'reason'], rows));
      const tally = [...counts].map(([d, n]) => `${n} ${d}`).join(', ');
      const recorded = anyRecorded ? `; ${plural(divergent, 'decision')} differ from the recording` : '';
      io.out(`\n${plural(events, 'event')}${tally ? `: ${tally}` : ''}${recorded}\n`);
      if (counterfactualSince >= 0) {
        io.out(`Steps after #${counterfactualSince + 1} are counterfactual: it blocks an action that really ran, so the trace shows what happened without the block.\n`);
      }
    }
    // The check's report [R16][R17]: after the table, or on stderr with `--json` (stdout keeps the stable lines).
    const verdict = check ? checkVerdict(check.tally, options.check === true, loaded.version) : { pass: true, lines: [] };
    for (const line of verdict.lines) {
      if (options.json) io.err(`${line}\n`);
      else io.out(`${line}\n`);
    }
    const checked = verdict.pass;
    // Lines or records were dropped: the decisions above are of a partial trace [P9].
    return isPartial(read) || !checked ? EXIT.failed : EXIT.ok;
  } finally {
    io.flush();
    spill.close();
    loaded.dispose();
  }
}
