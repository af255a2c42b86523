import type { ConditionExplain, NodeRun, PathExplain } from '../../engine/app.ts';
import type { NodeRunOutcome } from '../sandbox/workerProtocol.ts';
import { expectedText, OP_LABEL, OUTCOME_LONG, valueLine } from '../debugger/model/labels.ts';

/**
 * A node run [X7] as text for the canvas card and the inspector: a headline, its tone and the detail lines.
 * Words only: every verdict, decision and value is the engine's (payload values are shown as JSON text).
 */
export type RunTone = 'pass' | 'fail' | 'block' | 'error' | 'info';

export interface RunText {
  tone: RunTone;
  headline: string;
  lines: string[];
}

const mark = (pass: boolean) => (pass ? '✓' : '✗');

/** A condition's clauses, one line each, indented by depth [X2][X3]. */
export function conditionLines(c: ConditionExplain, depth = 0): string[] {
  const pad = '  '.repeat(depth);
  switch (c.kind) {
    case 'clause': {
      const actual = c.missing ? 'missing' : valueLine(c.actual, 80);
      const line = `${pad}${mark(c.pass)} ${c.path} ${OP_LABEL[c.op]} ${expectedText(c.op, c.expected, 80)} · actual ${actual}`;
      return c.hint ? [line, `${pad}  ${c.hint}`] : [line];
    }
    case 'all':
    case 'any':
      return [`${pad}${mark(c.pass)} ${c.kind === 'all' ? 'all of' : 'any of'}${c.children.length === 0 ? ' (empty)' : ''}`, ...c.children.flatMap((x) => conditionLines(x, depth + 1))];
    case 'not':
      return [`${pad}${mark(c.pass)} not`, ...conditionLines(c.child, depth + 1)];
    case 'code': {
      const lines = [`${pad}${mark(c.pass)} code returned ${c.pass ? 'true' : 'not true'}`];
      if (c.error) lines.push(`${pad}  ${c.error.kind}${c.error.line !== undefined ? ` at line ${c.error.line}` : ''}: ${c.error.message}`);
      for (const l of c.logs) lines.push(`${pad}  log: ${l}`);
      return lines;
    }
  }
}

/** The first clause that failed, for a headline. */
function firstFailure(c: ConditionExplain): string | null {
  if (c.pass && c.kind !== 'not') return null;
  switch (c.kind) {
    case 'clause':
      return c.pass ? null : `${c.path} ${OP_LABEL[c.op]} ${expectedText(c.op, c.expected, 40)}${c.missing ? ' (missing)' : ''}`;
    case 'all':
    case 'any':
      return c.children.map(firstFailure).find((x) => x !== null) ?? null;
    case 'not':
      return c.pass ? null : 'not (…) failed';
    case 'code':
      return c.error ? `code ${c.error.kind}` : 'code returned not true';
  }
}

function pathLines(paths: readonly PathExplain[]): string[] {
  return paths.filter((p) => p.type_matched).flatMap((p) => [
    `${mark(p.pass)} path from ${p.pattern}${p.matchers.length === 0 ? ' (no matcher)' : ''}`,
    ...p.matchers.map((m) => `  ${mark(m.pass)} matcher “${m.label}”`),
  ]);
}

function describeRun(run: NodeRun): RunText {
  if (run.kind === 'event') {
    return {
      tone: run.selects ? 'pass' : 'fail',
      headline: run.selects ? `Selects ${run.event_type} (${run.mode})` : `Does not select ${run.event_type}`,
      lines: [`pattern ${run.pattern} ${run.selects ? 'selects' : 'does not select'} ${run.event_type}`, `${run.event_type} is ${run.mode}: ${run.mode === 'sync' ? 'handlers may block it' : 'handlers observe only, never block'}`],
    };
  }
  if (run.kind === 'matcher') {
    const why = run.failure ? `code could not answer (${run.failure.kind}): ${run.failure.message}` : run.pass ? null : firstFailure(run.condition);
    return {
      tone: run.failure ? 'error' : run.pass ? 'pass' : 'fail',
      headline: run.pass ? 'Matched' : `Not matched${why ? `: ${why}` : ''}`,
      lines: [...conditionLines(run.condition), ...(run.failure ? [`the handler behind it follows its error policy [M8]`] : [])],
    };
  }
  const r = run.run;
  const reach = run.disabled ? 'disabled: dispatch never runs it' : run.candidate ? 'dispatch would run it on this event' : run.paths.length === 0 ? 'dispatch never runs it: no event node is wired to it' : run.paths.some((p) => p.type_matched) ? 'dispatch would not run it: no path passes' : 'dispatch would not run it: no event node on its paths selects this type';
  const lines: string[] = [];
  let tone: RunTone;
  let headline: string;
  if (r.status === 'error') {
    const e = r.error;
    tone = 'error';
    headline = `Error → ${e.policy === 'logged' ? 'logged' : e.policy === 'continue' ? 'CONTINUE' : e.policy === 'terminate' ? 'TERMINATE' : 'BLOCK_ACTION'} (on_error: ${e.policy})`;
    lines.push(`error (${e.kind}${e.line !== undefined ? `, line ${e.line}` : ''}): ${e.message}`);
    for (const l of r.logs ?? []) lines.push(`log: ${l}`);
  } else {
    tone = r.decision === 'continue' ? 'pass' : r.decision === 'stop_propagation' ? 'info' : 'block';
    const ignored = r.ignored === 'shadow' ? ' (shadow: not enforced)' : r.ignored === 'async' ? ' (async: not enforced)' : '';
    const changed = r.patch?.length ? ` · ${r.patch.length} payload change${r.patch.length === 1 ? '' : 's'}` : '';
    headline = `${OUTCOME_LONG[r.decision]}${ignored}${r.reason ? ` · ${r.reason}` : changed}`;
    lines.push(`decision: ${OUTCOME_LONG[r.decision]}${ignored}`);
    if (r.reason) lines.push(`reason: ${r.reason}`);
    if (r.context !== undefined) lines.push(`context for the model: ${r.context}`);
    for (const op of r.patch ?? []) lines.push(`payload ${op.op} ${op.path}${'value' in op ? ` → ${valueLine(op.value as never, 80)}` : ''}`);
    for (const c of r.state_changes ?? []) lines.push(`state.${c.key}: ${valueLine(c.before, 40)} → ${valueLine(c.after, 40)}`);
    for (const l of r.logs ?? []) lines.push(`log: ${l}`);
    if (!r.patch?.length && !r.state_changes?.length) lines.push('payload and state unchanged');
  }
  lines.push(reach);
  if (run.breaker_open_until !== undefined) lines.push(`its breaker is open until ${new Date(run.breaker_open_until).toISOString()}: dispatch skips it (or blocks) until then`);
  lines.push(...pathLines(run.paths));
  return { tone, headline, lines };
}

/** The text of a finished run, or of a run that could not happen. */
export function describeNodeRun(outcome: NodeRunOutcome): RunText {
  if (outcome.ok) return describeRun(outcome.run);
  return { tone: 'error', headline: 'Could not run', lines: [outcome.message, ...(outcome.problems ?? []).slice(0, 5).map((p) => `${p.code}: ${p.message}`)] };
}
