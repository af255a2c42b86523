// `hookwire claude-hook --server URL`: the thin forwarding command. It posts the hook input to a running
// `hookwire serve` and prints the server's answer exactly as the standalone command would. When it cannot get
// an answer within its own deadline — server down, refused, slow, a body it cannot read — it fails closed with
// exit 2, which Claude Code treats as blocking (an `http` hook would treat the same failures as non-blocking).
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { claudeHookFailClosed as claudeFailClosed } from '../../runtime/claudeHook.ts';
import type { NativeAnswer as ClaudeHookAnswer } from '../../agents/types.ts';

export interface ForwardOptions {
  /** The agent (default Claude Code): its route on the server and its block form when no answer comes [AG4]. */
  agent?: { id: string; failClosed: (hook: string | null, reason: string) => ClaudeHookAnswer };
  /** The agent's event, for inputs that do not name it (Copilot's camelCase input). */
  event?: string;
  server: string;
  /** File holding the bearer token (default `<state-dir>/token`); HOOKWIRE_TOKEN wins when set. */
  tokenFile?: string;
  stateDir?: string;
  /** Milliseconds before giving up and failing closed (default 5000). */
  timeoutMs?: number;
}

export const DEFAULT_FORWARD_TIMEOUT_MS = 5000;
/** The header that tells the server when this command stops waiting (ms since the epoch: the same host's clock). */
export const FORWARD_DEADLINE_HEADER = 'x-hookwire-deadline';
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export async function forwardHook(stdin: string, o: ForwardOptions, env: NodeJS.ProcessEnv = process.env): Promise<ClaudeHookAnswer> {
  const deadline = o.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const claudeHookFailClosed = (reason: string) => (o.agent ? o.agent.failClosed(null, reason) : claudeFailClosed(reason));
  const route = o.agent && o.agent.id !== 'claude' ? `/v1/agents/${encodeURIComponent(o.agent.id)}/hook?answer=command${o.event ? `&event=${encodeURIComponent(o.event)}` : ''}` : '/v1/claude/hook?answer=command';
  let token = env.HOOKWIRE_TOKEN?.trim();
  if (!token) {
    const file = o.tokenFile ?? `${o.stateDir ?? '.hookwire'}/token`;
    try {
      // node:fs, not node:fs/promises: the latter loads a dozen of Node's internal modules (~4 ms of a call).
      token = readFileSync(file, 'utf8').trim();
    } catch {
      return claudeHookFailClosed(`cannot read the server token from ${file} (set HOOKWIRE_TOKEN or --token-file)`);
    }
  }
  let url: URL;
  try {
    url = new URL(route, o.server);
  } catch {
    return claudeHookFailClosed(`--server ${o.server} is not a URL`);
  }
  if (url.protocol !== 'http:') return claudeHookFailClosed(`--server ${o.server}: only http:// on loopback is supported`);
  return new Promise<ClaudeHookAnswer>((resolve) => {
    let done = false;
    const finish = (a: ClaudeHookAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve(a);
    };
    const body = Buffer.from(stdin, 'utf8');
    // The server records the event only while this command still waits for it (see server.ts).
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': body.length, [FORWARD_DEADLINE_HEADER]: String(Date.now() + deadline) };
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) finish(claudeHookFailClosed('the server answer is too large'));
        else chunks.push(c);
      });
      res.on('error', (err) => finish(claudeHookFailClosed(`reading the server answer: ${err.message}`)));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) {
          let why = text.slice(0, 500);
          try {
            why = String((JSON.parse(text) as { error?: unknown }).error ?? why);
          } catch {
            // not JSON: keep the text
          }
          finish(claudeHookFailClosed(`the server at ${o.server} answered ${res.statusCode}: ${why}`));
          return;
        }
        finish(parseAnswer(text) ?? claudeHookFailClosed(`the server at ${o.server} sent an answer that is not {exitCode, stdout, stderr}`));
      });
    });
    const timer = setTimeout(() => finish(claudeHookFailClosed(`no answer from ${o.server} within ${deadline} ms`)), deadline);
    req.on('error', (err) => finish(claudeHookFailClosed(`cannot reach the server at ${o.server}: ${err.message}`)));
    req.end(body);
  });
}

function parseAnswer(text: string): ClaudeHookAnswer | null {
  try {
    const a = JSON.parse(text) as Record<string, unknown>;
    if ((a.exitCode === 0 || a.exitCode === 2) && typeof a.stdout === 'string' && typeof a.stderr === 'string') return { exitCode: a.exitCode, stdout: a.stdout, stderr: a.stderr };
  } catch {
    // fall through: not an answer
  }
  return null;
}
