import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backtestCategory,
  BACKTEST_CATEGORIES,
  backtestHtml,
  backtestMarkdown,
  createBacktestCorpus,
  createFileBacktest,
  diffPipelines,
  replayTrace,
  type BacktestFileEntry,
  type CompiledPipeline,
  type PipelineInput,
  type TraceEvent,
} from '../../../engine/index.ts';
import { block, compile, ev, handler, match, pipeline, terminate } from '../helpers.ts';
import { pipelineArb, traceArb } from './arbitraries.ts';
import { te } from './helpers.ts';

const ask = (reason = 'ok?') => ({ type: 'ask' as const, reason });
const setPath = { type: 'rewrite' as const, ops: [{ op: 'set' as const, path: 'payload.path', value: '***' }] };

/** v1 blocks rm and asks for curl; v2 blocks Bash too, lifts the rm block, asks for git, redacts paths, never blocks curl. */
function versions(): [CompiledPipeline, CompiledPipeline] {
  const v1 = pipeline(
    [ev('before', 'tool.before_call'), match('rm', { 'payload.tool_name': 'rm' }), handler('no-rm', block('no rm')), match('curl', { 'payload.tool_name': 'curl' }), handler('ask-curl', ask())],
    ['before->rm', 'rm->no-rm', 'before->curl', 'curl->ask-curl'],
  );
  const v2 = pipeline(
    [
      ev('before', 'tool.before_call'),
      match('bash', { 'payload.tool_name': 'Bash' }),
      handler('no-bash', block('no bash')),
      match('git', { 'payload.tool_name': 'git' }),
      handler('ask-git', ask('git?')),
      ev('after', 'tool.after_call'),
      handler('redact', setPath),
      match('renamed', { 'payload.tool_name': 'Shell' }),
      handler('no-shell', block('no shell')),
      ev('stop', 'agent.stop'),
      handler('on-stop', terminate('stop')),
    ],
    ['before->bash', 'bash->no-bash', 'before->git', 'git->ask-git', 'after->redact', 'before->renamed', 'renamed->no-shell', 'stop->on-stop'],
  );
  return [compile(v1), compile(v2)];
}

const trace: TraceEvent[] = [
  te('e1', 'tool.before_call', { tool_name: 'Bash' }),
  te('e2', 'tool.before_call', { tool_name: 'rm' }),
  te('e3', 'tool.before_call', { tool_name: 'git' }),
  te('e4', 'tool.after_call', { tool_name: 'git', path: '/a' }),
  te('e5', 'tool.before_call', { tool_name: 'curl' }),
  te('e6', 'tool.before_call', { tool_name: 'Read' }, { agent_id: 'other' }),
  te('e7', 'tool.before_call', { tool_name: 'Read' }, { agent_id: 'other' }),
];

function run(a: CompiledPipeline, b: CompiledPipeline, events: readonly TraceEvent[]) {
  const f = createFileBacktest(a, b);
  for (const e of events) f.push(e);
  return f.result();
}

describe('backtest', () => {
  it('[B1][B2] lists what the diff lists, each with its category, and counts by category', () => {
    const [a, b] = versions();
    const r = run(a, b, trace);
    expect(r.differences.map((d) => [d.event_id, d.step, d.category])).toEqual([
      ['e1', 1, 'new_block'],
      ['e2', 2, 'lifted_block'],
      ['e3', 3, 'new_ask'],
      ['e4', 4, 'changed_rewrite'],
      ['e5', 5, 'other'],
    ]);
    expect(r).toMatchObject({ events: 7, changed: 5, new_blocks: 1, lifted_blocks: 1, new_asks: 1, changed_rewrites: 1, other: 1 });
    const d = diffPipelines(a, b, trace);
    expect(r.differences.map((x) => ({ event_id: x.event_id, changes: x.changes, a: x.a, b: x.b }))).toEqual(d.changed.map((x) => ({ event_id: x.event_id, changes: x.changes, a: x.before, b: x.after })));
  });

  it('[B2] a step after the run ended still blocks: TERMINATE where there was a block is no lifted block', () => {
    expect(backtestCategory({ changes: ['outcome'], before: { decision: 'block_action' }, after: { decision: 'terminate' } })).toBe('other');
    expect(backtestCategory({ changes: ['outcome'], before: { decision: 'continue' }, after: { decision: 'terminate' } })).toBe('new_block');
    expect(backtestCategory({ changes: ['outcome', 'payload'], before: { decision: 'ask' }, after: { decision: 'continue' } })).toBe('changed_rewrite');
    expect(backtestCategory({ changes: ['outcome'], before: { decision: 'ask' }, after: { decision: 'block_action' } })).toBe('new_block');
    expect(backtestCategory({ changes: ['reason'], before: { decision: 'ask' }, after: { decision: 'ask' } })).toBe('other');
  });

  it('[B1][B2] property: over random pipelines and traces, the differences are exactly the diff\'s and the counts add up', () => {
    fc.assert(
      fc.property(pipelineArb, pipelineArb, traceArb, (p1, p2, events) => {
        const a = compile(p1);
        const b = compile(p2);
        const r = run(a, b, events);
        const d = diffPipelines(a, b, events);
        expect(r.differences.map((x) => [x.step - 1, x.event_id, x.changes, x.a, x.b])).toEqual(d.changed.map((x) => [x.index, x.event_id, x.changes, x.before, x.after]));
        expect(r.changed).toBe(d.changed_count);
        expect(r.new_blocks + r.lifted_blocks + r.new_asks + r.changed_rewrites + r.other).toBe(r.changed);
        for (const c of BACKTEST_CATEGORIES) expect(r.differences.filter((x) => x.category === c).length).toBe(r[({ new_block: 'new_blocks', lifted_block: 'lifted_blocks', new_ask: 'new_asks', changed_rewrite: 'changed_rewrites', other: 'other' } as const)[c]]);
        // Identical pipelines never differ.
        expect(run(a, a, events).changed).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('[B6] property: keeping a few of each category keeps the first ones of each, in trace order, and the counts stay complete', () => {
    fc.assert(
      fc.property(pipelineArb, pipelineArb, traceArb, fc.integer({ min: 0, max: 3 }), (p1, p2, events, keep) => {
        const a = compile(p1);
        const b = compile(p2);
        const all = run(a, b, events);
        const f = createFileBacktest(a, b, { keepPerCategory: keep });
        for (const e of events) f.push(e);
        const r = f.result();
        const { differences: _all, ...counts } = all;
        const { differences: kept, ...keptCounts } = r;
        expect(keptCounts).toEqual(counts);
        const expected = all.differences.filter((d) => all.differences.filter((x) => x.category === d.category && x.step <= d.step).length <= keep);
        expect(kept).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('[B7] labels (meta.expect, with a note) are checked on the new pipeline; a violated one says whether the old met it; a bad one is violated, never passed over', () => {
    const [a, b] = versions();
    const labelled: TraceEvent[] = [
      { ...te('l1', 'tool.before_call', { tool_name: 'rm' }), meta: { expect: { decision: 'block_action', note: 'never rm' } } },
      { ...te('l2', 'tool.before_call', { tool_name: 'Bash' }), meta: { expect: { decision: 'continue' } } },
      { ...te('l3', 'tool.before_call', { tool_name: 'Read' }), meta: { expect: { decision: 'continue' } } },
      { ...te('l4', 'tool.before_call', { tool_name: 'Read' }), meta: { expect: { decison: 'continue' } } },
      { ...te('l5', 'tool.before_call', { tool_name: 'Bash' }), meta: { expect: { decision: 'block_action' } } },
    ];
    const r = run(a, b, labelled);
    expect(r.labels).toBe(5);
    expect(r.violated_labels.map((v) => [v.event_id, v.step, v.violated_before, v.failures[0]])).toEqual([
      ['l1', 1, false, 'decision: expected block_action, got continue'],
      ['l2', 2, false, 'decision: expected continue, got block_action'],
      ['l4', 4, true, expect.stringMatching(/^meta\.expect: /)],
    ]);
    expect(r.violated_labels[0]!.expected).toEqual({ decision: 'block_action', note: 'never rm' });
    const corpus = createBacktestCorpus(b, 'v1', 'v2');
    const entry = corpus.add('labelled.jsonl', 'hookwire-trace', [], r);
    const report = { ...corpus.tail(), files: [entry] };
    expect(report.total).toMatchObject({ labels: 5, labels_violated: 3 });
    const md = backtestMarkdown(report);
    expect(md).toContain('#### Violated labels (3 of 5)');
    expect(md).toContain('never rm');
    expect(md.indexOf('Violated labels')).toBeLessThan(md.indexOf('Top differences'));
  });

  it('[B4] unguarded tool calls by agent and tool, matchers that never matched, event types never sent', () => {
    const [a, b] = versions();
    const corpus = createBacktestCorpus(b, 'v1', 'v2');
    corpus.add('one.jsonl', 'hookwire-trace', [], run(a, b, trace));
    corpus.add('two.jsonl', 'hookwire-trace', [], run(a, b, [te('x1', 'tool.before_call', { tool_name: 'Read' }, { agent_id: 'other' }), te('x2', 'tool.before_call', {})]));
    const t = corpus.tail();
    expect(t.unguarded).toEqual([
      { agent: 'other', tool: 'Read', count: 3, files: 2 },
      { agent: 'agent-1', tool: '(no tool_name)', count: 1, files: 1 },
      { agent: 'agent-1', tool: 'rm', count: 1, files: 1 },
      { agent: 'agent-1', tool: 'curl', count: 1, files: 1 },
    ].sort((x, y) => y.count - x.count || x.agent.localeCompare(y.agent) || x.tool.localeCompare(y.tool)));
    expect(t.never_matched).toEqual([{ matcher_id: 'renamed', label: expect.any(String), handlers: ['no-shell'] }]);
    expect(t.never_sent).toEqual([{ event_node_id: 'stop', pattern: 'agent.stop', handlers: ['on-stop'] }]);
    expect(t.total).toMatchObject({ files: 2, events: 9, changed: 5 });
  });

  it('[B4] property: a tool call is unguarded exactly when no enforcing handler fired on it in explain mode, on pipelines without rewrites before it', () => {
    // Explain mode is an independent account of which handlers matched; it agrees with the probe when nothing
    // rewrites the payload or stops the chain before a handler is reached, so the oracle uses chains of one kind.
    const onlyAudits = pipelineArb.map((p): PipelineInput => ({ ...p, nodes: p.nodes.map((n) => (n.kind === 'handler' ? { ...n, action: { type: 'audit' as const }, shadow: false } : n)) }));
    fc.assert(
      fc.property(onlyAudits, traceArb, (p, events) => {
        const b = compile(p);
        const f = run(b, b, events);
        const steps = replayTrace(b, events);
        let expected = 0;
        for (const s of steps) {
          if (s.event.type !== 'tool.before_call' || s.duplicate || s.not_reached || !s.explanation) continue;
          const fired = s.explanation.handlers.some((h) => h.status === 'fired' || h.status === 'error');
          if (!fired) expected++;
        }
        expect(f.coverage.unguarded.reduce((n, u) => n + u.count, 0)).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('[B3] the markdown puts totals first and escapes what comes from traces; the HTML escapes every value and has no script', () => {
    const [a, b] = versions();
    const evil = '<script>alert(1)</script>|**x**';
    const events = [te('e1', 'tool.before_call', { tool_name: 'Bash', note: evil }, { event_id: evil }), te('e2', 'tool.after_call', { path: evil })];
    const corpus = createBacktestCorpus(b, 'old.json', 'new.json');
    const entry: BacktestFileEntry = corpus.add(`dir/${evil}.jsonl`, 'hookwire-trace', [], run(a, b, events));
    corpus.skip(`${evil}.txt`, `cannot import: ${evil}`);
    const report = { ...corpus.tail(), files: [entry] };
    const md = backtestMarkdown(report);
    expect(md.indexOf('| new blocks |')).toBeLessThan(md.indexOf('Top differences'));
    expect(md).toContain('1 new block, 0 lifted blocks, 0 new asks, 1 changed rewrite, 0 other: 2 of 2 events differ in 1 of 1 file; 1 file skipped');
    expect(md).not.toContain('<script>');
    expect(md).not.toMatch(/[^\\]\|\*\*x/);
    const html = backtestHtml(report);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain("Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"");
    expect(html.match(/<tr>/g)!.length).toBeGreaterThan(3);
  });
});

