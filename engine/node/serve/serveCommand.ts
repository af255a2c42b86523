// `hookwire serve <pipeline.json>`: starts the decision server and runs until SIGINT/SIGTERM.
import { CliError, type Io } from '../cliIo.ts';
import type { FlushPolicy } from './recordingFile.ts';
import { startServer } from './server.ts';

export interface ServeCommandOptions {
  port?: string;
  host?: string;
  stateDir?: string;
  flush?: FlushPolicy;
  maxBody?: string;
  allowOrigin?: string[];
  watch?: boolean;
  allowRewrites?: boolean;
  idleTimeout?: string;
  maxSessions?: string;
  maxStreams?: string;
}

export const DEFAULT_PORT = 7347;

export async function serveCommand(pipelinePath: string, o: ServeCommandOptions, io: Io, signal?: AbortSignal): Promise<number> {
  const port = o.port === undefined ? DEFAULT_PORT : Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port ${o.port} is not a port number`);
  const maxBody = o.maxBody === undefined ? undefined : Number(o.maxBody);
  if (maxBody !== undefined && (!Number.isInteger(maxBody) || maxBody < 1024)) throw new CliError(`--max-body ${o.maxBody} must be a whole number of bytes, at least 1024`);
  const idle = wholeNumber(o.idleTimeout, '--idle-timeout', 1);
  const maxSessions = wholeNumber(o.maxSessions, '--max-sessions', 1);
  const maxStreams = wholeNumber(o.maxStreams, '--max-streams', 0);
  let server;
  try {
    server = await startServer({
      pipelinePath,
      stateDir: o.stateDir ?? '.hookwire',
      port,
      ...(o.host ? { host: o.host } : {}),
      flush: o.flush ?? 'write',
      ...(maxBody ? { maxBodyBytes: maxBody } : {}),
      allowOrigins: o.allowOrigin ?? [],
      watch: o.watch !== false,
      allowRewrites: o.allowRewrites === true,
      ...(idle !== undefined ? { idleMs: idle * 1000 } : {}),
      ...(maxSessions !== undefined ? { maxSessions } : {}),
      ...(maxStreams !== undefined ? { maxStreams } : {}),
      log: (line) => io.err(`${line}\n`),
    });
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
  const r = server.rebuilt;
  // The token is printed once, here; it is also in the token file (mode 0600) for the forwarding command.
  io.out(`hookwire serve: listening on ${server.url}\n`);
  io.out(`hookwire serve: token ${server.token} (also in ${server.tokenFile}, mode 0600)\n`);
  io.out(`hookwire serve: rebuilt ${r.sessions} sessions (${r.events} events) from recordings; ${r.cut} torn last lines cut; ${r.failed} recordings fail closed\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop);
  });
  await server.close();
  return 0;
}

function wholeNumber(raw: string | undefined, flag: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new CliError(`${flag} ${raw} must be a whole number, at least ${min}`);
  return n;
}
