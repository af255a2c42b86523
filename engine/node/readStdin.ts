// The one stdin reader of the CLI: the full CLI (cli.ts) and the forwarding command's small bundle
// (serve/forwardMain.ts, through readStdinBlocking.ts; it must start fast: this imports only cliIo.ts, itself only node:fs).
import { CliError } from './cliIo.ts';

/** Largest stdin read; a hook input is a few KB (tool_response can be larger). */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** All of stdin as text, up to `limit` bytes (past it: a CliError); a terminal on stdin is no input. */
export async function readStdin(limit: number = MAX_STDIN_BYTES): Promise<string> {
  if (process.stdin.isTTY) return '';
  return streamRest([], 0, limit);
}

/** The rest of stdin as a stream, after `chunks` (`size` bytes) already read. */
export async function streamRest(chunks: Buffer[], size: number, limit: number): Promise<string> {
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new CliError(`stdin is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
