// `hookwire serve` against clients that take too long, and what it says about itself: /metrics in the
// Prometheus text format and an OpenAPI document that lists every limit and answer.
import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { join } from 'node:path';
import { parseMetrics } from '../../../../engine/node/serve/metrics.ts';
import { budgetPipeline, call, preToolUse, serverPool, verdict, workDir } from './serveHelpers.ts';

const { serve } = serverPool();

/**
 * Sends `head` and then one byte of `drip` every 400 ms, never finishing the request; resolves with the
 * seconds until the server closed the socket, or `limit` when it was still open then (the client closes).
 */
function trickle(port: number, head: string, drip: string, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const sock = connect(port, '127.0.0.1');
    let i = 0;
    let timer: ReturnType<typeof setInterval> | null = null;
    const done = (v: number) => {
      if (timer) clearInterval(timer);
      sock.destroy();
      resolve(v);
    };
    sock.on('connect', () => {
      sock.write(head);
      timer = setInterval(() => {
        if ((Date.now() - t0) / 1000 > limit) return done(limit);
        if (!sock.destroyed) sock.write(drip[i++ % drip.length]!);
      }, 400);
    });
    sock.on('data', () => undefined);
    sock.on('close', () => done((Date.now() - t0) / 1000));
    sock.on('error', () => undefined);
  });
}

describe('hookwire serve: slow clients, metrics, OpenAPI [SV4][SV7]', { timeout: 120_000 }, () => {
  it('[SV4] a client trickling its headers, or its body, is closed within 15 s; other clients are answered meanwhile', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(5) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const host = `127.0.0.1:${s.port}`;
    const [headers, body] = await Promise.all([
      trickle(s.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\n`, 'X-Slow: aaaaaaaaaaaaaaaaaa\r\n', 25),
      trickle(s.port, `POST /v1/traces HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${s.token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"trace_id":"`, 'x', 25),
      (async () => {
        expect(verdict(await call(s, 'POST', '/v1/claude/hook', preToolUse('meanwhile', 'm-1')))).toBe('allow');
      })(),
    ]);
    expect(headers).toBeLessThan(15);
    expect(body).toBeLessThan(15);
  });

  it('[SV7] /metrics is Prometheus text: requests by route and code, decisions by outcome, a latency histogram, sessions, queue', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(1) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    await Promise.all([1, 2, 3].map((k) => call(s, 'POST', '/v1/claude/hook', preToolUse('m', `m-${k}`))));
    await call(s, 'POST', '/v1/traces/nope/events', { type: 'a.b', payload: {} });
    const r = await call(s, 'GET', '/metrics');
    expect(r.status).toBe(200);
    // The exposition format: every sample's family has HELP and TYPE before it.
    const text = r.body;
    for (const line of text.trim().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? -?[0-9.e+-]+)$/);
    for (const t of ['hookwire_requests_total counter', 'hookwire_decisions_total counter', 'hookwire_decision_latency_seconds histogram', 'hookwire_sessions gauge', 'hookwire_queue_events gauge', 'hookwire_stream_clients gauge', 'hookwire_write_fault gauge']) expect(text).toContain(`# TYPE ${t}\n`);
    const m = parseMetrics(text);
    expect(m.get('hookwire_requests_total{route="claude_hook",code="200"}')).toBe(3);
    expect(m.get('hookwire_requests_total{route="events",code="404"}')).toBe(1);
    expect(m.get('hookwire_decisions_total{decision="continue"}')).toBe(1);
    expect(m.get('hookwire_decisions_total{decision="block_action"}')).toBe(2);
    expect(m.get('hookwire_decision_latency_seconds_count')).toBe(4);
    expect(m.get('hookwire_decision_latency_seconds_bucket{le="+Inf"}')).toBe(4);
    expect(m.get('hookwire_sessions')).toBe(1);
    expect(m.get('hookwire_queue_events')).toBe(0);
    expect(m.get('process_resident_memory_bytes')).toBeGreaterThan(1e6);
  });

  it('[SV7] the OpenAPI document lists ask, the limits, the 503s and the metrics format', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(1) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const api = (await call(s, 'GET', '/openapi.json')).json();
    expect(api.components.schemas.Decision.properties.decision.enum).toContain('ask');
    expect(api.components.schemas.TraceId).toMatchObject({ minLength: 1, maxLength: 256, not: { enum: ['.', '..'] } });
    for (const p of ['/v1/traces', '/v1/traces/{trace_id}/events', '/v1/traces/{trace_id}/end', '/v1/stream']) {
      const op = api.paths[p].post ?? api.paths[p].get;
      expect(op.responses['503'], p).toBeDefined();
    }
    expect(api.paths['/v1/stream'].get.responses['503'].description).toMatch(/--max-streams/);
    expect(api.paths['/v1/traces'].post.responses['503'].description).toMatch(/--max-sessions/);
    expect(api.paths['/metrics'].get.responses['200'].content['text/plain']).toBeDefined();
    expect(api.info.description).toMatch(/--idle-timeout/);
    expect(api.info.description).toMatch(/within 10 s/);
  });
});
