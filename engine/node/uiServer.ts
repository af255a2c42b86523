// `hookwire ui`: the app's production build served from the package on loopback with node:http, and the
// files named on the command line handed to the app. Static files are public (they are the package's);
// the user's files need the token that is only in the URL the command prints (its fragment, so it never
// reaches a Referer or a log). Every response carries the strict Content Security Policy.
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { basename, extname, join, normalize, sep } from 'node:path';
import type { OpenManifest } from '../model/openManifest.ts';

/** The policy the app runs under (issue 13 keeps the app free of violations; index.html has the same). */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  // The debugger's live view reaches a `hookwire serve` on this machine, and nothing else.
  "connect-src 'self' http://127.0.0.1:* http://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': APP_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

export interface UiServerOptions {
  webDir: string;
  schemaDir: string;
  /** The pipeline and the traces to hand to the app (paths; they are read when the app asks). */
  pipeline?: string | undefined;
  traces?: string[];
  /** The secret the app must send for the files above (hex). */
  token: string;
  /** 0 picks a free port. */
  port: number;
}

export interface UiServer {
  port: number;
  /** The address to open: with `#open=<token>` when there are files to hand over. */
  url: string;
  close(): Promise<void>;
}

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const files = new Map<string, string>(); // url path → file path
  const manifest: OpenManifest = { pipeline: null, traces: [] };
  if (options.pipeline) {
    files.set('/api/open/pipeline', options.pipeline);
    manifest.pipeline = { name: basename(options.pipeline), url: '/api/open/pipeline' };
  }
  for (const [i, path] of (options.traces ?? []).entries()) {
    const url = `/api/open/trace/${i}`;
    files.set(url, path);
    manifest.traces.push({ name: basename(path), url, size: (await stat(path)).size });
  }
  const token = Buffer.from(options.token);
  const webRoot = normalize(options.webDir + sep);
  let port = options.port;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => send(res, 500, 'internal error'));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a page on another name that resolves to 127.0.0.1 sends its own Host.
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!hosts.includes(req.headers.host ?? '')) return send(res, 421, 'unknown host');
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) return send(res, 403, 'cross-origin request refused');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'only GET and HEAD', { Allow: 'GET, HEAD' });
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return send(res, 400, 'bad path');
    }
    if (path.includes('\0')) return send(res, 400, 'bad path');

    if (path === '/api/open' || path.startsWith('/api/')) {
      if (!authorized(req.headers.authorization)) return send(res, 401, 'a token is needed (open the address hookwire ui printed)');
      if (path === '/api/open') return sendJson(res, manifest);
      const file = files.get(path);
      if (!file) return send(res, 404, 'not found');
      return sendFile(req, res, file, await stat(file), 'application/octet-stream', 'no-store');
    }
    if (path.startsWith('/schema/')) {
      const name = path.slice('/schema/'.length);
      if (!/^[a-z0-9.]+\.schema\.json$/.test(name)) return send(res, 404, 'not found');
      return serveStatic(req, res, join(options.schemaDir, name), 'no-cache');
    }
    const target = normalize(join(webRoot, path === '/' ? 'index.html' : path));
    if (!target.startsWith(webRoot)) return send(res, 404, 'not found');
    // Vite's hashed assets never change under one name; everything else is revalidated.
    return serveStatic(req, res, target, path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  }

  function authorized(header: string | undefined): boolean {
    const m = /^Bearer (\S+)$/.exec(header ?? '');
    if (!m) return false;
    const given = Buffer.from(m[1]!);
    return given.length === token.length && timingSafeEqual(given, token);
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, file: string, cache: string): Promise<void> {
    let info: Stats;
    try {
      info = await stat(file);
    } catch {
      return send(res, 404, 'not found');
    }
    if (!info.isFile()) return send(res, 404, 'not found');
    return sendFile(req, res, file, info, TYPES[extname(file)] ?? 'application/octet-stream', cache);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}/`;
  return {
    port,
    url: files.size > 0 ? `${base}#open=${options.token}` : base,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function send(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra });
  res.end(`${text}\n`);
}

function sendJson(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(value));
}

function sendFile(req: IncomingMessage, res: ServerResponse, file: string, info: Stats, type: string, cache: string): Promise<void> {
  res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': type, 'Content-Length': String(info.size), 'Cache-Control': cache });
  if (req.method === 'HEAD') {
    res.end();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const stream = createReadStream(file);
    stream.on('error', () => {
      res.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(res);
  });
}
