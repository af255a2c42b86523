import { PIPELINE_FORMAT, PIPELINE_VERSION, type Pipeline } from '../../engine/app.ts';

/**
 * The pipeline a new user sees on first run: a permission check on dangerous tools, prompt-injection
 * blocking, secret redaction, a token budget and an audit log. The demo trace (debugger) exercises these
 * exact names and fields; keep them in step.
 *
 * "Prompt injection" looks at `payload.input` while the demo trace's input events carry `user_input`, so
 * that hook never fires: the debugger's near-miss hint explains why. This is deliberate.
 */
export function demoPipeline(): Pipeline {
  return {
    format: PIPELINE_FORMAT,
    version: PIPELINE_VERSION,
    name: 'Demo: agent safety policy',
    description: 'Blocks destructive shell commands and prompt injection, redacts secrets, caps output tokens and logs every event.',
    event_types: [],
    nodes: [
      { id: 'ev-tool-before', kind: 'event', pattern: 'tool.before_call' },
      { id: 'm-dangerous-tools', kind: 'matcher', label: 'Dangerous tools', when: { 'payload.tool_name': { in: ['Bash', 'delete_file', 'run_shell'] } } },
      {
        id: 'm-destructive-command',
        kind: 'matcher',
        label: 'Destructive command',
        when: { 'payload.tool_input.command': { regex: '\\brm\\s+-[a-z]*r|\\bsudo\\b|\\bmkfs\\b' } },
      },
      {
        id: 'h-block-destructive',
        kind: 'handler',
        name: 'Block destructive commands',
        order: 10,
        enabled: true,
        shadow: false,
        on_error: 'block',
        action: { type: 'block', reason: 'Blocked {{payload.tool_name}}: `{{payload.tool_input.command}}` is destructive' },
      },
      { id: 'ev-input', kind: 'event', pattern: 'input.received' },
      {
        id: 'm-prompt-injection',
        kind: 'matcher',
        label: 'Prompt injection',
        when: { 'payload.input': { regex: { pattern: 'ignore (all )?previous instructions', flags: 'i' } } },
      },
      {
        id: 'h-block-injection',
        kind: 'handler',
        name: 'Block prompt injection',
        order: 5,
        enabled: true,
        shadow: false,
        on_error: 'block',
        action: { type: 'block', reason: 'Possible prompt injection in the user input' },
      },
      { id: 'ev-tool-after', kind: 'event', pattern: 'tool.after_call' },
      { id: 'ev-model-after', kind: 'event', pattern: 'model.after_call' },
      {
        id: 'h-redact-secrets',
        kind: 'handler',
        name: 'Redact secrets',
        order: 20,
        enabled: true,
        shadow: false,
        on_error: 'block',
        action: { type: 'rewrite', ops: [{ op: 'redact', pattern: 'sk-[A-Za-z0-9]{16,}|AKIA[0-9A-Z]{16}', replacement: '[REDACTED]' }] },
      },
      {
        id: 'h-token-budget',
        kind: 'handler',
        name: 'Token budget',
        order: 30,
        enabled: true,
        shadow: false,
        on_error: 'block',
        action: {
          type: 'budget',
          key: 'output_tokens',
          amount_path: 'payload.usage.output_tokens',
          limit: 4000,
          on_exceed: 'block',
          reason: 'Token budget of {{state.output_tokens}} exceeded',
        },
      },
      { id: 'ev-any', kind: 'event', pattern: '*' },
      {
        id: 'h-audit-log',
        kind: 'handler',
        name: 'Audit log',
        order: 100,
        enabled: true,
        shadow: false,
        on_error: 'continue',
        action: { type: 'audit', level: 'info', fields: ['payload.tool_name'] },
      },
    ],
    wires: [
      { from: 'ev-tool-before', to: 'm-dangerous-tools' },
      { from: 'm-dangerous-tools', to: 'm-destructive-command' },
      { from: 'm-destructive-command', to: 'h-block-destructive' },
      { from: 'ev-input', to: 'm-prompt-injection' },
      { from: 'm-prompt-injection', to: 'h-block-injection' },
      { from: 'ev-tool-after', to: 'h-redact-secrets' },
      { from: 'ev-model-after', to: 'h-redact-secrets' },
      { from: 'ev-model-after', to: 'h-token-budget' },
      { from: 'ev-any', to: 'h-audit-log' },
    ],
    layout: {
      nodes: [
        // Compact, so the whole demo shows at zoom 1 (node text at 12 px) in a 1280×720 window with the side
        // panels folded (issue 34): handlers with no matcher sit right after their events.
        { id: 'ev-tool-before', x: 0, y: 0 },
        { id: 'm-dangerous-tools', x: 250, y: 0 },
        { id: 'm-destructive-command', x: 540, y: 0 },
        { id: 'h-block-destructive', x: 830, y: 0 },
        { id: 'ev-input', x: 0, y: 135 },
        { id: 'm-prompt-injection', x: 250, y: 135 },
        { id: 'h-block-injection', x: 830, y: 135 },
        { id: 'ev-tool-after', x: 0, y: 270 },
        { id: 'ev-model-after', x: 0, y: 350 },
        { id: 'h-redact-secrets', x: 250, y: 270 },
        { id: 'h-token-budget', x: 540, y: 270 },
        { id: 'ev-any', x: 0, y: 430 },
        { id: 'h-audit-log', x: 540, y: 400 },
      ],
    },
  };
}
