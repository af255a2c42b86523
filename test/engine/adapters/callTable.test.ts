// [O4][E5] An adapter's call table stays bounded on a trace that runs for a long time: the event id bases it gave
// out are kept only while the engine could still answer their events as repeats (its window of REPEAT_WINDOW
// dispatches), not one per call ever made (#32: `CallTable.used` grew by every call of a long-running trace).
// And bounding it never lets a call run on another call's decision: through the real AI SDK adapter, a model that
// gives every call the same id gets each call decided as itself, far past the window.
import { describe, expect, it } from 'vitest';
import { tool } from 'ai';
import { z } from 'zod';
import { CallTable, type TableCall } from '../../../engine/adapters/adapterSupport.ts';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { REPEAT_WINDOW } from '../../../engine/index.ts';
import { startLive } from './adapterFixture.ts';

const call = (event_id: string): TableCall => ({ tool_name: 't', tool_input: {}, event_id });

describe('CallTable bounds [O4][E5]', () => {
  it('[E5] keeps at most 2 × REPEAT_WINDOW bases however many calls a trace makes, and forgets the oldest first', () => {
    const table = new CallTable<TableCall>();
    const first = table.eventId('call-0');
    for (let i = 1; i < 50_000; i++) table.eventId(`call-${i}`);
    expect(table.size).toBeLessThanOrEqual(2 * REPEAT_WINDOW);
    // Long out of the engine's window, the first id is free again.
    expect(table.eventId('call-0')).toBe(first);
  });

  it('[E5] a base is never given out again while it is in the window or its call is in flight', () => {
    const table = new CallTable<TableCall>();
    const seen: string[] = [];
    for (let i = 0; i < 2 * REPEAT_WINDOW; i++) seen.push(table.eventId('same'));
    // Within the window every base of the repeated id is distinct: same, same#2, …
    expect(new Set(seen).size).toBe(seen.length);
    // A call in flight keeps its base even after the window has moved past it.
    const table2 = new CallTable<TableCall>();
    const base = table2.eventId('c');
    table2.add('c', call(base));
    for (let i = 0; i < 3 * REPEAT_WINDOW; i++) table2.eventId(`other-${i}`);
    expect(table2.eventId('c')).not.toBe(base);
    table2.remove('c', table2.withId('c')[0]!);
  });

  it('[O4][E5] through the AI SDK adapter, 3 × REPEAT_WINDOW calls that all share one id are each decided as themselves (deletes blocked, reads run)', async () => {
    const live = startLive({}, 'one-id');
    const hw = hookwireAiSdk(live.trace);
    const ran: string[] = [];
    const path = z.object({ path: z.string() });
    const tools = hw.tools({
      delete_file: tool({ description: 'delete', inputSchema: path, execute: async (i) => (ran.push(`delete ${i.path}`), 'deleted') }),
      read_file: tool({ description: 'read', inputSchema: path, execute: async (i) => (ran.push(`read ${i.path}`), 'read') }),
    });
    const n = 3 * REPEAT_WINDOW;
    const outs: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const name = i % 3 === 0 ? 'delete_file' : 'read_file';
      outs.push(await tools[name].execute!({ path: `/w/${i}` }, { toolCallId: 'call_1', messages: [] }));
    }
    expect(ran).toEqual(Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 0).map((i) => `read /w/${i}`));
    for (let i = 0; i < n; i += 3) expect(outs[i]).toMatch(/destructive tool delete_file/);
    expect(live.results.filter((r) => r.duplicate)).toEqual([]);
  });
});
