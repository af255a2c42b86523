import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { compilePipeline } from '../../../engine/index.ts';
import { decideTrace } from '../../../engine/runtime/index.ts';
import { readTrace } from '../../../engine/trace/index.ts';
import { ROOT, tempDir } from './runCli.ts';

/** The fenced block that follows `<!-- production-example: name -->` in README.md. */
function readmeBlock(name: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`<!-- production-example: ${name} -->`);
  if (at < 0) throw new Error(`README.md has no production example "${name}"`);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!m) throw new Error(`no code block after the "${name}" marker`);
  return m[1]!;
}

describe('README production example', () => {
  it('[P6][P7] runs as written in a project that installed Hookwire, prints what the README says, and its recording replays', { timeout: 60_000 }, () => {
    // A project as `npm install /path/to/hookwire tsx` leaves it: hookwire linked under node_modules.
    const dir = tempDir({ 'package.json': '{ "type": "module" }', 'guard.pipeline.json': readmeBlock('guard.pipeline.json'), 'agent.ts': readmeBlock('agent.ts') });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'hookwire'), 'dir');
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'agent.ts'], { cwd: dir, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(readmeBlock('output'));

    const recording = readTrace(readFileSync(join(dir, 'traces', 'demo-run.hwtrace.jsonl'), 'utf8'));
    expect(recording.status).toBe('ok');
    const compiled = compilePipeline(JSON.parse(readmeBlock('guard.pipeline.json')));
    if (!compiled.ok) throw new Error('the README pipeline does not compile');
    const replayed = [...decideTrace(compiled.compiled, recording.events)].map((r) => r.decision);
    expect(replayed).toEqual(recording.events.map((e) => e.recorded?.decision));
    expect(replayed).toContain('block_action');
    expect(replayed).toContain('terminate');
    const audit = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(audit.map((a) => a.decision)).toEqual(recording.events.filter((e) => e.type !== 'agent.end').map((e) => e.recorded?.decision));
  });

  it('[P12] the settings.json snippet is valid JSON that installs claude-hook on every mapped hook event', () => {
    const settings = JSON.parse(readmeBlock('settings.json'));
    expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    for (const entries of Object.values(settings.hooks) as { hooks: { type: string; command: string }[] }[][]) {
      expect(entries[0]!.hooks[0]).toMatchObject({ type: 'command', command: expect.stringMatching(/^hookwire claude-hook \S+\.pipeline\.json --record /) });
    }
  });
});
