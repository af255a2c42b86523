// A pipeline of `handlers` handlers shaped as large real ones are: a few event nodes, and per handler its own
// matcher (a tool name and a command regex), some rewriting or auditing, every tenth a block. Built by code
// for the validate benchmark and the lint/compile scaling test (nothing big is committed).
import type { PipelineInput } from '../../engine/index.ts';

export function bigPipeline(handlers: number): PipelineInput {
  const nodes: PipelineInput['nodes'] = [
    { id: 'before', kind: 'event', pattern: 'tool.before_call' },
    { id: 'after', kind: 'event', pattern: 'tool.after_call' },
    { id: 'model', kind: 'event', pattern: 'model.*' },
  ];
  const wires: PipelineInput['wires'] = [];
  const events = ['before', 'after', 'model'];
  for (let i = 0; i < handlers; i++) {
    const m = `m${i}`;
    const h = `h${i}`;
    nodes.push({ id: m, kind: 'matcher', when: { 'payload.tool_name': `tool${i % 97}`, 'payload.tool_input.command': { regex: `^cmd${i}\\s+--flag=\\S+` } } });
    const action =
      i % 10 === 0 ? { type: 'block' as const, reason: `blocked by rule ${i}: {{payload.tool_input.command}}` }
      : i % 3 === 0 ? { type: 'rewrite' as const, ops: [{ op: 'redact' as const, path: `payload.field${i}`, pattern: `secret${i}` }] }
      : { type: 'audit' as const, message: `rule ${i}`, fields: ['payload.tool_name'] };
    nodes.push({ id: h, kind: 'handler', name: `rule ${i}`, order: i % 100, action });
    wires.push({ from: events[i % 3]!, to: m }, { from: m, to: h });
  }
  return { format: 'hookwire.pipeline', version: 1, name: `big-${handlers}`, nodes, wires };
}
