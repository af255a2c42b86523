import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, createReplayer, flowStepVerdicts, whyNotFired, type CompiledPipeline, type PipelineInput, type TraceEvent } from '../../../engine/index.ts';
import { ev, handler, match, pipeline } from '../helpers.ts';
import { te } from './helpers.ts';

// The debugger's and "why (not)"'s account of flow rules [F9][R14]: the rule's verdict on a step from the
// memory before it, naming the earlier step that set it up, and agreeing with what the handler decided.

const compiled = (doc: PipelineInput): CompiledPipeline => {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.compiled;
};

const read = (id: string, file: string) => te(id, 'tool.before_call', { tool_name: 'Read', file_path: file });
const fetchUrl = (id: string) => te(id, 'tool.before_call', { tool_name: 'WebFetch', url: 'https://x.example' });

const egress = pipeline(
  [
    ev('e', 'tool.before_call'),
    match('net', { 'payload.tool_name': { eq: 'WebFetch' } }),
    handler('f', { type: 'flow', rule: 'sequence', mark: { event: 'tool.before_call', when: { 'payload.file_path': { suffix: '.env' } } } }, { name: 'no egress after a secret read' }),
    match('ls', { 'payload.tool_name': { eq: 'Ls' } }),
    handler('a', { type: 'audit' }, { name: 'listing' }),
  ],
  ['e->net', 'net->f', 'e->ls', 'ls->a'],
);

describe('flow rules explained per step', () => {
  it('[F9][R14] the blocked step names the step that set it up, with its index to jump to', () => {
    const c = compiled(egress);
    const r = createReplayer(c, [fetchUrl('e1'), read('e2', 'a.ts'), read('e3', '.env'), te('e4', 'tool.before_call', { tool_name: 'Ls' }), fetchUrl('e5')]);
    const blocked = r.step(4);
    expect(blocked.outcome).toBe('block_action');
    const [v] = flowStepVerdicts(c, blocked);
    expect(v).toMatchObject({ handler_id: 'f', ran: true, fires: true, cause: { index: 2, text: 'tool.before_call Read `.env`' } });
    expect(v!.sentence).toBe('“no egress after a secret read” fired: step 3 (tool.before_call Read `.env`) came before.');
    // The reason says the same sentence the verdict gives.
    expect(blocked.reason).toBe('no egress after a secret read — step 3 (tool.before_call Read `.env`) came before');
    const why = whyNotFired(c, 'f', blocked);
    expect(why.reason).toMatchObject({ kind: 'fired', decision: 'block_action', cause: { index: 2 } });
  });

  it('[F9][R14] why not: a flow rule that ran and did not fire says what its memory lacked', () => {
    const c = compiled(egress);
    const r = createReplayer(c, [fetchUrl('e1'), read('e2', '.env'), te('e3', 'tool.before_call', { tool_name: 'Ls' })]);
    const first = whyNotFired(c, 'f', r.step(0));
    expect(first.fired).toBe(false);
    expect(first.reason).toEqual({ kind: 'flow_not_fired', text: 'no earlier event matched', cause: null });
    expect(first.sentence).toBe('“no egress after a secret read” ran, but its flow rule did not fire: no earlier event matched.');
    // On a step its wiring did not select, the usual answer (a failed matcher), and the verdict says it did not see it.
    expect(whyNotFired(c, 'f', r.step(2)).reason.kind).toBe('not_matched');
    const [v] = flowStepVerdicts(c, r.step(2));
    expect(v).toMatchObject({ ran: false, fires: true, cause: { index: 1 } });
    // Steps without dispatch (a repeated id) have no verdicts.
    const dup = createReplayer(c, [fetchUrl('e1'), fetchUrl('e1')]).step(1);
    expect(flowStepVerdicts(c, dup)).toEqual([]);
  });

  it('[F9] a precondition points at the reset, a flag at the step that set it', () => {
    const doc = pipeline(
      [
        ev('e', 'tool.before_call'),
        match('push', { 'payload.command': { prefix: 'git push' } }),
        handler('p', { type: 'flow', rule: 'precondition', mark: { event: 'tool.after_call', when: { 'payload.exit_code': { eq: 0 } } }, clear: { event: 'tool.before_call', when: { 'payload.tool_name': { eq: 'Edit' } } } }, { name: 'push after green tests' }),
      ],
      ['e->push', 'push->p'],
    );
    const c = compiled(doc);
    const r = createReplayer(c, [te('e1', 'tool.after_call', { command: 'npm test', exit_code: 0 }), te('e2', 'tool.before_call', { tool_name: 'Edit', file_path: 'a.ts' }), te('e3', 'tool.before_call', { tool_name: 'Bash', command: 'git push' })]);
    const [v] = flowStepVerdicts(c, r.step(2));
    expect(v).toMatchObject({ ran: true, fires: true, cause: { index: 1, text: 'tool.before_call Edit `a.ts`' }, cleared: { index: 1 } });
  });

  it('[F9] property: for every step, a flow rule that ran fired exactly when its handler decided something', () => {
    const TOOLS = ['Read', 'Bash', 'WebFetch'];
    const rule = fc.record({
      rule: fc.constantFrom('sequence' as const, 'flag' as const, 'window' as const, 'precondition' as const),
      markTool: fc.constantFrom(...TOOLS),
      clearTool: fc.option(fc.constantFrom(...TOOLS), { nil: undefined }),
      decideTool: fc.constantFrom(...TOOLS),
      limit: fc.integer({ min: 1, max: 3 }),
    });
    const eventsArb = fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), after: fc.boolean() }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 3 }), eventsArb, (rules, evs) => {
        const nodes: PipelineInput['nodes'] = [ev('e', 'tool.before_call')];
        const wires: string[] = [];
        rules.forEach((x, i) => {
          const sel = (tool: string) => ({ event: 'tool.*', when: { 'payload.tool_name': { eq: tool } } });
          nodes.push(match(`m${i}`, { 'payload.tool_name': { eq: x.decideTool } }));
          nodes.push(handler(`f${i}`, { type: 'flow', rule: x.rule, mark: sel(x.markTool), ...(x.clearTool ? { clear: sel(x.clearTool) } : {}), decision: 'ask', ...(x.rule === 'window' ? { limit: x.limit, within_ms: 60_000 } : {}) }, { name: `r${i}`, order: i }));
          wires.push(`e->m${i}`, `m${i}->f${i}`);
        });
        const c = compiled(pipeline(nodes, wires));
        const events: TraceEvent[] = evs.map((x, n) => te(`x${n}`, x.after ? 'tool.after_call' : 'tool.before_call', { tool_name: x.tool }));
        const r = createReplayer(c, events);
        for (let i = 0; i < events.length; i++) {
          const step = r.step(i);
          for (const v of flowStepVerdicts(c, step)) {
            if (!v.ran) continue;
            const h = step.explanation!.handlers.find((x) => x.handler_id === v.handler_id)!;
            expect(h.status === 'fired' && h.decision !== 'continue').toBe(v.fires);
            if (v.fires && v.kind !== 'precondition') expect(v.cause!.index).toBeLessThan(i);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
