// `hookwire claude-hook --server URL`: the thin forwarding command. It posts the hook input to a running
// `hookwire serve` and prints the server's answer exactly as the standalone command would. When it cannot get
// an answer within its own deadline — server down, refused, slow, a body it cannot read — it fails closed with
// exit 2, which Claude Code treats as blocking (an `http` hook would treat the same failures as non-blocking).
import { readFileSync } from 'node:fs';
import { claudeUnknownEventFailClosed as claudeFailClosed } from '../../runtime/claudeUnknownEventFailClosed.ts';
import type { NativeAnswer as ClaudeHookAnswer } from '../../agents/types.ts';
import { httpPost } from './httpPost.ts';

export interface ForwardOptions {
  /** The agent (default Claude Code): its route on the server and its block form when no answer comes [AG4]. */
  agent?: { id: string; failClosed: (hook: string | null, reason: string) => ClaudeHookAnswer };
  /** The agent's event, for inputs that do not name it (Copilot's camelCase input). */
  event?: string;
  server: string;
  /** File holding the bearer token (default `<state-dir>/token`); HOOKWIRE_TOKEN wins when set. */
  tokenFile?: string;
  stateDir?: string;
  /** Milliseconds before giving up and failing closed (default 5000), counted from `startedAt`. */
  timeoutMs?: number;
  /**
   * When the hook's deadline started (ms since the epoch; default: now). The forwarding command passes its process's
   * start, so reading stdin, connecting and waiting for the answer all fall within the one deadline.
   */
  startedAt?: number;
}

export const DEFAULT_FORWARD_TIMEOUT_MS = 5000;
/** The header that tells the server when this command stops waiting (ms since the epoch: the same host's clock). */
export const FORWARD_DEADLINE_HEADER = 'x-hookwire-deadline';
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * When this process started (ms since the epoch): the hook's deadline counts from it, as the agent's does from
 * the spawn. From process.uptime(), not performance.timeOrigin: the `performance` global loads perf_hooks
 * (~5 ms of a forwarded call's CPU, paired runs on Node 20).
 */
export function processStart(): number {
  return Date.now() - process.uptime() * 1000;
}

/** When a forwarding call's deadline ends (ms since the epoch): `timeoutMs` (default 5000) after `startedAt`. */
export function forwardDeadlineAt(o: Pick<ForwardOptions, 'timeoutMs' | 'startedAt'>): number {
  return (o.startedAt ?? Date.now()) + (o.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS);
}

/**
 * The forwarding command [P12]: reads the hook input by the deadline (`read` gets when it ends), then forwards it.
 * An input not read by then (a stdin that never ends) is answered fail-closed, as every other failure is.
 */
export async function forwardInput(read: (deadlineAt: number) => Promise<string>, o: ForwardOptions, env: NodeJS.ProcessEnv = process.env): Promise<ClaudeHookAnswer> {
  let stdin: string;
  try {
    stdin = await read(forwardDeadlineAt(o));
  } catch (err) {
    const reason = `reading the hook input: ${err instanceof Error ? err.message : String(err)}`;
    return o.agent ? o.agent.failClosed(null, reason) : claudeFailClosed(reason);
  }
  return forwardHook(stdin, o, env);
}

/** `read`, or a rejection at `deadlineAt` if it has not settled by then (for a stream read, which a timer can interrupt). */
export function byDeadline(read: Promise<string>, deadlineAt: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("stdin did not end before the hook's deadline: the agent must close it after the input")), Math.max(0, deadlineAt - Date.now()));
    read.then((text) => (clearTimeout(timer), resolve(text)), (err: unknown) => (clearTimeout(timer), reject(err)));
  });
}

export async function forwardHook(stdin: string, o: ForwardOptions, env: NodeJS.ProcessEnv = process.env): Promise<ClaudeHookAnswer> {
  const deadline = o.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const deadlineAt = forwardDeadlineAt(o);
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
  const body = Buffer.from(stdin, 'utf8');
  // The server records the event only while this command still waits for it (see server.ts).
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': body.length, [FORWARD_DEADLINE_HEADER]: String(deadlineAt) };
  return new Promise<ClaudeHookAnswer>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (a: ClaudeHookAnswer) => {
      clearTimeout(timer);
      resolve(a);
    };
    // Throws (a header value node:http would refuse) before anything is sent or timed: the caller fails closed.
    const abandon = httpPost(url, headers, body, MAX_ANSWER_BYTES, (r) => {
      if (r.kind === 'unreachable') return finish(claudeHookFailClosed(`cannot reach the server at ${o.server}: ${r.message}`));
      if (r.kind === 'unreadable') return finish(claudeHookFailClosed(`reading the server answer: ${r.message}`));
      if (r.kind === 'too-large') return finish(claudeHookFailClosed('the server answer is too large'));
      const text = r.body.toString('utf8');
      if (r.status !== 200) {
        let why = text.slice(0, 500);
        try {
          why = String((JSON.parse(text) as { error?: unknown }).error ?? why);
        } catch {
          // not JSON: keep the text
        }
        return finish(claudeHookFailClosed(`the server at ${o.server} answered ${r.status}: ${why}`));
      }
      finish(parseAnswer(text) ?? claudeHookFailClosed(`the server at ${o.server} sent an answer that is not {exitCode, stdout, stderr}`));
    });
    timer = setTimeout(() => (abandon(), finish(claudeHookFailClosed(`no answer from ${o.server} within ${deadline} ms`))), Math.max(0, deadlineAt - Date.now()));
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
