// The OpenAPI 3.1 description of `hookwire serve` (GET /openapi.json). One place: the README links here and
// test/engine/node/serve checks that every route the server answers is described.

const error = { description: 'Refused; nothing changed', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const gate = { '401': error, '403': error, '421': error };
const refusals = { '400': error, ...gate, '404': error, '413': error, '415': error };
const jsonBody = (ref: string, required = true) => ({ required, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });
const ok = (ref: string, description = 'OK') => ({ description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'hookwire serve',
    version: '1',
    description:
      'A long-running Hookwire decision server on loopback. Every request needs `Authorization: Bearer <token>` (the token is written, mode 0600, to `<state-dir>/token` at start); Host must be 127.0.0.1:<port>, localhost:<port> or [::1]:<port>; a browser Origin must be allowed with --allow-origin. Events of one trace are dispatched one at a time in arrival order.',
  },
  servers: [{ url: 'http://127.0.0.1:7347' }],
  security: [{ bearer: [] }],
  paths: {
    '/health': { get: { summary: 'Pipeline version, last reload error, sessions, failed sessions', responses: { '200': ok('Health'), ...refusals } } },
    '/metrics': { get: { summary: 'Events, decisions by kind, latency histogram (ms), memory', responses: { '200': ok('Metrics'), ...refusals } } },
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
        responses: { '200': { description: 'The decision as Claude Code reads it (empty body: no objection). A body that is too large, not JSON or not a hook input Hookwire can map is answered here too, with the fail-closed answer and the reason: a non-2xx would be a non-blocking error to Claude Code' }, ...gate },
      },
    },
    '/v1/traces': {
      get: { summary: 'Every trace the server holds', responses: { '200': ok('TraceList'), ...refusals } },
      post: { summary: 'Start a trace (idempotent for a known trace_id)', requestBody: jsonBody('StartTrace', false), responses: { '201': ok('Started', 'Started'), '200': ok('Started', 'Known already'), ...refusals } },
    },
    '/v1/traces/{trace_id}/events': {
      post: {
        summary: 'Emit one event and get its decision',
        parameters: [{ name: 'trace_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: jsonBody('Emit'),
        responses: { '200': ok('Decision'), '409': error, '503': { ...error, description: 'The trace fails closed (its recording could not be read or written): treat as blocked' }, ...refusals },
      },
    },
    '/v1/traces/{trace_id}/end': {
      post: {
        summary: 'Emit agent.end and close the trace',
        parameters: [{ name: 'trace_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: jsonBody('End', false),
        responses: { '200': ok('Decision'), '409': error, '503': error, ...refusals },
      },
    },
    '/v1/traces/{trace_id}/recording': {
      get: { summary: "The trace's recording (trace v1 JSON Lines)", parameters: [{ name: 'trace_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'application/x-ndjson' }, ...refusals } },
    },
    '/v1/stream': { get: { summary: 'Server-sent events: `hello` once, then one `step` per dispatched event', responses: { '200': { description: 'text/event-stream; data of `step` is a LiveStep' }, ...refusals } } },
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
      StartTrace: { type: 'object', properties: { trace_id: { type: 'string', maxLength: 1000 }, agent_id: { type: 'string', maxLength: 1000 }, title: { type: 'string', maxLength: 1000 } } },
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
          decision: { enum: ['continue', 'stop_propagation', 'block_action', 'terminate'] },
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
      Health: { type: 'object', properties: { status: { enum: ['ok', 'degraded'] }, pipeline: { type: 'object' }, reload_error: { type: ['object', 'null'] }, sessions: { type: 'integer' }, failed_sessions: { type: 'integer' } } },
      Metrics: { type: 'object', properties: { events: { type: 'integer' }, decisions: { type: 'object' }, latency_ms: { type: 'object' } } },
    },
  },
} as const;
