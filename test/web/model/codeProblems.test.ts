import { describe, expect, it } from 'vitest';
import type { Pipeline, PipelineNode } from '../../../engine/model/pipelineTypes.ts';
import type { Problem } from '../../../engine/model/problem.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { hasCode, isCodeNode, mergeCodeProblems } from '../../../web/model/codeProblems.ts';
import { createNode } from '../../../web/model/nodeFactory.ts';

const demo = demoPipeline();
const codeHandler = { ...createNode({ kind: 'handler', action: 'code' }, demo), id: 'h-code' } as PipelineNode;
const codeMatcher: PipelineNode = { id: 'm-code', kind: 'matcher', code: { language: 'js', source: 'export default () => true' } };
/** The demo with a code handler and a code matcher at the end of `nodes`. */
const doc: Pipeline = { ...demo, nodes: [...demo.nodes, codeMatcher, codeHandler] };
const at = (id: string, d: Pipeline = doc) => d.nodes.findIndex((n) => n.id === id);

const codeError = (id: string, index: number, message: string): Problem => ({
  code: 'code_error', severity: 'error', path: ['nodes', index, 'action', 'source'], message, node_id: id,
});
const warning: Problem = { code: 'dangling_node', severity: 'warning', path: ['nodes', 0], message: 'leads nowhere', node_id: 'ev-tool-before' };
const error: Problem = { code: 'bad_regex', severity: 'error', path: ['nodes', 2, 'when'], message: 'bad regex', node_id: 'm-destructive-command' };

describe('mergeCodeProblems', () => {
  it('knows which nodes are code', () => {
    expect(doc.nodes.filter(isCodeNode).map((n) => n.id)).toEqual(['m-code', 'h-code']);
    expect(hasCode(demo)).toBe(false);
    expect(hasCode(doc)).toBe(true);
  });

  it('returns the page\'s problems untouched when the sandbox found nothing', () => {
    const base = [error, warning];
    expect(mergeCodeProblems(doc, base, [])).toBe(base);
  });

  it('puts code errors after the page\'s errors and before its warnings', () => {
    const c = codeError('h-code', at('h-code'), 'Unexpected token (line 2, column 5)');
    expect(mergeCodeProblems(doc, [error, warning], [c])).toEqual([error, c, warning]);
    expect(mergeCodeProblems(doc, [warning], [c])).toEqual([c, warning]);
  });

  it('moves a code error to its node\'s current index (the answer may be about an older document)', () => {
    const c = codeError('h-code', at('h-code'), 'boom');
    const fewer: Pipeline = { ...doc, nodes: doc.nodes.filter((n) => n.id !== 'ev-tool-before') };
    const [moved] = mergeCodeProblems(fewer, [], [c]);
    expect(moved).toEqual({ ...c, path: ['nodes', at('h-code', fewer), 'action', 'source'] });
    expect(at('h-code', fewer)).toBe(at('h-code') - 1);
  });

  it('drops code errors of nodes that are gone or no longer code', () => {
    const c = codeError('h-code', at('h-code'), 'boom');
    const gone: Pipeline = { ...doc, nodes: doc.nodes.filter((n) => n.id !== 'h-code') };
    expect(mergeCodeProblems(gone, [warning], [c])).toEqual([warning]);
    const notCode: Pipeline = { ...doc, nodes: doc.nodes.map((n) => (n.id === 'm-code' ? { id: 'm-code', kind: 'matcher', when: { 'event.type': 'x' } } : n)) };
    expect(mergeCodeProblems(notCode, [], [codeError('m-code', at('m-code'), 'bad')])).toEqual([]);
  });

  it('takes only code_error problems from the sandbox, once each', () => {
    const c = codeError('m-code', at('m-code'), 'bad');
    const other: Problem = { ...warning, node_id: 'h-code' };
    expect(mergeCodeProblems(doc, [], [c, c, other])).toEqual([c]);
    // A code error the page already has (it never does without a sandbox, but a document might) is not doubled.
    expect(mergeCodeProblems(doc, [c], [c])).toEqual([c]);
  });
});
