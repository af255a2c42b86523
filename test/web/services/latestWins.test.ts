import { describe, expect, it } from 'vitest';
import { latestWins } from '../../../web/services/latestWins.ts';

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('latestWins', () => {
  it('runs one call at a time, skips calls overtaken while waiting, and marks overtaken answers stale', async () => {
    const started: number[] = [];
    const pending = new Map<number, ReturnType<typeof deferred<string>>>();
    const run = latestWins((n: number) => {
      started.push(n);
      const d = deferred<string>();
      pending.set(n, d);
      return d.promise;
    });
    const a = run(1);
    const b = run(2);
    const c = run(3);
    expect(started).toEqual([1]);
    pending.get(1)!.resolve('one');
    expect(await a).toEqual({ current: false });
    expect(await b).toEqual({ current: false });
    await Promise.resolve();
    await expect.poll(() => started).toEqual([1, 3]);
    pending.get(3)!.resolve('three');
    expect(await c).toEqual({ current: true, value: 'three' });
  });

  it('reports the failure of the latest call only, and invalidate() makes a call in flight stale', async () => {
    const d = deferred<string>();
    const run = latestWins(() => d.promise);
    const a = run(0);
    d.reject(new Error('worker gone'));
    await expect(a).rejects.toThrow('worker gone');

    const e = deferred<string>();
    const run2 = latestWins(() => e.promise);
    const b = run2(0);
    run2.invalidate();
    e.reject(new Error('ignored'));
    expect(await b).toEqual({ current: false });
  });
});
