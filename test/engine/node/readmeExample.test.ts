import { describe, expect, it } from 'vitest';
import { readmeBlock } from '../../package/readme.ts';

describe('README production example', () => {
  // The runtime example itself runs against the installed package: test/package/install.test.ts (a), (b).

  it('[P12] the settings.json snippet is valid JSON that installs claude-hook on every mapped hook event', () => {
    const settings = JSON.parse(readmeBlock('settings.json'));
    expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    for (const entries of Object.values(settings.hooks) as { hooks: { type: string; command: string }[] }[][]) {
      expect(entries[0]!.hooks[0]).toMatchObject({ type: 'command', command: expect.stringMatching(/^"\$CLAUDE_PROJECT_DIR"\/node_modules\/\.bin\/hookwire claude-hook \S+\.pipeline\.json --record /) });
    }
  });
});
