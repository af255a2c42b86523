// [P19] The forwarding command's one HTTP/1.1 POST over node:net (engine/node/serve/httpPost.ts): it sends what
// node:http's client sent (the same method, path, Host and headers, the same body bytes) and reads every answer a
// server may frame (content-length, chunked, ended by the close, after an interim 100), and every failure is one
// outcome the command answers fail-closed. Real servers on loopback: node:http's, and raw node:net ones for what
// node:http's server would never send.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { httpPost, type PostOutcome } from '../../../../engine/node/serve/httpPost.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function listen(s: Server, host = '127.0.0.1'): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, host, () => r()));
  return (s.address() as AddressInfo).port;
}

/** A raw server that answers every connection by `answer` once the request's head has come. */
function rawServer(answer: (socket: Socket) => void): Server {
  return createNetServer((socket) => {
    let seen = '';
    socket.on('error', () => undefined);
    socket.on('data', (c) => {
      if (seen.includes('\r\n\r\n')) return;
      seen += c.toString('latin1');
      if (seen.includes('\r\n\r\n')) answer(socket);
    });
  });
}

const post = (url: string, body = '{}', max = 1 << 20, headers: Record<string, string | number> = {}) =>
  new Promise<PostOutcome>((resolve) => {
    const bytes = Buffer.from(body, 'utf8');
    httpPost(new URL('/v1/claude/hook?answer=command', url), { authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': bytes.length, ...headers }, bytes, max, resolve);
  });

const text = (o: PostOutcome) => (o.kind === 'answer' ? { status: o.status, body: o.body.toString('utf8') } : o);

describe('[P19] httpPost: the forwarding command\'s request', () => {
  it('sends what node:http sent: method, path and query, Host, the headers and the body bytes', async () => {
    const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"exitCode":0,"stdout":"","stderr":""}');
      });
    });
    const port = await listen(s);
    const body = '{"tool_input":{"command":"echo ünïcödé ✓"}}';
    const headers = { authorization: 'Bearer tok', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-hookwire-deadline': '1234' };
    expect(text(await post(`http://127.0.0.1:${port}`, body, 1 << 20, headers))).toEqual({ status: 200, body: '{"exitCode":0,"stdout":"","stderr":""}' });
    // node:http's client, as forwardHook.ts used it before.
    await new Promise<void>((resolve, reject) => {
      const req = request(new URL('/v1/claude/hook?answer=command', `http://127.0.0.1:${port}`), { method: 'POST', headers }, (res) => (res.resume(), res.on('end', resolve)));
      req.on('error', reject);
      req.end(Buffer.from(body, 'utf8'));
    });
    const [ours, theirs] = seen;
    expect(ours!.body).toBe(body);
    expect({ ...ours, headers: { ...ours!.headers, connection: undefined } }).toEqual({ ...theirs, headers: { ...theirs!.headers, connection: undefined } });
    expect(ours!.headers.host).toBe(`127.0.0.1:${port}`);
    expect(ours!.headers.connection).toBe('close');
  });

  it('refuses a header value node:http refuses, with its message, before connecting', () => {
    let theirs = '';
    try {
      request('http://127.0.0.1:9/', { headers: { authorization: 'Bearer a\nb' } });
    } catch (err) {
      theirs = (err as Error).message;
    }
    expect(theirs).toMatch(/Invalid character in header content/);
    expect(() => httpPost(new URL('http://127.0.0.1:9/'), { authorization: 'Bearer a\nb' }, Buffer.alloc(0), 10, () => undefined)).toThrow(theirs);
  });

  it('reaches a server on ::1 by its bracketed URL', async (ctx) => {
    const s = createServer((_req, res) => res.end('six'));
    let port: number;
    try {
      port = await listen(s, '::1');
    } catch {
      return ctx.skip(); // no IPv6 loopback here
    }
    expect(text(await post(`http://[::1]:${port}`))).toEqual({ status: 200, body: 'six' });
  });
});

describe('[P19] httpPost: every framing of an answer', () => {
  const answers: [string, (s: Socket) => void, ReturnType<typeof text>][] = [
    ['content-length', (s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'), { status: 200, body: 'hello' }],
    ['content-length, the connection kept open', (s) => s.write('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello'), { status: 200, body: 'hello' }],
    ['chunked, with an extension and a trailer', (s) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nhel\r\n2\r\nlo\r\n0\r\nX-T: 1\r\n\r\n'), { status: 200, body: 'hello' }],
    ['ended by the close', (s) => s.end('HTTP/1.0 200 OK\r\n\r\nhello'), { status: 200, body: 'hello' }],
    ['after an interim 100 Continue', (s) => s.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'), { status: 200, body: 'ok' }],
    ['a 204 and its connection kept open', (s) => s.write('HTTP/1.1 204 No Content\r\n\r\n'), { status: 204, body: '' }],
    ['a 401 with its JSON', (s) => s.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 15\r\n\r\n{"error":"no"}\n'), { status: 401, body: '{"error":"no"}\n' }],
    [
      'a byte at a time',
      (s) => {
        const bytes = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc');
        let i = 0;
        const next = () => (i < bytes.length ? (s.write(bytes.subarray(i, ++i)), setTimeout(next, 1)) : s.end());
        next();
      },
      { status: 200, body: 'abc' },
    ],
    ['not HTTP', (s) => s.end('SSH-2.0-OpenSSH\r\n\r\n'), { kind: 'unreadable', message: 'not an HTTP/1.1 answer: "SSH-2.0-OpenSSH"' }],
    ['two content-lengths', (s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'), { kind: 'unreadable', message: 'a content-length that is not one number: "2"' }],
    ['cut in the body', (s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'), { kind: 'unreadable', message: 'the connection closed in the middle of the answer' }],
    ['cut in the head', (s) => s.end('HTTP/1.1 200 OK\r\nContent-'), { kind: 'unreadable', message: 'the connection closed in the middle of the answer' }],
    ['a chunked body cut short', (s) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'), { kind: 'unreadable', message: 'a chunked answer that does not decode' }],
    ['closed without a byte', (s) => s.end(), { kind: 'unreachable', message: 'socket hang up' }],
    ['a head larger than 64 KiB', (s) => s.end(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`), { kind: 'unreadable', message: "the answer's head is larger than 65536 bytes" }],
  ];
  for (const [name, answer, expected] of answers) {
    it(name, async () => {
      const port = await listen(rawServer(answer));
      expect(text(await post(`http://127.0.0.1:${port}`))).toEqual(expected);
    });
  }

  it('an answer larger than the limit stops at the limit, by content-length or as it streams', async () => {
    const declared = await listen(rawServer((s) => s.write(`HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n${'x'.repeat(100)}`)));
    expect(await post(`http://127.0.0.1:${declared}`, '{}', 99)).toEqual({ kind: 'too-large' });
    expect(text(await post(`http://127.0.0.1:${declared}`, '{}', 100))).toEqual({ status: 200, body: 'x'.repeat(100) });
    const streamed = await listen(rawServer((s) => s.write(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(5000)}`)));
    expect(await post(`http://127.0.0.1:${streamed}`, '{}', 4096)).toEqual({ kind: 'too-large' });
  });

  it('a server that is not there is unreachable, with the socket\'s error', async () => {
    const s = createNetServer();
    const port = await listen(s);
    await new Promise((r) => s.close(r));
    servers.pop();
    expect(await post(`http://127.0.0.1:${port}`)).toEqual({ kind: 'unreachable', message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('abandoned, it closes the connection and reports nothing', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((r) => (closed = r));
    const port = await listen(rawServer((s) => s.on('close', closed)));
    let reported = false;
    const abandon = httpPost(new URL(`http://127.0.0.1:${port}/`), {}, Buffer.from('{}'), 10, () => (reported = true));
    await new Promise((r) => setTimeout(r, 100));
    abandon();
    await gone;
    await new Promise((r) => setTimeout(r, 50));
    expect(reported).toBe(false);
  });
});
