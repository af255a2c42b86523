// `hookwire ui`'s server, over real HTTP on loopback: what it serves, the headers on everything, and what it
// refuses (other hosts and origins, the user's files without the token, paths out of the app, writes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PIPELINE_SCHEMA_ID } from '../../../engine/index.ts';
import { APP_CSP, startUiServer, type UiServer } from '../../../engine/node/uiServer.ts';
import { startUi } from '../../../engine/node/commands/uiCommand.ts';
import { GUARD, ROOT, tempDir } from './runCli.ts';

const TOKEN = 'ab'.repeat(24);
let dir = '';
let server: UiServer;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { Host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = tempDir({ 'trace.jsonl': '{"format":"hookwire.trace","version":1}\n', 'secret.txt': 'not served' });
  const web = join(dir, 'web');
  mkdirSync(join(web, 'assets'), { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(web, 'assets', 'index-abc.js'), 'console.log(1)');
  server = await startUiServer({ webDir: web, schemaDir: join(ROOT, 'engine', 'schema'), pipeline: GUARD, traces: [join(dir, 'trace.jsonl')], token: TOKEN, port: 0 });
});

afterAll(() => server?.close());

describe('hookwire ui server', () => {
  it('binds 127.0.0.1 and prints the address with the token in the fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#open=${TOKEN}`);
  });

  it('serves the app with the strict CSP and the right types, and HEAD without a body', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['content-security-policy']).toBe(APP_CSP);
    expect(APP_CSP).toContain("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'");
    expect(APP_CSP).not.toContain("'unsafe-eval'");
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const js = await get('/assets/index-abc.js');
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['cache-control']).toMatch(/immutable/);
    const head = await get('/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('sends the policy index.html declares (one policy), plus what only a header can say', () => {
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(join(ROOT, 'index.html'), 'utf8'))?.[1];
    expect(meta).toBeDefined();
    expect(APP_CSP.startsWith(`${meta}; `)).toBe(true);
    expect(APP_CSP.slice(meta!.length)).toBe("; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'");
  });

  it('puts the CSP on every answer, errors included', async () => {
    for (const r of [await get('/nope'), await get('/api/open'), await get('/', {}, 'POST'), await get('/', { Host: 'evil.example' })]) {
      expect(r.headers['content-security-policy']).toBe(APP_CSP);
    }
  });

  it('refuses other Host names (DNS rebinding) and cross-origin requests', async () => {
    expect((await get('/', { Host: 'evil.example' })).status).toBe(421);
    expect((await get('/', { Host: `evil.example:${server.port}` })).status).toBe(421);
    expect((await get('/', { Host: `localhost:${server.port}` })).status).toBe(200);
    expect((await get('/api/open', { Origin: 'http://evil.example', Authorization: `Bearer ${TOKEN}` })).status).toBe(403);
    expect((await get('/api/open', { Origin: `http://127.0.0.1:${server.port}`, Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('only reads: other methods get 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await get('/', {}, method)).status).toBe(405);
  });

  it('hands out the command line files only with the token', async () => {
    expect((await get('/api/open')).status).toBe(401);
    expect((await get('/api/open', { Authorization: `Bearer ${'cd'.repeat(24)}` })).status).toBe(401);
    expect((await get('/api/open/pipeline', { Authorization: 'Bearer x' })).status).toBe(401);
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const manifest = JSON.parse((await get('/api/open', auth)).body);
    expect(manifest).toEqual({ pipeline: { name: 'guard.pipeline.json', url: '/api/open/pipeline' }, traces: [{ name: 'trace.jsonl', url: '/api/open/trace/0', size: 40 }] });
    expect((await get('/api/open/pipeline', auth)).body).toBe(readFileSync(GUARD, 'utf8'));
    expect((await get('/api/open/trace/0', auth)).body).toBe(readFileSync(join(dir, 'trace.jsonl'), 'utf8'));
    expect((await get('/api/open/trace/1', auth)).status).toBe(404);
  });

  it('never serves a file outside the app, however the path is spelled', async () => {
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/%00', '/%E0%A4%A', '/schema/..%2f..%2fpackage.json']) {
      const r = await get(path);
      expect([400, 404]).toContain(r.status);
      expect(r.body).not.toContain('not served');
    }
  });

  it('[V10] serves the pipeline JSON Schema whose $id the exported files name', async () => {
    const r = await get('/schema/pipeline.v1.schema.json');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).$id).toBe(PIPELINE_SCHEMA_ID);
    expect(PIPELINE_SCHEMA_ID.endsWith(`/schema/pipeline.v1.schema.json`)).toBe(true);
  });

  it('the command refuses a missing file, a bad port and a taken port with a clear message', async () => {
    const io = { out: () => undefined, err: () => undefined };
    const dirs = { web: join(dir, 'web'), schema: join(ROOT, 'engine', 'schema') };
    await expect(startUi([join(dir, 'nope.json')], { port: '0' }, io, dirs)).rejects.toThrow(/cannot read .*nope\.json: no such file/);
    await expect(startUi([dir], { port: '0' }, io, dirs)).rejects.toThrow(/is a directory/);
    await expect(startUi([], { port: 'abc' }, io, dirs)).rejects.toThrow(/--port must be a port number/);
    await expect(startUi([], { port: String(server.port) }, io, dirs)).rejects.toThrow(/port \d+ is in use/);
    // A checkout without `npm run build:dist` has no app to serve.
    await expect(startUi([], { port: '0' }, io, { ...dirs, web: join(dir, 'no-app') })).rejects.toThrow(/the app is not built/);
  });

  it('takes the first file as the pipeline only when it says it is one; the rest are traces', async () => {
    const out: string[] = [];
    const io = { out: (t: string) => void out.push(t), err: () => undefined };
    const dirs = { web: join(dir, 'web'), schema: join(ROOT, 'engine', 'schema') };
    const a = await startUi([GUARD, join(dir, 'trace.jsonl')], { port: '0' }, io, dirs);
    const b = await startUi([join(dir, 'trace.jsonl')], { port: '0' }, io, dirs);
    try {
      const manifest = async (s: UiServer) => {
        const token = s.url.split('#open=')[1]!;
        const res = await fetch(`http://127.0.0.1:${s.port}/api/open`, { headers: { Authorization: `Bearer ${token}` } });
        return (await res.json()) as { pipeline: unknown; traces: unknown[] };
      };
      expect(await manifest(a)).toMatchObject({ pipeline: { name: 'guard.pipeline.json' }, traces: [{ name: 'trace.jsonl' }] });
      expect(await manifest(b)).toMatchObject({ pipeline: null, traces: [{ name: 'trace.jsonl' }] });
      expect(out.join('')).toMatch(/Hookwire app: http:\/\/127\.0\.0\.1:\d+\/#open=[0-9a-f]{48}\n/);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
