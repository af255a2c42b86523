import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReplayer, importTrace, replayTrace, whyNotFired, type PipelineInput, type TraceEvent } from '../../../engine/index.ts';
import { compile } from '../helpers.ts';
import { FIXTURES_DIR, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

// Replay over the importers' output for every real recording in ../shared/fixtures/traces (skipped, with
// the fixture helper's message, when the folder is absent).

const GATED = /^(bash|write_file|str_replace_editor|edit)$/i;

/** Demo-like policy: gate shell and file-writing tools, a prompt-injection check on the wrong field, redaction, a token count, an audit log. */
const policy: PipelineInput = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'fixture policy',
  nodes: [
    { id: 'ev-before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'm-gated', kind: 'matcher', label: 'Shell and writes', when: { 'payload.tool_name': { regex: { pattern: GATED.source, flags: 'i' } } } },
    { id: 'gate', kind: 'handler', name: 'Gate tools', order: 10, action: { type: 'block', reason: 'Gate: {{payload.tool_name}} needs approval' } },
    { id: 'ev-input', kind: 'event', pattern: 'input.received' },
    { id: 'm-injection', kind: 'matcher', label: 'Prompt injection', when: { 'payload.input': { regex: { pattern: 'ignore (all )?previous instructions', flags: 'i' } } } },
    { id: 'injection', kind: 'handler', name: 'Block prompt injection', order: 5, action: { type: 'block', reason: 'injection' } },
    { id: 'ev-after', kind: 'event', pattern: 'tool.after_call' },
    { id: 'ev-model', kind: 'event', pattern: 'model.after_call' },
    { id: 'redact', kind: 'handler', name: 'Redact keys', order: 20, action: { type: 'rewrite', ops: [{ op: 'redact', pattern: 'sk-[A-Za-z0-9]{16,}', replacement: '[REDACTED]' }] } },
    { id: 'tokens', kind: 'handler', name: 'Count output tokens', order: 30, action: { type: 'budget', key: 'output_tokens', amount_path: 'payload.usage.output_tokens', limit: 1e12 } },
    { id: 'ev-any', kind: 'event', pattern: '*' },
    { id: 'log', kind: 'handler', name: 'Audit log', order: 100, action: { type: 'audit', fields: ['payload.tool_name'] } },
  ],
  wires: [
    { from: 'ev-before', to: 'm-gated' },
    { from: 'm-gated', to: 'gate' },
    { from: 'ev-input', to: 'm-injection' },
    { from: 'm-injection', to: 'injection' },
    { from: 'ev-after', to: 'redact' },
    { from: 'ev-model', to: 'redact' },
    { from: 'ev-model', to: 'tokens' },
    { from: 'ev-any', to: 'log' },
  ],
};

/** Every recording in the fixtures folder, by relative path. */
function fixtureFiles(): string[] {
  if (!HAVE_FIXTURES) return [];
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(FIXTURES_DIR, d.name)).map((f) => `${d.name}/${f}`))
    .filter((rel) => existsSync(join(FIXTURES_DIR, rel)) && !rel.endsWith('.md'))
    .sort();
}

const outputTokens = (events: TraceEvent[]) =>
  events.filter((e) => e.type === 'model.after_call').reduce((n, e) => {
    const usage = e.payload.usage as { output_tokens?: unknown } | undefined;
    return n + (typeof usage?.output_tokens === 'number' ? usage.output_tokens : 0);
  }, 0);

describe.skipIf(!HAVE_FIXTURES)('replay over real recordings', () => {
  const files = fixtureFiles();
  const c = compile(policy);

  it('finds the recordings', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files)('[R1]-[R10][R13][R14] %s', (rel) => {
    const { trace, problems } = importTrace(readFixture(rel), { fileName: rel.split('/').pop()! });
    expect(trace, JSON.stringify(problems.slice(0, 3))).not.toBeNull();
    const events = trace!.events;
    const steps = replayTrace(c, events);
    expect(steps).toHaveLength(events.length);

    // [R1] the gate blocks exactly the gated tool calls; nothing terminates, so every event is dispatched.
    const gated = events.flatMap((e, i) => (e.type === 'tool.before_call' && GATED.test(String(e.payload.tool_name)) ? [i] : []));
    expect(gated.length).toBeGreaterThan(0);
    expect(steps.filter((s) => s.outcome === 'block_action').map((s) => s.index)).toEqual(gated);
    expect(steps.every((s) => !s.not_reached)).toBe(true);

    // [R7] imports record no decisions: the first block stopped a tool that really ran; all later steps are counterfactual.
    const first = gated[0]!;
    steps.forEach((s, i) => expect([s.divergent, s.counterfactual, s.counterfactual_since]).toEqual([false, i > first, i > first ? first : null]));

    // [R2] state carries the token count across the whole trace.
    expect(steps.at(-1)!.state_after.vars.output_tokens ?? 0).toBe(outputTokens(events));

    // [R9] random access, backwards with small checkpoints, equals the straight replay; [R3] so does a second run.
    const r = createReplayer(c, events, { checkpointEvery: 4, cacheSize: 1 });
    for (let i = events.length - 1; i >= 0; i -= 3) expect(r.step(i)).toEqual(steps[i]);
    expect(replayTrace(c, events)).toEqual(steps);

    // [R13] coverage: the gate fired on each gated call; the injection check never fired (wrong field name).
    const cov = r.coverage();
    expect(cov.handlers.find((h) => h.handler_id === 'gate')!.fired).toBe(gated.length);
    expect(cov.never_fired).toContain('injection');
    expect(cov.handlers.find((h) => h.handler_id === 'log')!.fired).toBe(events.length - gated.length);

    // [R14] and says why on the first user input: `payload.input` is missing, the payload has `prompt`.
    const input = r.find({ kind: 'event_type', type: 'input.received' }, { from: -1 });
    expect(input).toBeGreaterThanOrEqual(0);
    const why = whyNotFired(c, 'injection', r.step(input));
    expect(why.sentence).toMatch(/^“Block prompt injection” did not fire: matcher “Prompt injection” failed: `payload\.input` is missing; the payload has `prompt`/);
  });
});
