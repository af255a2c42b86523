import { describe, expect, it } from 'vitest';
import { createExclusive, yieldToMessages } from '../../../../web/debugger/worker/exclusive.ts';

describe('the replay worker runs one task at a time, urgent ones first', () => {
  it('never overlaps tasks, and an urgent task overtakes queued normal ones', async () => {
    const ex = createExclusive();
    const log: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await yieldToMessages();
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const a = ex.run(task('a'));
    const b = ex.run(task('b'));
    const c = ex.run(task('step'), true);
    expect(await Promise.all([a, b, c])).toEqual(['a', 'b', 'step']);
    expect(log).toEqual(['start a', 'end a', 'start step', 'end step', 'start b', 'end b']);
  });

  it('a failing task rejects its caller and the queue goes on', async () => {
    const ex = createExclusive();
    const bad = ex.run(() => {
      throw new Error('boom');
    });
    const good = ex.run(() => 42);
    await expect(bad).rejects.toThrow('boom');
    expect(await good).toBe(42);
  });
});
