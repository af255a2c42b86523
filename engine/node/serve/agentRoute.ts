// `POST /v1/agents/<id>/hook`: one coding agent's hook input, answered as that agent reads answers [AG4][AG5].
// The agents other than Claude Code have command hooks only, so the answer is the command's
// `{exitCode, stdout, stderr}` (`?answer=command`, what `hookwire hook --agent <id> --server` prints); Claude
// Code's route is /v1/claude/hook (http hooks too). Every refusal past the trust gate is the agent's block form
// in a 200, as on the Claude Code route [P16]: the forwarding command prints it.
import type { IncomingMessage } from 'node:http';
import { isAgentId, isHookAgentId } from '../../agents/types.ts';
import { agentAdapter } from '../../runtime/agentHook.ts';
import type { AgentReply } from '../../agents/types.ts';
import type { Metrics } from './metrics.ts';
import type { SessionHost } from './sessionHost.ts';
import { isoTimestamp } from './timestamp.ts';

export interface AgentRouteDeps {
  sessions: SessionHost;
  metrics: Metrics;
  allowRewrites: boolean;
  readJson: (req: IncomingMessage) => Promise<unknown>;
  /** When the forwarding command stops waiting (ms since the epoch), if it said. */
  deadline: (req: IncomingMessage) => number | null;
  log: (line: string) => void;
  /** The status of a refused request (HttpError's), to answer it in the block form instead. */
  statusOf: (err: unknown) => number | null;
}

type Answer = [number, string, string];

/** The route's handler: agent id from the path, `?answer=command` required, `?event=` for inputs that name none (Copilot). */
export function agentHookRoute(d: AgentRouteDeps): (req: IncomingMessage, id: string, query: URLSearchParams) => Promise<Answer> {
  return async (req, id, query) => {
    if (!isAgentId(id)) return [404, 'application/json', JSON.stringify({ error: `no agent "${id.slice(0, 100)}" (GET /v1/agents lists them)` })];
    if (!isHookAgentId(id)) return [404, 'application/json', JSON.stringify({ error: `${id} has no command hooks: it runs Hookwire in process as a plugin (hookwire install --agent ${id})` })];
    if (query.get('answer') !== 'command') {
      return [400, 'application/json', JSON.stringify({ error: `${id} has command hooks only: post with ?answer=command (what hookwire hook --agent ${id} --server does)${id === 'claude' ? '; Claude Code http hooks use /v1/claude/hook' : ''}` })];
    }
    const adapter = agentAdapter(id);
    const hint = query.get('event') ?? undefined;
    const failClosed = (hook: string | null, reason: string): Answer => {
      d.metrics.failClosed++;
      return [200, 'application/json', JSON.stringify(adapter.failClosed(hook, reason))];
    };
    let input: unknown;
    try {
      input = await d.readJson(req);
    } catch (err) {
      if (d.statusOf(err) !== null) return failClosed(null, err instanceof Error ? err.message : String(err));
      throw err;
    }
    try {
      const session = adapter.sessionId(input);
      const ts = isoTimestamp();
      // Checked before the session is opened, so a bad input leaves no trace behind.
      const probe = adapter.parse(input, { ts, seq: 1 }, hint);
      if (!probe.ok) return failClosed(probe.hook, probe.reason);
      // A bad session id, the live-session limit, a disk fault or an unreadable recording: the block form [SV3]-[SV6].
      const opened = await d.sessions.open(session, adapter.contract.agentId, { hook: `${id}-hook`, agent: id });
      if (!opened.ok) return failClosed(probe.hook, opened.reason);
      const until = d.deadline(req);
      let hook = probe.hook;
      let reply: AgentReply | null = null;
      const r = await d.sessions.dispatch(session, (seq) => {
        const m = adapter.parse(input, { ts, seq }, hint);
        if (!m.ok) return m.reason;
        hook = m.hook;
        return m.event;
      }, {
        // The answer is made before the line is written, so the recording holds its answer to an ASK.
        approvalOf: (step, event) => {
          reply = adapter.reply(hook, event, { decision: step.decision, reason: step.reason, payload: step.payload_after, context: [...step.context] }, { allowRewrites: d.allowRewrites });
          return reply.approval;
        },
        ...(until === null ? {} : { expired: () => (req.socket.destroyed ? 'the forwarding command stopped waiting for the answer' : Date.now() >= until ? "past the forwarding command's deadline" : null) }),
      });
      const made = reply as AgentReply | null;
      if (!r.ok || !made) return failClosed(hook, r.ok ? 'no answer was made' : r.reason);
      return [200, 'application/json', JSON.stringify(made.answer)];
    } catch (err) {
      // A bug must not become a 500: the agent would run the action.
      const why = err instanceof Error ? err.message : String(err);
      try {
        d.log(`hookwire serve: internal error on the ${id} hook route: ${err instanceof Error ? (err.stack ?? why) : why}`);
      } catch {
        // the log is what failed
      }
      return failClosed(adapter.hookName(input, hint), `internal error: ${why}`);
    }
  };
}
