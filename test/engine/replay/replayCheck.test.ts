// [R16][R17] The replay check: which recorded decisions it compares (by default those of the replayed file's own
// pipeline version or naming none; with --check all), what it counts and when it fails. Checked against a plain
// model of the rule over random traces, and the version itself against node:crypto.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { replaySteps, type TraceEvent } from '../../../engine/index.ts';
import { checkVerdict, createReplayCheck, checkedAs, type CheckScope } from '../../../engine/replay/replayCheck.ts';
import { pipelineVersionOf, PIPELINE_VERSION_RE } from '../../../engine/trace/pipelineVersion.ts';
import { useSha256 } from '../../../engine/trace/hashChain.ts';
import { nativeSha256Hex } from '../../../engine/node/nativeSha256.ts';
import type { Decision } from '../../../engine/model/decision.ts';
import { block, compile, ev, event, handler, match, pipeline } from '../helpers.ts';

const DOC = pipeline([ev('t', 'tool.before_call'), match('rm', { 'payload.tool_name': 'rm' }), handler('no-rm', block('no rm'))], ['t->rm', 'rm->no-rm']);
const OWN = 'sha256:00000000000000aa';
const OTHER = 'sha256:00000000000000bb';

interface Planned {
  rm: boolean;
  /** null: the event records no decision. */
  recorded: null | { decision: Decision; pipeline: string | undefined };
}
const plannedArb: fc.Arbitrary<Planned> = fc.record({
  rm: fc.boolean(),
  recorded: fc.option(fc.record({ decision: fc.constantFrom<Decision>('continue', 'block_action'), pipeline: fc.constantFrom(OWN, OTHER, undefined) }), { nil: null }),
});

function traceOf(plan: readonly Planned[]): TraceEvent[] {
  return plan.map((p, i) =>
    event('tool.before_call', { tool_name: p.rm ? 'rm' : 'ls' }, {
      event_id: `e${i}`,
      ...(p.recorded ? { recorded: { decision: p.recorded.decision, ...(p.recorded.pipeline !== undefined ? { pipeline: p.recorded.pipeline } : {}) } } : {}),
    } as Partial<TraceEvent>),
  );
}

/** The rule, plainly: which events are compared, and which of them differ (rm is blocked, the rest goes on). */
function model(plan: readonly Planned[], version: string | null, scope: CheckScope) {
  const recorded = plan.filter((p) => p.recorded !== null);
  const compared = recorded.filter((p) => scope === 'all' || version === null || p.recorded!.pipeline === undefined || p.recorded!.pipeline === version);
  const mismatches = compared.filter((p) => p.recorded!.decision !== (p.rm ? 'block_action' : 'continue')).length;
  return { recorded: recorded.length, compared: compared.length, other: recorded.length - compared.length, mismatches };
}

function run(plan: readonly Planned[], version: string | null, scope: CheckScope) {
  const c = compile(DOC);
  const check = createReplayCheck(version, scope, 5);
  for (const step of replaySteps(c, traceOf(plan))) check.add(step);
  return check.tally;
}

describe('[R17] the check compares the decisions of its own pipeline version', () => {
  it('[R17] property: compared, skipped and differing counts equal the plain rule, for the default scope, --check and an unknown version', () => {
    fc.assert(
      fc.property(fc.array(plannedArb, { maxLength: 60 }), fc.constantFrom<[string | null, CheckScope]>([OWN, 'own'], [OWN, 'all'], [null, 'own'], [OTHER, 'own']), (plan, [version, scope]) => {
        const t = run(plan, version, scope);
        const m = model(plan, version, scope);
        expect({ events: t.events, recorded: t.recorded, compared: t.compared, other: t.other_pipeline, mismatches: t.mismatches }).toEqual({ events: plan.length, recorded: m.recorded, compared: m.compared, other: m.other, mismatches: m.mismatches });
        expect(t.reported).toHaveLength(Math.min(5, m.mismatches));
        // The verdict: fails exactly when a compared decision differs, or when --check finds nothing recorded.
        const asked = scope === 'all';
        expect(checkVerdict(t, asked, version).pass).toBe(m.mismatches === 0 && !(asked && m.recorded === 0));
      }),
      { numRuns: 300 },
    );
  });

  it('[R17] property: by default, what another version recorded never changes the verdict (a changed pipeline over an old recording passes); --check sees it', () => {
    fc.assert(
      fc.property(fc.array(plannedArb, { maxLength: 40 }), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (plan, flips) => {
        // The same trace with the other version's recorded decisions flipped where `flips` says.
        const flipped = plan.map((p, i) => (p.recorded?.pipeline === OTHER && flips[i] ? { ...p, recorded: { ...p.recorded, decision: p.recorded.decision === 'continue' ? ('block_action' as const) : ('continue' as const) } } : p));
        const verdict = (pl: Planned[], scope: CheckScope) => checkVerdict(run(pl, OWN, scope), scope === 'all', OWN).pass;
        expect(verdict(flipped, 'own')).toBe(verdict(plan, 'own'));
        if (flipped.some((p, i) => p !== plan[i])) expect(verdict(flipped, 'all') && verdict(plan, 'all')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('[R17] unit: checkedAs for each case, and the report of a trace whose every decision is of another version', () => {
    const steps = [...replaySteps(compile(DOC), traceOf([
      { rm: true, recorded: { decision: 'continue', pipeline: OTHER } },
      { rm: false, recorded: null },
      { rm: false, recorded: { decision: 'continue', pipeline: undefined } },
    ]))];
    expect(steps.map((s) => checkedAs(s, OWN, 'own'))).toEqual(['other_pipeline', 'unrecorded', 'compared']);
    expect(steps.map((s) => checkedAs(s, OWN, 'all'))).toEqual(['compared', 'unrecorded', 'compared']);
    expect(steps.map((s) => checkedAs(s, null, 'own'))).toEqual(['compared', 'unrecorded', 'compared']);

    const only = run([{ rm: true, recorded: { decision: 'continue', pipeline: OTHER } }], OWN, 'own');
    expect(checkVerdict(only, false, OWN)).toEqual({ pass: true, lines: [`Check: no recorded decision was made by this pipeline (${OWN}), so none was compared (1 decision recorded by another pipeline version (${OTHER}) not checked: --check compares them too).`] });
    const asked = run([{ rm: true, recorded: { decision: 'continue', pipeline: OTHER } }], OWN, 'all');
    expect(checkVerdict(asked, true, OWN)).toEqual({ pass: false, lines: ['Check failed: 1 of 1 recorded decision differ from the replay:', `  #1 e0 (tool.before_call): recorded CONTINUE [by pipeline ${OTHER}]; replayed BLOCK_ACTION (no rm) by no-rm`] });
  });

  it('[R6][R16] property: a matching decision recorded as made by another handler is listed, never failed; the rest of the verdict is unchanged', () => {
    // Each event's recorded decision is the replayed one (rm is blocked by no-rm), naming a decider or none.
    const arb = fc.array(fc.record({ rm: fc.boolean(), by: fc.constantFrom<string | undefined>(undefined, 'no-rm', 'someone-else') }), { maxLength: 40 });
    fc.assert(
      fc.property(arb, (plan) => {
        const c = compile(DOC);
        const check = createReplayCheck(null, 'all', 5);
        const trace = plan.map((p, i) => event('tool.before_call', { tool_name: p.rm ? 'rm' : 'ls' }, {
          event_id: `e${i}`,
          recorded: { decision: p.rm ? 'block_action' : 'continue', ...(p.rm ? { reason: 'no rm' } : {}), ...(p.by !== undefined ? { decided_by: p.by } : {}) },
        } as Partial<TraceEvent>));
        for (const step of replaySteps(c, trace)) check.add(step);
        const other = plan.filter((p) => p.by !== undefined && p.by !== (p.rm ? 'no-rm' : null)).length;
        const t = check.tally;
        expect([t.mismatches, t.differently, t.reported_differently.length]).toEqual([0, other, Math.min(5, other)]);
        const verdict = checkVerdict(t, true, null);
        expect(verdict.pass).toBe(plan.length > 0);
        expect(verdict.lines.some((l) => /by another handler \(flagged, not failed/.test(l))).toBe(other > 0);
      }),
      { numRuns: 200 },
    );
    const one = createReplayCheck(null, 'all');
    for (const step of replaySteps(compile(DOC), [event('tool.before_call', { tool_name: 'rm' }, { event_id: 'e0', recorded: { decision: 'block_action', reason: 'no rm', decided_by: 'h-old' } } as Partial<TraceEvent>)])) one.add(step);
    expect(checkVerdict(one.tally, true, null).lines).toEqual([
      'Check: the 1 recorded decision matches the replay.',
      '1 matching decision was made for another reason or by another handler (flagged, not failed: the check compares decisions):',
      '  #1 e0 (tool.before_call): Recorded BLOCK_ACTION by “h-old” (no rm); replay decides BLOCK_ACTION too by “no-rm” (no rm): the same decision for another handler.',
    ]);
  });

  it('[R17] the version is sha256: and the first 16 hex of SHA-256 of the text\'s UTF-8 bytes, portable and native alike', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const expected = `sha256:${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}`;
        expect(pipelineVersionOf(text)).toBe(expected);
        useSha256(nativeSha256Hex);
        try {
          expect(pipelineVersionOf(text)).toBe(expected);
        } finally {
          useSha256(null);
        }
        expect(expected).toMatch(PIPELINE_VERSION_RE);
      }),
      { numRuns: 200 },
    );
    // Any change is a new version, a trailing newline included.
    expect(pipelineVersionOf('{"a":1}')).not.toBe(pipelineVersionOf('{"a":1}\n'));
  });
});
