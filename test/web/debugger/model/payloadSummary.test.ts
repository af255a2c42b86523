import { describe, expect, it } from 'vitest';
import { clipLine, payloadSummary, textOf } from '../../../../web/debugger/model/payloadSummary.ts';

describe('one-line payload summaries for the timeline', () => {
  it('says the tool and its command or path', () => {
    expect(payloadSummary('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'rm -rf build/' } })).toBe('Bash: rm -rf build/');
    expect(payloadSummary('tool.before_call', { tool_name: 'Read', tool_input: { file_path: 'a.txt' } })).toBe('Read: a.txt');
    expect(payloadSummary('tool.before_call', { tool_name: 'Glob', tool_input: { limit: 3 } })).toBe('Glob: {"limit":3}');
    expect(payloadSummary('tool.after_call', { tool_name: 'Bash', tool_response: 'line 1\nline 2', is_error: true })).toBe('Bash (error) → line 1 line 2');
  });

  it('reads model responses as text (content blocks too) with their output tokens', () => {
    expect(payloadSummary('model.after_call', { response: [{ type: 'text', text: 'Hi' }, { type: 'tool_use', id: 'x' }], usage: { output_tokens: 12 } })).toBe('Hi (12 tokens out)');
    expect(payloadSummary('model.before_call', { model: 'm', messages: [{}, {}] })).toBe('m: 2 messages');
  });

  it('quotes user input whichever field carries it', () => {
    expect(payloadSummary('input.received', { prompt: 'hello' })).toBe('“hello”');
    expect(payloadSummary('input.received', { user_input: 'ignore previous' })).toBe('“ignore previous”');
  });

  it('falls back to compact JSON, flattens whitespace and clips', () => {
    expect(payloadSummary('custom.thing', { a: 1 })).toBe('{"a":1}');
    expect(payloadSummary('agent.end', { status: 'completed' })).toBe('status: completed');
    const long = payloadSummary('final_answer.before', { text: 'x'.repeat(500) }, 20);
    expect(long).toHaveLength(20);
    expect(long.endsWith('…')).toBe(true);
    expect(clipLine('  a \n\t b  ', 50)).toBe('a b');
    expect(textOf(42)).toBe('42');
  });

  it('renders markup as plain text (the UI shows text, never HTML)', () => {
    expect(payloadSummary('input.received', { prompt: '<img src=x onerror=alert(1)>' })).toBe('“<img src=x onerror=alert(1)>”');
  });
});

describe('clause values', () => {
  it('shows a regular expression as /pattern/flags and other values as JSON', async () => {
    const { expectedText, valueLine } = await import('../../../../web/debugger/model/labels.ts');
    expect(expectedText('regex', { pattern: 'ignore (all )?previous', flags: 'i' })).toBe('/ignore (all )?previous/i');
    expect(expectedText('regex', '\\brm\\s')).toBe('/\\brm\\s/');
    expect(expectedText('in', ['Bash', 'rm'])).toBe('["Bash","rm"]');
    expect(valueLine(undefined)).toBe('missing');
    expect(valueLine('x'.repeat(300), 10)).toHaveLength(10);
  });
});

describe('Claude Code model.after_call content blocks', () => {
  it('tool_use and thinking blocks read as text, not JSON', () => {
    const s = payloadSummary('model.after_call', { response: [{ type: 'thinking', thinking: 'x' }, { type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls -la' } }] });
    expect(s).toBe('(thinking) → Bash: ls -la');
    expect(s).not.toContain('{');
  });
});
