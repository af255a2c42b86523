import { describe, expect, it } from 'vitest';
import { createTraceReader, readTrace, readTraceChunks } from '../../../engine/trace/traceReader.ts';
import { traceEventLine, traceHeaderLine, traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';
import type { TraceEvent, TraceHeader } from '../../../engine/trace/traceTypes.ts';

const header: TraceHeader = {
  format: 'hookwire.trace',
  version: 1,
  trace_id: 't1',
  agent_id: 'agent-a',
  source: { kind: 'test' },
  created: '2026-01-01T00:00:00.000Z',
};

function ev(i: number, extra: Partial<TraceEvent> = {}): TraceEvent {
  return {
    event_id: `e${i}`,
    trace_id: 't1',
    agent_id: 'agent-a',
    type: 'tool.before_call',
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    payload: { tool_name: 'Bash', tool_input: { command: `echo ${i}` } },
    ...extra,
  };
}

const H = traceHeaderLine(header);
const line = (e: TraceEvent): string => traceEventLine(e, header);

describe('trace reader', () => {
  it('[T1] reads the header and one event per line; writer puts format and version first', () => {
    const text = traceToJsonl({ header, events: [ev(1), ev(2, { recorded: { decision: 'block_action', reason: 'no' } })] });
    expect(text.startsWith('{"format":"hookwire.trace","version":1,')).toBe(true);
    expect(text.split('\n')).toHaveLength(4); // header, 2 events, final empty string after the last \n
    const r = readTrace(text);
    expect(r.status).toBe('ok');
    expect(r.header).toEqual(header);
    expect(r.events.map((e) => e.event_id)).toEqual(['e1', 'e2']);
    expect(r.events[1]?.recorded).toEqual({ decision: 'block_action', reason: 'no' });
    expect(r.problems).toEqual([]);
  });

  it('[T4] events without trace_id/agent_id take the header ones; others keep theirs', () => {
    const text = `${H}${line(ev(1))}${line(ev(2, { trace_id: 'other', agent_id: 'b' }))}`;
    expect(text).not.toContain('"trace_id":"t1","type"'); // left out when equal to the header
    const r = readTrace(text);
    expect(r.events[0]).toMatchObject({ trace_id: 't1', agent_id: 'agent-a' });
    expect(r.events[1]).toMatchObject({ trace_id: 'other', agent_id: 'b' });
  });

  it('[T2] keeps the good lines and reports each bad one with its line number', () => {
    const text = `${H}${line(ev(1))}{not json\n${line(ev(3))}[1,2]\n{"event_id":"x","type":"a","ts":"yesterday","payload":{}}\n${line(ev(6))}`;
    const r = readTrace(text);
    expect(r.status).toBe('partial');
    expect(r.events.map((e) => e.event_id)).toEqual(['e1', 'e3', 'e6']);
    expect(r.problems.map((p) => [p.line, p.code])).toEqual([
      [3, 'not_json'],
      [5, 'schema'],
      [6, 'schema'],
    ]);
    expect(r.problems[2]?.message).toMatch(/^line 6: .*ts: Invalid ISO datetime/);
  });

  it('[T1] refuses unknown event fields (a typo is reported, not ignored)', () => {
    const r = readTrace(`${H}{"event_id":"a","type":"x","ts":"2026-01-01T00:00:00Z","paylod":{}}\n`);
    expect(r.events).toEqual([]);
    expect(r.problems[0]?.message).toMatch(/payload: expected a JSON object.*Unrecognized key: "paylod"/);
    const badType = readTrace(`${H}{"event_id":"a","type":"tool before","ts":"2026-01-01T00:00:00Z","payload":{}}\n`);
    expect(badType.problems[0]?.message).toMatch(/^line 2: .*type: expected a dotted event type/);
  });

  it('[T6] a repeated event id is a warning and the event is kept', () => {
    const r = readTrace(`${H}${line(ev(1))}${line(ev(2))}${line(ev(1))}`);
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.event_id)).toEqual(['e1', 'e2', 'e1']);
    expect(r.problems).toEqual([
      expect.objectContaining({ code: 'duplicate_event_id', severity: 'warning', line: 4, message: expect.stringContaining('already appeared on line 2') }),
    ]);
  });

  it('[T6] a last line cut off by the end of the input is reported as truncated', () => {
    const full = `${H}${line(ev(1))}${line(ev(2))}`;
    const r = readTrace(full.slice(0, full.length - 20));
    expect(r.status).toBe('partial');
    expect(r.events.map((e) => e.event_id)).toEqual(['e1']);
    expect(r.problems).toEqual([expect.objectContaining({ code: 'truncated', line: 3 })]);
  });

  it('[T6] a last line without newline that parses is kept', () => {
    const r = readTrace(`${H}${line(ev(1)).trimEnd()}`);
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(1);
  });

  it('[T5] an empty input is refused', () => {
    for (const text of ['', '\n\n', '   \n']) {
      const r = readTrace(text);
      expect(r.status).toBe('failed');
      expect(r.problems).toEqual([expect.objectContaining({ code: 'empty', fatal: true })]);
    }
  });

  it('[T5] binary garbage is refused with a clear error', () => {
    const garbage = String.fromCharCode(...Array.from({ length: 400 }, (_, i) => (i * 37) % 256));
    const r = readTrace(garbage);
    expect(r.status).toBe('failed');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ code: 'binary', fatal: true });
    expect(r.problems[0]?.message).toMatch(/binary data/);
    // A PNG header decoded as UTF-8: replacement characters and control bytes.
    const png = '\ufffdPNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR';
    expect(readTrace(png).problems[0]?.code).toBe('binary');
  });

  it('[T5] another format is refused, naming what it looks like', () => {
    const claude = '{"parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-02-10T21:11:52.438Z"}\n';
    const r = readTrace(claude);
    expect(r.status).toBe('failed');
    expect(r.problems[0]).toMatchObject({ code: 'not_a_trace', line: 1, fatal: true });
    expect(r.problems[0]?.message).toMatch(/Claude Code session transcript.*import it instead/);
    expect(readTrace('name,age\nbob,3\n').problems[0]?.code).toBe('not_a_trace');
    expect(readTrace('{"format":"other"}\n').problems[0]?.message).toMatch(/found format "other"/);
  });

  it('[T5] a newer version is refused; a bad header field is named', () => {
    const v2 = readTrace(`${JSON.stringify({ ...header, version: 2 })}\n${line(ev(1))}`);
    expect(v2.problems[0]).toMatchObject({ code: 'future_version', fatal: true });
    expect(v2.events).toEqual([]);
    const bad = readTrace(`${JSON.stringify({ ...header, created: 'soon' })}\n`);
    expect(bad.problems[0]).toMatchObject({ code: 'bad_header' });
    expect(bad.problems[0]?.message).toMatch(/created/);
    expect(readTrace(H.slice(0, 30)).problems[0]?.code).toBe('truncated');
  });

  it('[T3] a 50 MB line is reported and skipped without being held, and the next lines are read', () => {
    const reader = createTraceReader();
    reader.push(H);
    reader.push(line(ev(1)));
    reader.push('{"event_id":"huge","type":"x","ts":"2026-01-01T00:00:00Z","payload":{"blob":"');
    const mb = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 50; i++) reader.push(mb); // the 50 MB line is never one string, in the test or the reader
    reader.push(`"}}\n${line(ev(3))}`);
    const r = reader.end();
    expect(r.status).toBe('partial');
    expect(r.events.map((e) => e.event_id)).toEqual(['e1', 'e3']);
    expect(r.problems).toEqual([expect.objectContaining({ code: 'line_too_long', line: 3 })]);
    expect(r.problems[0]?.message).toMatch(/5242\d{4} characters, past the limit of 8388608/);
  });

  it('[T3] the line limit is an option; a too-long header is fatal', () => {
    const r = readTrace(`${H}${line(ev(1))}`, { maxLineChars: 50 });
    expect(r.problems[0]).toMatchObject({ code: 'bad_header', fatal: true });
  });

  it('[T3] with onEvent, events are streamed and not kept', () => {
    const seen: string[] = [];
    const r = readTrace(`${H}${line(ev(1))}${line(ev(2))}`, { onEvent: (e, n) => seen.push(`${e.event_id}@${n}`) });
    expect(seen).toEqual(['e1@2', 'e2@3']);
    expect(r.events).toEqual([]);
    expect(r.eventCount).toBe(2);
  });

  it('[T3] CRLF line ends, blank lines and a byte-order mark are accepted', () => {
    const text = `\ufeff${H.trimEnd()}\r\n\r\n${line(ev(1)).trimEnd()}\r\n   \n${line(ev(2))}`;
    const r = readTrace(text);
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(2);
    expect(r.lines).toBe(5);
  });

  it('[T7] a payload key __proto__ is kept as a name and written back', () => {
    const text = `${H}{"event_id":"p","type":"x","ts":"2026-01-01T00:00:00Z","payload":{"__proto__":{"polluted":true},"a":1}}\n`;
    const r = readTrace(text);
    const payload = r.events[0]?.payload as Record<string, unknown>;
    expect(Object.keys(payload)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(traceToJsonl({ header: r.header as TraceHeader, events: r.events })).toBe(text);
  });

  it('[T2] problems past the limit are counted in one last entry', () => {
    const bad = '{oops\n'.repeat(30);
    const r = readTrace(`${H}${bad}`, { maxProblems: 10 });
    expect(r.problems).toHaveLength(11);
    expect(r.problems[10]).toMatchObject({ code: 'more_problems', message: '20 more problems were found and not listed' });
  });
});

describe('readTraceChunks', () => {
  it('[T3] reads an async iterable of chunks', async () => {
    async function* chunks() {
      const text = `${H}${line(ev(1))}${line(ev(2))}`;
      for (let i = 0; i < text.length; i += 13) yield text.slice(i, i + 13);
    }
    const r = await readTraceChunks(chunks());
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.event_id)).toEqual(['e1', 'e2']);
  });
});
