// `hookwire ui [pipeline.json] [trace…] [--port N] [--open]`: the app from the package, on 127.0.0.1, with
// the given pipeline and traces opened in it (the debugger, when there are traces). Runs until Ctrl+C.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CliError, EXIT, fileErrorText, type Io } from '../cliIo.ts';
import { schemaDir, webDir } from '../packageRoot.ts';
import { startUiServer, type UiServer } from '../uiServer.ts';

export interface UiOptions {
  port?: string;
  open?: boolean;
  /** A running `hookwire serve` to attach the debugger to (its token from `<stateDir>/token` or HOOKWIRE_TOKEN). */
  live?: string;
  stateDir?: string;
}

export const DEFAULT_UI_PORT = 4310;

/** Where the app and the schemas are: the package's own unless a test says otherwise. */
export interface UiDirs {
  web: string;
  schema: string;
}

/** Starts the server and resolves with it (the CLI then waits for a signal; tests close it). */
export async function startUi(files: string[], options: UiOptions, io: Io, dirs: UiDirs = { web: webDir(), schema: schemaDir() }): Promise<UiServer> {
  const port = options.port === undefined ? DEFAULT_UI_PORT : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a port number (0-65535), not "${options.port}"`);
  const paths = files.map((f) => resolve(f));
  for (const p of paths) {
    let info;
    try {
      info = await stat(p);
    } catch (err) {
      throw new CliError(`cannot read ${p}: ${fileErrorText(err)}`);
    }
    if (!info.isFile()) throw new CliError(`cannot read ${p}: is a directory, not a file`);
  }
  const liveFragment = options.live === undefined ? '' : await liveHash(options, paths.length);
  const web = dirs.web;
  if (!existsSync(join(web, 'index.html'))) {
    throw new CliError(`the app is not built (no ${join(web, 'index.html')}); in a checkout run \`npm run build:dist\``);
  }
  // The first file is the pipeline when it says so ("format": "hookwire.pipeline"); the app checks it whole.
  const [first, ...rest] = paths;
  const pipeline = first !== undefined && (await looksLikePipeline(first)) ? first : undefined;
  const traces = pipeline ? rest : paths;
  let server: UiServer;
  try {
    server = await startUiServer({ webDir: web, schemaDir: dirs.schema, pipeline, traces, token: randomBytes(24).toString('hex'), port });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is in use: pick another with --port (0 picks a free one)`);
    throw err;
  }
  const url = `${server.url}${liveFragment}`;
  io.out(`Hookwire app: ${url}\n`);
  if (liveFragment) io.out(`The debugger attaches to ${options.live}; start that server with --allow-origin ${new URL(server.url).origin}.\n`);
  if (pipeline || traces.length) io.out(`Opening ${[pipeline, ...traces].filter(Boolean).length} file(s) in it. Press Ctrl+C to stop.\n`);
  else io.out('Press Ctrl+C to stop.\n');
  if (options.open) openBrowser(url, io);
  return server;
}

export async function uiCommand(files: string[], options: UiOptions, io: Io): Promise<number> {
  const server = await startUi(files, options, io);
  await new Promise<void>((done) => {
    const stop = () => void server.close().then(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return EXIT.ok;
}

/** The system's way to open a URL; a failure only prints the address again. */
function openBrowser(url: string, io: Io): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => io.err(`could not start a browser (${cmd}); open ${url}\n`));
    child.unref();
  } catch {
    io.err(`could not start a browser; open ${url}\n`);
  }
}

/** `#live=<server>&token=<token>` for the app (web/io/liveFromCli.ts); the fragment never reaches a server. */
async function liveHash(options: UiOptions, files: number): Promise<string> {
  if (files > 0) throw new CliError('--live attaches to a running server: give it without files (open them in the app)');
  const server = options.live!.replace(/\/$/, '');
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/.test(server)) throw new CliError(`--live ${options.live}: expected the address of a hookwire serve on this machine, such as http://127.0.0.1:7347`);
  let token = process.env.HOOKWIRE_TOKEN?.trim();
  if (!token) {
    const file = join(options.stateDir ?? '.hookwire', 'token');
    try {
      token = (await readFile(file, 'utf8')).trim();
    } catch (err) {
      throw new CliError(`cannot read the server token ${file}: ${fileErrorText(err)} (give --state-dir or set HOOKWIRE_TOKEN)`);
    }
  }
  return `#live=${encodeURIComponent(server)}&token=${token}`;
}

async function looksLikePipeline(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(65536), position: 0 });
    return /"format"\s*:\s*"hookwire\.pipeline"/.test(buffer.toString('utf8', 0, bytesRead));
  } finally {
    await file.close();
  }
}
