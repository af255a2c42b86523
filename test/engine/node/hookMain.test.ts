// The hook call's own entry (engine/node/hookMain.ts, what the binaries run for `claude-hook <pipeline>` and
// `hook --agent <id> <pipeline>`) answers exactly as the full CLI does, or hands the call to it (null): every
// case here runs both, in-process, on the same argv and stdin, and compares exit code, stdout and stderr.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../../engine/node/cliIo.ts';
import { main } from '../../../engine/node/cli.ts';
import { hookMain, parseHookArgs } from '../../../engine/node/hookMain.ts';
import { GUARD } from './runCli.ts';

function capture(): { io: Io; out: () => { stdout: string; stderr: string } } {
  let stdout = '';
  let stderr = '';
  return { io: { out: (t) => void (stdout += t), err: (t) => void (stderr += t) }, out: () => ({ stdout, stderr }) };
}

const claude = (command: string) => JSON.stringify({ session_id: 's', transcript_path: '/tmp/t', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' });
const dir = mkdtempSync(join(tmpdir(), 'hookwire-hookmain-'));
const settings = join(dir, 'settings.json');
writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'hookwire claude-hook p.json', timeout: 30 }] }] } }));

/** Both routes on one call: the entry's answer (or null) and the CLI's. */
async function both(command: string, args: string[], stdin: string) {
  const a = capture();
  const code = await hookMain(args, command === 'hook', a.io, async () => stdin);
  const b = capture();
  const cliCode = await main(['node', 'hookwire', command, ...args], b.io, async () => stdin);
  return { entry: code === null ? null : { code, ...a.out() }, cli: { code: cliCode, ...b.out() } };
}

describe('hook call entry (hookMain)', () => {
  // Calls it decides: the same answer as the CLI, byte for byte.
  const decided: [string, string[], string][] = [
    ['claude-hook', [GUARD], claude('rm -rf /')],
    ['claude-hook', [GUARD], claude('ls -la')],
    ['claude-hook', [GUARD, '--timeout', '20'], claude('ls')],
    ['claude-hook', ['--timeout=20', GUARD, '--allow-rewrites'], claude('cat x')],
    ['claude-hook', [GUARD, '--settings', settings], claude('rm -rf /')],
    ['claude-hook', [GUARD, '--timeout', '0'], claude('ls')], // fails closed in the command, as the CLI's does
    ['claude-hook', [GUARD], 'not json'],
    ['claude-hook', [GUARD], ''],
    ['claude-hook', [join(dir, 'missing.json')], claude('ls')],
    ['hook', ['--agent', 'claude', GUARD], claude('rm -rf /')],
    ['hook', [GUARD, '--agent=codex'], claude('rm -rf /')],
    ['hook', ['--agent', 'copilot', GUARD, '--event', 'preToolUse'], JSON.stringify({ timestamp: 1, cwd: '/w', toolName: 'bash', toolArgs: '{"command":"rm -rf /"}' })],
    ['hook', ['--agent', 'cursor', GUARD], 'not json'],
    ['hook', ['--agent', 'gemini', GUARD, '--lock-timeout', '500'], claude('ls')],
  ];
  for (const [command, args, stdin] of decided) {
    it(`decides \`${command} ${args.join(' ').replace(dir, '<dir>')}\` as the CLI does`, async () => {
      const { entry, cli } = await both(command, args, stdin);
      expect(entry).not.toBeNull();
      expect(entry).toEqual(cli);
    });
  }

  // Calls it hands to the CLI (null): help, usage errors, forwarding, anything not plainly one deciding call.
  const handed: [string, string[]][] = [
    ['claude-hook', []],
    ['claude-hook', ['--help']],
    ['claude-hook', ['-h']],
    ['claude-hook', [GUARD, 'extra.json']],
    ['claude-hook', [GUARD, '--unknown']],
    ['claude-hook', [GUARD, '--event', 'x']], // claude-hook has no --event
    ['claude-hook', [GUARD, '--lock-timeout', '0']],
    ['claude-hook', [GUARD, '--lock-timeout', 'soon']],
    ['claude-hook', [GUARD, '--timeout', '-1']], // a value that looks like an option: commander's to read
    ['claude-hook', ['--server', 'http://127.0.0.1:1']],
    ['claude-hook', [GUARD, '--record']],
    ['hook', [GUARD]],
    ['hook', ['--agent', 'nobody', GUARD]],
    ['hook', ['--agent', 'claude', GUARD, '--server', 'http://127.0.0.1:1']],
  ];
  for (const [command, args] of handed) {
    it(`hands \`${command} ${args.join(' ')}\` to the CLI`, () => {
      expect(parseHookArgs(args, command === 'hook')).toBeNull();
    });
  }

  it('reads the options the CLI reads, under the same names', () => {
    expect(parseHookArgs([GUARD, '--record', 'r.jsonl', '--audit=a.jsonl', '--allow-rewrites', '--timeout', '9', '--settings', 's.json', '--lock-timeout', '250'], false)).toEqual({
      pipeline: GUARD,
      agent: 'claude',
      options: { record: 'r.jsonl', audit: 'a.jsonl', allowRewrites: true, timeout: '9', settings: 's.json', lockTimeoutMs: 250 },
    });
    expect(parseHookArgs(['--agent', 'codex', GUARD, '--event', 'PreToolUse'], true)).toEqual({ pipeline: GUARD, agent: 'codex', options: { allowRewrites: false, event: 'PreToolUse' } });
  });
});
