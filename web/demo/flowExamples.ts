import { PIPELINE_FORMAT, PIPELINE_VERSION, type Condition, type FlowAction, type Pipeline } from '../../engine/app.ts';

// The worked examples of docs/flow-rules.md [F1]-[F9], offered by the library: one pipeline per rule people
// ask for most. They read the portable fields (`payload.tool`, `payload.command`, `payload.file_path`,
// `payload.url`), so one pipeline decides the same for every agent. test/web/demo/flowExamples.test.ts replays
// each over a small trace and holds it to the decisions the docs describe.

/** One example: a single flow rule deciding `tool.before_call` events that match `decides`. */
function example(name: string, description: string, decides: Condition, rule: string, action: Omit<FlowAction, 'type'>): Pipeline {
  return {
    format: PIPELINE_FORMAT,
    version: PIPELINE_VERSION,
    name,
    description,
    event_types: [],
    nodes: [
      { id: 'ev-tool-before', kind: 'event', pattern: 'tool.before_call' },
      { id: 'm-decides', kind: 'matcher', label: 'Decided events', when: decides },
      { id: 'h-flow', kind: 'handler', name: rule, order: 10, enabled: true, shadow: false, on_error: 'block', action: { type: 'flow', ...action } },
    ],
    wires: [
      { from: 'ev-tool-before', to: 'm-decides' },
      { from: 'm-decides', to: 'h-flow' },
    ],
    layout: { nodes: [{ id: 'ev-tool-before', x: 40, y: 120 }, { id: 'm-decides', x: 320, y: 120 }, { id: 'h-flow', x: 620, y: 120 }] },
  };
}

const SECRET: Condition = { 'payload.file_path': { regex: '(^|/)(\\.env(\\..*)?|credentials(\\.json)?|id_(rsa|ed25519))$|/\\.ssh/' } };
const EGRESS: Condition = { any: [{ 'payload.tool': { eq: 'fetch' } }, { 'payload.command': { regex: '\\b(curl|wget|nc|scp|ssh)\\b' } }] };
const WRITES: Condition = { 'payload.tool': { in: ['write', 'edit'] } };

/** The five flow-rule examples, in the order of docs/flow-rules.md. */
export function flowExamples(): Pipeline[] {
  return [
    example('Flow: no egress after a secret read', 'After the agent read a secret (.env, ~/.ssh/*, a credentials file), block any network egress in the same session.', EGRESS, 'no egress after a secret read', {
      rule: 'sequence',
      mark: { event: 'tool.before_call', when: { 'payload.tool': { eq: 'read' }, ...SECRET } },
      decision: 'block',
      reason: 'No network egress after a secret read',
    }),
    example('Flow: untrusted content needs approval', 'Once a tool result brought untrusted content (a web page, an issue body), shell commands need approval for the rest of the session.', { 'payload.tool': { eq: 'shell' } }, 'untrusted content taints the session', {
      rule: 'flag',
      mark: { event: 'tool.after_call', when: { any: [{ 'payload.tool': { eq: 'fetch' } }, { 'payload.tool_name': { regex: '(?i)issue|pull_request|web' } }] } },
      decision: 'ask',
      reason: 'Untrusted content entered this session: approve this shell command',
    }),
    example('Flow: stop retrying a failing command', 'The same failing command three times in a row: stop, and tell the model why.', { 'payload.tool': { eq: 'shell' } }, 'same failing command three times', {
      rule: 'window',
      mark: { event: 'tool.after_call', when: { 'payload.exit_code': { ne: 0 } } },
      clear: { event: 'tool.after_call', when: { 'payload.exit_code': { eq: 0 } } },
      limit: 3,
      within_ms: 3_600_000,
      same: { earlier: 'payload.command', now: 'payload.command' },
      decision: 'block',
      reason: 'This command failed three times in a row; do not run it again — tell the user what fails and why',
    }),
    example('Flow: at most 20 writes in 5 minutes', 'No more than 20 file writes in any 5 minutes.', WRITES, 'at most 20 writes in 5 minutes', {
      rule: 'window',
      mark: { event: 'tool.before_call', when: WRITES },
      limit: 20,
      within_ms: 300_000,
      decision: 'block',
      reason: 'Too many file writes: at most 20 in any 5 minutes',
    }),
    example('Flow: push only after green tests', '`git push` only if a test command succeeded since the last edit.', { 'payload.command': { regex: '^git push\\b' } }, 'push only after green tests', {
      rule: 'precondition',
      mark: { event: 'tool.after_call', when: { 'payload.command': { regex: '^(npm|pnpm|yarn) (run )?test\\b|^(pytest|cargo test|go test)\\b' }, 'payload.exit_code': { eq: 0 } } },
      clear: { event: 'tool.before_call', when: WRITES },
      decision: 'block',
      reason: 'Run the tests (and see them pass) after your last edit before pushing',
    }),
  ];
}
