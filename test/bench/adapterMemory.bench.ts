/**
 * `npm run bench -- adapter-memory`: does an adapter keep flat memory in a long-running process? (#32: the call
 * table of a trace kept every event id base it ever gave out.) Each contender is a child process running the
 * real AI SDK adapter on a runtime (no sinks), calling wrapped tools directly as the SDK would — one read per
 * call, two events each (tool.before_call, tool.after_call):
 *   - `long`: ONE trace of `calls` calls, each with its own tool call id (the case that grew);
 *   - `sessions`: `sessions` traces of `calls / sessions` calls each, each ended before the next starts.
 * After every tenth of the calls the child collects garbage (`--expose-gc`) and samples its heap in use and its
 * resident memory (RSS). Prints the samples and the growth from the first tenth to the end; asserts nothing.
 * `npx tsx test/bench/adapterMemory.bench.ts [calls] [sessions] [root…]` runs the checkouts given (default: this
 * one) so a fix can be set beside the code before it (another worktree's root).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

interface Sample { done: number; heap: number; rss: number }

function runChild(root: string, mode: string, calls: number, sessions: number): Promise<Sample[]> {
  const file = join(import.meta.dirname, 'adapterMemoryDriver.mts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', file, root, mode, String(calls), String(sessions)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n').map((l) => JSON.parse(l) as Sample)) : reject(new Error(`driver exited with ${code}`))));
  });
}

const mib = (b: number) => (b / 1024 / 1024).toFixed(1);

export async function runAdapterMemoryBench(calls = 500_000, sessions = 10_000, roots: string[] = [ROOT]): Promise<void> {
  console.log(`AI SDK adapter, ${calls.toLocaleString('en')} calls (${(2 * calls).toLocaleString('en')} events); heap in use after GC and RSS, MiB, after every tenth`);
  for (const mode of ['long', 'sessions'] as const) {
    for (const root of roots) {
      const samples = await runChild(root, mode, calls, sessions);
      const first = samples[0]!;
      const last = samples.at(-1)!;
      const label = mode === 'long' ? 'one trace' : `${sessions.toLocaleString('en')} ended traces`;
      console.log(`${label.padEnd(20)} ${root}`);
      console.log(`  heap: ${samples.map((s) => mib(s.heap)).join(' ')}  growth from the first tenth ${mib(last.heap - first.heap)} MiB (${((last.heap - first.heap) / (last.done - first.done)).toFixed(1)} bytes a call)`);
      console.log(`  rss:  ${samples.map((s) => mib(s.rss)).join(' ')}  growth ${mib(last.rss - first.rss)} MiB`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [calls, sessions, ...roots] = process.argv.slice(2);
  await runAdapterMemoryBench(calls ? Number(calls) : undefined, sessions ? Number(sessions) : undefined, roots.length ? roots : undefined);
}
