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

/**
 * Three workloads, one logical shell call each, through the portable pipeline: a block (`rm -rf /`), an allowed call
 * (`ls -la`: no handler fires) and a rewrite (a `--token=` on the command line is redacted; where the agent cannot
 * carry the rewrite it is a block, which is that agent's answer to it).
 */
const WORKLOADS: [string, string][] = [
  ['blocked', 'rm -rf /'],
  ['allowed', 'ls -la'],
  ['rewrite', 'curl --token=abc123 https://docs.example.com/x'],
];
const AGENTS = ['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor', 'windsurf', 'goose', 'kimi'] as const;
const only = process.env.AGENTS ? new Set(process.env.AGENTS.split(',')) : null;
const contenders: [string, string, string[], string][] = WORKLOADS.flatMap(([w, command]) => {
  const call = { kind: 'shell', command } as const;
  return [
    [w, 'claude-hook', ['claude-hook', PIPELINE], JSON.stringify(NATIVE.claude(call))] as [string, string, string[], string],
    ...AGENTS.filter((a) => !only || only.has(a)).map((a) => [w, `hook --agent ${a}`, ['hook', '--agent', a, PIPELINE], JSON.stringify(NATIVE[a](call))] as [string, string, string[], string]),
  ];
});
const samples = contenders.map(() => [] as number[]);
for (const [, , args, input] of contenders) cpuOf(args, input); // warm-up (compile cache)
for (let r = 0; r < RUNS; r++) contenders.forEach(([, , args, input], i) => samples[i]!.push(cpuOf(args, input)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`one shell call per process, CPU seconds (user + system) read at exit, median of ${RUNS} interleaved runs:`);
for (const [w] of WORKLOADS) {
  const mine = contenders.map((c, i) => [c, i] as const).filter(([c]) => c[0] === w);
  const base = median(samples[mine[0]![1]]!);
  console.log(`\n${w}:`);
  for (const [[, name], i] of mine) {
    const m = median(samples[i]!);
    console.log(`  ${name.padEnd(24)} ${m.toFixed(3)} s  ${(m / base).toFixed(3)}x  ${(((m - base) / base) * 100).toFixed(1).padStart(6)}% vs claude-hook`);
  }
}
