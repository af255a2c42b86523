// The OpenAPI 3.1 description of `hookwire serve` (GET /openapi.json). One place: the README links here and
// test/engine/node/serve checks that every route the server answers is described.
import { DECISIONS } from '../../model/decision.ts';
import { AGENT_IDS } from '../../agents/types.ts';

const error = { description: 'Refused; nothing changed', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const gate = { '401': error, '403': error, '421': error };
const refusals = { '400': error, ...gate, '404': error, '413': error, '415': error };
const unavailable = (why: string) => ({ '503': { ...error, description: why } });
/** Every session fails closed while recordings cannot be written (full or read-only disk) [SV6]. */
const writeFault = 'Recordings cannot be written (a full or read-only disk: every session fails closed until writes work again, see /health `write_fault`), or the trace\'s recording cannot be read (the error names the file and line; the file is left alone): treat as blocked';
const traceId = { name: 'trace_id', in: 'path', required: true, schema: { $ref: '#/components/schemas/TraceId' } };
const jsonBody = (ref: string, required = true) => ({ required, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });
const ok = (ref: string, description = 'OK') => ({ description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

/**
 * The document's type is only what a reader needs to know it is one. Inferred from the literal (`as const`), it
 * repeated the whole document as a 70 KB type in the package's openapi.d.ts, which pushed the runtime install past
 * its 10 MiB budget (test/package/install.test.ts).
 */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly paths: Readonly<Record<string, unknown>>;
  readonly servers: readonly { readonly url: string }[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly components: Readonly<Record<string, unknown>>;
}

export const OPENAPI: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'hookwire serve',
    version: '1',
    description:
      'A long-running Hookwire decision server on loopback. Every request needs `Authorization: Bearer <token>` (the token is written, mode 0600, to `<state-dir>/token` at start); Host must be 127.0.0.1:<port>, localhost:<port> or [::1]:<port>; a browser Origin must be allowed with --allow-origin. Events of one trace are dispatched one at a time in arrival order. Limits: trace ids of 1 to 256 characters, not `.` or `..`, no control characters (else 400); at most --max-sessions live sessions and --max-streams live-stream clients (else 503); a request head must arrive within 10 s and the whole request within 12 s (else the connection is closed); bodies up to --max-body bytes (else 413). A session leaves memory when it ends (agent.end, SessionEnd) or after --idle-timeout without events, and comes back from its recording when an event arrives.',
  },
  servers: [{ url: 'http://127.0.0.1:7347' }],
  security: [{ bearer: [] }],
  paths: {
    '/health': { get: { summary: 'Pipeline version, last reload error, live sessions, unreadable recordings, write faults', responses: { '200': ok('Health'), ...refusals } } },
    '/metrics': {
      get: {
        summary: 'Prometheus text exposition (0.0.4)',
        description:
          'Families: hookwire_requests_total{route,code}, hookwire_decisions_total{decision}, hookwire_fail_closed_total, hookwire_decision_latency_seconds (histogram), hookwire_sessions, hookwire_sessions_max, hookwire_sessions_dropped_total, hookwire_sessions_reloaded_total, hookwire_sessions_unreadable, hookwire_queue_events, hookwire_stream_clients, hookwire_stream_clients_max, hookwire_open_recordings, hookwire_write_fault, hookwire_write_faults_total, hookwire_divergent_on_rebuild_total, process_resident_memory_bytes.',
        responses: { '200': { description: 'text/plain; version=0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } }, ...refusals },
      },
    },
    '/openapi.json': { get: { summary: 'This description', responses: { '200': { description: 'OpenAPI 3.1' } } } },
    '/v1/claude/hook': {
      post: {
        summary: "Claude Code's `http` hook: the hook input in, the hook's JSON answer out",
        description: 'The body is the hook input Claude Code posts. The answer is what a command hook prints on exit 0 (empty when there is nothing to say); an answer the command gives as exit 2 is `{"continue": false, "stopReason"}` (plus a PreToolUse deny). With `?answer=command` the answer is `{exitCode, stdout, stderr}` for `hookwire claude-hook --server`.',
        parameters: [
          { name: 'answer', in: 'query', required: false, schema: { enum: ['http', 'command'] } },
          { name: 'x-hookwire-deadline', in: 'header', required: false, description: 'When the caller stops waiting (ms since the epoch, this host\'s clock): an event whose line would be written later is not recorded and gets the fail-closed answer', schema: { type: 'string', pattern: '^[0-9]{1,16}$' } },
        ],
        requestBody: jsonBody('ClaudeHookInput'),
        responses: { '200': { description: 'The decision as Claude Code reads it (empty body: no objection). A body that is too large, not JSON or not a hook input Hookwire can map, a session id that is not a valid trace id, the live-session limit, a disk fault or an unreadable recording are answered here too, with the fail-closed answer and the reason: a non-2xx would be a non-blocking error to Claude Code' }, ...gate },
      },
    },
    '/v1/agents': { get: { summary: 'Every coding agent Hookwire speaks to: id, the contract read (sources and versions), its events and the channel of each outcome (as `hookwire agents --json`)', responses: { '200': ok('AgentList'), ...refusals } } },
    '/v1/agents/{agent}/hook': {
      post: {
        summary: "One coding agent's hook input in, that agent's own answer out (`hookwire hook --agent <id> --server` forwards here)",
        description:
          'The body is the hook input the agent gives its command hook on stdin. The answer is the command\'s `{exitCode, stdout, stderr}`, which the forwarding command prints and exits with, so the agent reads it as its own hook\'s answer. One pipeline and one session state per session id, whatever agent sends it. An input that is not JSON, lacks the event\'s fields or is another agent\'s, a session id that is not a valid trace id, the live-session limit, a disk fault, an unreadable recording or a deadline passed are answered here too, in the agent\'s block form (a 200: a non-2xx would be a failed hook, which most agents let through). `claude` is the route of `/v1/claude/hook`.',
        parameters: [
          { name: 'agent', in: 'path', required: true, schema: { enum: [...AGENT_IDS] } },
          { name: 'answer', in: 'query', required: true, description: 'Agents other than Claude Code have command hooks only: `command` is required (else 400); `claude` also takes `http` (as /v1/claude/hook)', schema: { enum: ['command', 'http'] } },
          { name: 'event', in: 'query', required: false, description: 'The native event name when the input does not carry one (GitHub Copilot\'s camelCase input)', schema: { type: 'string', maxLength: 100 } },
          { name: 'x-hookwire-deadline', in: 'header', required: false, description: 'When the caller stops waiting (ms since the epoch, this host\'s clock): an event whose line would be written later is not recorded and gets the block form', schema: { type: 'string', pattern: '^[0-9]{1,16}$' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: "The agent's native hook input" } } } },
        responses: {
          '200': ok('CommandAnswer', "The agent's answer, or its block form with the reason"),
          '400': { ...error, description: 'No `?answer=command`' },
          '404': { ...error, description: 'No such agent (GET /v1/agents lists them)' },
          ...gate,
        },
      },
    },
    '/v1/traces': {
      get: { summary: 'Every trace the server holds', responses: { '200': ok('TraceList'), ...refusals } },
      post: {
        summary: 'Start a trace (idempotent for a known trace_id, live or recorded)',
        requestBody: jsonBody('StartTrace', false),
        responses: { '201': ok('Started', 'Started'), '200': ok('Started', 'Known already'), ...refusals, ...unavailable(`${writeFault}; or the server holds --max-sessions live sessions`) },
      },
    },
    '/v1/traces/{trace_id}/events': {
      post: {
        summary: 'Emit one event and get its decision',
        parameters: [traceId],
        requestBody: jsonBody('Emit'),
        responses: { '200': ok('Decision'), '409': { ...error, description: 'The trace has ended (agent.end)' }, ...refusals, ...unavailable(`${writeFault}; or the server holds --max-sessions live sessions`) },
      },
    },
    '/v1/traces/{trace_id}/end': {
      post: {
        summary: 'Emit agent.end and close the trace (an agent.end sent as an event closes it too); it leaves memory',
        parameters: [traceId],
        requestBody: jsonBody('End', false),
        responses: { '200': ok('Decision'), '409': error, ...refusals, ...unavailable(writeFault) },
      },
    },
    '/v1/traces/{trace_id}/recording': {
      get: { summary: "The trace's recording (trace v1 JSON Lines), live or not", parameters: [traceId], responses: { '200': { description: 'application/x-ndjson' }, ...refusals } },
    },
    '/v1/traces/{trace_id}/readmit': {
      post: {
        summary: 'Re-admit a recording refused for its integrity (a broken hash chain, lines cut off the end), deliberately',
        description: 'The reason and the overridden integrity error are appended to <state-dir>/readmissions.jsonl; the session is rebuilt from the recording as it now is when its next event arrives.',
        parameters: [traceId],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 1000 } } } } } },
        responses: { '200': { description: 'Re-admitted' }, '409': { ...error, description: 'Nothing to re-admit (no integrity error, the session is live, or the file is not a readable trace)' }, ...refusals },
      },
    },
    '/v1/stream': { get: { summary: 'Server-sent events: `hello` once (the live sessions), then one `step` per dispatched event', responses: { '200': { description: 'text/event-stream; data of `step` is a LiveStep' }, ...refusals, ...unavailable('The server has --max-streams live-stream clients') } } },
    '/v1/pipeline': {
      get: { summary: 'The pipeline being served', responses: { '200': ok('PipelineInfo'), ...refusals } },
      put: { summary: 'Replace the pipeline file (validated first; refused with every problem)', requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': ok('PipelineInfo'), '422': error, ...refusals } },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      ClaudeHookInput: { type: 'object', required: ['hook_event_name'], properties: { session_id: { type: 'string' }, hook_event_name: { type: 'string' }, tool_name: { type: 'string' }, tool_input: { type: 'object' }, tool_use_id: { type: 'string' } } },
      AgentList: { type: 'object', required: ['agents'], properties: { agents: { type: 'array', items: { type: 'object', required: ['id', 'name', 'events'], properties: { id: { enum: [...AGENT_IDS] }, name: { type: 'string' }, confirmed: { type: 'boolean' }, sources: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' }, version: { type: 'string' } } } }, timeout_s: { type: 'number' }, on_failure: { type: 'string' }, fail_open: { type: 'array', items: { type: 'object' } }, unseen: { type: 'array', items: { type: 'string' } }, events: { type: 'array', items: { type: 'object' } } } } } } },
      CommandAnswer: { type: 'object', required: ['exitCode', 'stdout', 'stderr'], properties: { exitCode: { type: 'integer', description: 'What the command exits with (2: the agent\'s blocking exit, where it has one)' }, stdout: { type: 'string' }, stderr: { type: 'string' } } },
      TraceId: { type: 'string', minLength: 1, maxLength: 256, not: { enum: ['.', '..'] }, pattern: '^[^\\u0000-\\u001f\\u007f]+$' },
      StartTrace: { type: 'object', properties: { trace_id: { $ref: '#/components/schemas/TraceId' }, agent_id: { type: 'string', maxLength: 1000 }, title: { type: 'string', maxLength: 1000 } } },
      Started: { type: 'object', required: ['trace_id', 'created'], properties: { trace_id: { type: 'string' }, created: { type: 'boolean' } } },
      Emit: {
        type: 'object',
        required: ['type'],
        properties: { type: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z_][A-Za-z0-9_-]*)*$' }, payload: { type: 'object' }, event_id: { type: 'string', maxLength: 1000 }, ts: { type: 'string', format: 'date-time' }, meta: { type: 'object' } },
      },
      End: { type: 'object', properties: { payload: { type: 'object' } } },
      Decision: {
        type: 'object',
        required: ['trace_id', 'event_id', 'index', 'decision', 'blocked', 'reason', 'decided_by', 'payload', 'duplicate', 'pipeline'],
        properties: {
          trace_id: { type: 'string' },
          event_id: { type: 'string' },
          index: { type: 'integer' },
          // From the engine's list, so a decision the engine adds is described the day it can be answered.
          decision: { enum: [...DECISIONS], description: '`ask`: the pipeline asks for approval; the recorded answer (if any) decides whether the action runs — read `blocked`' },
          blocked: { type: 'boolean', description: 'true: the action must not run' },
          reason: { type: 'string' },
          decided_by: { type: ['string', 'null'] },
          payload: { type: 'object', description: 'The payload after rewrites' },
          duplicate: { type: 'boolean' },
          pipeline: { type: 'string', description: 'The pipeline version that decided' },
        },
      },
      TraceList: { type: 'object', properties: { traces: { type: 'array', items: { type: 'object' } } } },
      PipelineInfo: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' }, document: { type: 'object' } } },
      Health: {
        type: 'object',
        properties: {
          status: { enum: ['ok', 'degraded'] },
          pipeline: { type: 'object' },
          reload_error: { type: ['object', 'null'] },
          sessions: { type: 'integer', description: 'Live sessions (ended and idle ones are not counted: they are on disk only)' },
          max_sessions: { type: 'integer' },
          idle_timeout_s: { type: 'number' },
          failed_sessions: { type: 'integer', description: 'Sessions whose recording could not be read' },
          write_fault: { type: ['object', 'null'], properties: { reason: { type: 'string' }, since: { type: 'string' }, refused: { type: 'integer' } } },
          write_fault_gaps: { type: 'array', items: { type: 'object', properties: { kind: { const: 'write_fault' }, from: { type: 'string' }, to: { type: 'string' }, reason: { type: 'string' }, refused: { type: 'integer' } } } },
        },
      },
    },
  },
} as const;
