// `npx tsx test/bench/agents.bench.ts`: CPU time of one hook call per agent, each in its own process (the
// checkout's binary on its prebuilt bundle: run `node engine/node/buildCli.mjs` first), interleaved runs,
// median. `hook --agent <id>` should cost what `claude-hook` costs (within 10%): the same start-up, one mapping.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NATIVE } from '../engine/agents/nativeInputs.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'engine', 'node', 'bin.mjs');
const PIPELINE = join(ROOT, 'test', 'engine', 'agents', 'fixtures', 'portable.pipeline.json');
const RUNS = Number(process.env.RUNS ?? 15);

/** User + system CPU seconds of one process, read by a preload at its exit. */
function cpuOf(args: string[], input: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-cpu-'));
  const out = join(dir, 'cpu.json');
  const preload = join(dir, 'cpu.mjs');
  writeFileSync(preload, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.cpuUsage())));\n`);
  const r = spawnSync(process.execPath, ['--import', preload, BIN, ...args], { cwd: ROOT, input, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 2) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const u = JSON.parse(readFileSync(out, 'utf8')) as { user: number; system: number };
  rmSync(dir, { recursive: true, force: true });
  return (u.user + u.system) / 1e6;
}

const rm = { kind: 'shell', command: 'rm -rf /' } as const;
const contenders: [string, string[], string][] = [
  ['claude-hook', ['claude-hook', PIPELINE], JSON.stringify(NATIVE.claude(rm))],
  ['hook --agent claude', ['hook', '--agent', 'claude', PIPELINE], JSON.stringify(NATIVE.claude(rm))],
  ['hook --agent codex', ['hook', '--agent', 'codex', PIPELINE], JSON.stringify(NATIVE.codex(rm))],
  ['hook --agent gemini', ['hook', '--agent', 'gemini', PIPELINE], JSON.stringify(NATIVE.gemini(rm))],
  ['hook --agent copilot', ['hook', '--agent', 'copilot', PIPELINE], JSON.stringify(NATIVE.copilot(rm))],
  ['hook --agent cursor', ['hook', '--agent', 'cursor', PIPELINE], JSON.stringify(NATIVE.cursor(rm))],
  ['hook --agent windsurf', ['hook', '--agent', 'windsurf', PIPELINE], JSON.stringify(NATIVE.windsurf(rm))],
];
const samples = contenders.map(() => [] as number[]);
for (const [, args, input] of contenders) cpuOf(args, input); // warm-up (compile cache)
for (let r = 0; r < RUNS; r++) contenders.forEach(([, args, input], i) => samples[i]!.push(cpuOf(args, input)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(samples[0]!);
console.log(`one PreToolUse-like call (rm -rf /, a block), CPU seconds (user + system), median of ${RUNS} interleaved runs:`);
contenders.forEach(([name], i) => {
  const m = median(samples[i]!);
  console.log(`${name.padEnd(24)} ${m.toFixed(3)} s  ${(((m - base) / base) * 100).toFixed(1).padStart(6)}% vs claude-hook`);
});
