import { describe, expect, it } from 'vitest';
import { collectFieldPaths, completionPaths } from '../../../web/model/fieldPaths.ts';

describe('collectFieldPaths', () => {
  it('collects nested payload and meta paths, most frequent first', () => {
    const paths = collectFieldPaths([
      { type: 'tool.before_call', payload: { tool_name: 'Bash', tool_input: { command: 'ls' } }, meta: { user_id: 'u' } },
      { type: 'input.received', payload: { user_input: 'hi', tool_name: 'x' } },
    ]);
    expect(paths[0]).toEqual({ path: 'payload.tool_name', count: 2, types: ['input.received', 'tool.before_call'] });
    expect(paths.map((p) => p.path)).toEqual(
      expect.arrayContaining(['payload.tool_input', 'payload.tool_input.command', 'meta.user_id', 'payload.user_input']),
    );
  });

  it('indexes arrays by their first element and skips keys with dots', () => {
    const paths = collectFieldPaths([{ type: 't', payload: { messages: [{ role: 'user' }], 'a.b': 1 } }]).map((p) => p.path);
    expect(paths).toContain('payload.messages.0.role');
    expect(paths.some((p) => p.includes('a.b'))).toBe(false);
  });

  it('offers canonical paths before any trace is stored', () => {
    const list = completionPaths([]);
    expect(list).toContain('payload.tool_input.command');
    expect(list).toContain('payload.usage.output_tokens');
    expect(list).toContain('event.agent_id');
  });
});
