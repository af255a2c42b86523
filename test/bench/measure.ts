/** Shared timing helpers for benchmarks: warm up, then time repeated runs and keep the best. */
export function timeBest(run: () => void, repeats = 3): number {
  run(); // warm-up: JIT, caches, lazily built plans
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export const fmt = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0));

/** Prints an aligned table. */
export function table(rows: (string | number)[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  for (const r of rows) console.log(r.map((cell, c) => String(cell).padEnd(widths[c]!)).join('  '));
}

/**
 * Times several contenders in interleaved rounds and keeps each one's best round, so that load from other
 * processes on a shared machine falls on all of them alike. Returns milliseconds per round, by index.
 */
export function timeInterleaved(runs: (() => void)[], rounds = 5): number[] {
  for (const run of runs) run(); // warm-up
  const best = runs.map(() => Infinity);
  for (let r = 0; r < rounds; r++) {
    runs.forEach((run, i) => {
      const t0 = performance.now();
      run();
      best[i] = Math.min(best[i]!, performance.now() - t0);
    });
  }
  return best;
}
