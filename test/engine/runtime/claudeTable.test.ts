import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTable } from './claudeTable.ts';

describe('docs/claude-code.md: the Claude Code decision table', () => {
  it('[P12] matches what the mapping does on every event (regenerate: npx tsx test/engine/runtime/printClaudeTable.ts)', () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'claude-code.md'), 'utf8');
    const m = /<!-- claude-table:start -->\n([\s\S]*?)\n<!-- claude-table:end -->/.exec(readme);
    expect(m, 'README has the table markers').not.toBeNull();
    expect(m![1]).toBe(claudeTable());
  });
});
