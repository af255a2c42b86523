// Generated recordings of any size for the import benchmark, one writer per format, shaped like the
// synthetic fixtures in test/fixtures/formats/ (and so like each format's documentation). Each writes
// line by line through `write`, so a 100 MB workload is never held by the generator.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceFormat } from '../../engine/trace/detectTraceFormat.ts';

export type Write = (text: string) => void;

const T0 = Date.UTC(2026, 2, 2, 10);
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const ns = (ms: number) => `${BigInt(T0 + ms) * 1000000n}`;
const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const sv = (s: string) => ({ stringValue: s });
const kv = (key: string, value: unknown) => ({ key, value });
const hex = (n: number, d: number) => n.toString(16).padStart(d, '0');
const OUTPUT = 'src/a.ts\nsrc/b.ts\nREADME.md\n'.repeat(6);

/**
 * A format's workload, or one of its other shapes: the older Gemini CLI `.json`, OpenHands `{"trajectory": [...]}`,
 * a Claude Code transcript without any `sessionId` (read with `--from claude-code`: detection needs one), a SWE-agent
 * trajectory with function calling (`swe-agent` is the older action-string one), an OTLP export request written as one
 * pretty value holding every span (`otlp-request`; `otlp-json` is a request of 50 spans a line).
 */
export type Workload = TraceFormat | 'gemini-cli-json' | 'openhands-trajectory' | 'claude-code-no-session' | 'swe-agent-fc' | 'otlp-request';

/** One step = one model call and one tool call (plus what the format writes around them). */
export function writeWorkload(format: Workload, steps: number, write: Write): void {
  if (format === 'gemini-cli-json') return geminiJson(steps, write);
  if (format === 'claude-code-no-session') return claude(steps, write, false);
  if (format === 'openhands-trajectory') return openhands(steps, write, 'trajectory');
  if (format === 'goose') return gooseExport(steps, write);
  if (format === 'codex-rollout') return codex(steps, write);
  if (format === 'otel-spans-jsonl') return spans(steps, write, 'jsonl');
  if (format === 'otlp-json') return spans(steps, write, 'otlp');
  if (format === 'otlp-request') return spans(steps, write, 'otlp-request');
  if (format === 'otel-console') return spans(steps, write, 'console');
  if (format === 'otel-genai') return spans(steps, write, 'any-agent');
  if (format === 'claude-code') return claude(steps, write);
  if (format === 'mini-swe-agent') return mini(steps, write);
  if (format === 'swe-agent') return swe(steps, write, false);
  if (format === 'swe-agent-fc') return swe(steps, write, true);
  if (format === 'openhands') return openhands(steps, write);
  if (format === 'gemini-cli') return gemini(steps, write);
  if (format === 'copilot-cli') return copilot(steps, write);
  if (format === 'qwen-code') return qwen(steps, write);
  if (format === 'specstory') return specstory(steps, write);
  if (format === 'aider') return aider(steps, write);
  if (format === 'cline') return cline(steps, write);
  if (format === 'cline-ui') return clineUi(steps, write);
  if (format === 'opencode') return opencode(steps, write);
  throw new Error(`no workload writer for ${format}`);
}

function codex(steps: number, write: Write): void {
  write(line({ timestamp: iso(0), type: 'session_meta', payload: { id: 'bench-session', timestamp: iso(0), cwd: '/work', originator: 'codex_cli_rs', cli_version: '0.50.0', source: 'cli' } }));
  write(line({ timestamp: iso(1), type: 'turn_context', payload: { cwd: '/work', approval_policy: 'on-request', model: 'gpt-5-codex' } }));
  write(line({ timestamp: iso(2), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look around the repository and summarise it' }] } }));
  const usage = { input_tokens: 1200, cached_input_tokens: 1000, output_tokens: 40, reasoning_output_tokens: 0, total_tokens: 1240 };
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 10;
    const call = `call_${i}`;
    write(line({ timestamp: iso(t), type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: `**Step ${i}**` }], content: null, encrypted_content: 'c3ludGhldGlj' } }));
    write(line({ timestamp: iso(t + 1), type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `grep -rn "pattern${i}" src | head -20`], workdir: '/work' }), call_id: call } }));
    write(line({ timestamp: iso(t + 2), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage, model_context_window: 272000 }, rate_limits: null } }));
    write(line({ timestamp: iso(t + 5), type: 'response_item', payload: { type: 'function_call_output', call_id: call, output: JSON.stringify({ output: OUTPUT, metadata: { exit_code: 0, duration_seconds: 0.1 } }) } }));
  }
  write(line({ timestamp: iso(steps * 10 + 20), type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'Done.' } }));
}

/** Span streams, and any-agent's `{"spans": [...], "final_output"}` (one document, its spans in end order, the root last). */
function spans(steps: number, write: Write, shape: 'jsonl' | 'otlp' | 'console' | 'any-agent' | 'otlp-request'): void {
  const trace = 'ab'.repeat(16);
  const all: unknown[] = [];
  const root = hex(1, 16);
  const otlp = (id: string, name: string, start: number, end: number, attrs: Record<string, string>) => ({
    traceId: trace, spanId: id, parentSpanId: root, name, kind: 1, startTimeUnixNano: ns(start), endTimeUnixNano: ns(end),
    attributes: Object.entries(attrs).map(([k, v]) => kv(k, sv(v))), status: {},
  });
  const py = (id: string, name: string, start: number, end: number, attrs: Record<string, string>) => ({
    name, context: { trace_id: `0x${trace}`, span_id: `0x${id}`, trace_state: '[]' }, kind: 'SpanKind.INTERNAL', parent_id: `0x${root}`,
    start_time: iso(start), end_time: iso(end), status: { status_code: 'UNSET' }, attributes: attrs, events: [], links: [], resource: { attributes: { 'service.name': 'bench' }, schema_url: '' },
  });
  const make = shape === 'console' || shape === 'any-agent' ? py : otlp;
  let written = 0;
  if (shape === 'any-agent') write('{"spans": [\n');
  // One request, pretty as JSON.stringify(request, null, 2) writes it, a span at a time.
  const request = JSON.stringify({ resourceSpans: [{ resource: { attributes: [kv('service.name', sv('bench'))] }, scopeSpans: [{ scope: { name: 'bench' }, spans: [0] }] }] }, null, 2);
  const [requestHead, requestTail] = request.split(/\n {12}0\n/) as [string, string];
  if (shape === 'otlp-request') write(`${requestHead}\n`);
  const emit = (s: unknown) => {
    if (shape === 'any-agent') write(`${written++ === 0 ? '' : ',\n'}${JSON.stringify(s)}`);
    else if (shape === 'otlp-request') write(`${written++ === 0 ? '' : ',\n'}${JSON.stringify(s, null, 2).replace(/^/gm, ' '.repeat(12))}`);
    else if (shape === 'jsonl') write(line(s));
    else if (shape === 'console') write(`${JSON.stringify(s, null, 4)}\n`);
    else {
      all.push(s);
      if (all.length === 50) flush();
    }
  };
  const flush = () => {
    if (all.length) write(line({ resourceSpans: [{ resource: { attributes: [kv('service.name', sv('bench'))] }, scopeSpans: [{ scope: { name: 'bench' }, spans: all.splice(0) }] }] }));
  };
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 10;
    const input = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `step ${i}: look for pattern${i}` }] }]);
    const output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: `call_${i}`, name: 'run_shell', arguments: { command: `grep -rn pattern${i} src` } }] }]);
    emit(make(hex(2 * i + 2, 16), 'chat m', t, t + 4, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm', 'gen_ai.input.messages': input, 'gen_ai.output.messages': output, 'gen_ai.usage.input_tokens': '1200' }));
    emit(make(hex(2 * i + 3, 16), 'execute_tool run_shell', t + 4, t + 4, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'run_shell', 'gen_ai.tool.call.id': `call_${i}`, 'gen_ai.tool.call.arguments': JSON.stringify({ command: `grep -rn pattern${i} src` }), 'gen_ai.tool.call.result': OUTPUT }));
  }
  const rootSpan = make(root, 'invoke_agent bench', 0, steps * 10 + 20, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'bench' }) as Record<string, unknown>;
  if (shape === 'console' || shape === 'any-agent') rootSpan.parent_id = null;
  else delete rootSpan.parentSpanId;
  emit(rootSpan);
  if (shape === 'otlp') flush();
  if (shape === 'otlp-request') write(`\n${requestTail}\n`);
  if (shape === 'any-agent') write('\n], "final_output": "Done."}\n');
}

function claude(steps: number, write: Write, session = true): void {
  const env = { isSidechain: false, userType: 'external', cwd: '/work', ...(session ? { sessionId: 'bench-session' } : {}), version: '2.0.40', gitBranch: 'main' };
  write(line({ ...env, parentUuid: null, type: 'user', uuid: 'u0', timestamp: iso(0), message: { role: 'user', content: 'Look around the repository' } }));
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 10;
    write(line({ ...env, parentUuid: null, type: 'assistant', uuid: `a${i}`, timestamp: iso(t), message: { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `grep -rn pattern${i} src` } }], stop_reason: 'tool_use', usage: { input_tokens: 1200, output_tokens: 40 } } }));
    write(line({ ...env, parentUuid: `a${i}`, type: 'user', uuid: `r${i}`, timestamp: iso(t + 5), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: OUTPUT, is_error: false }] }, toolUseResult: { stdout: OUTPUT, stderr: '', interrupted: false } }));
  }
}

/** Whole documents: written in pieces, still one JSON value. */
function mini(steps: number, write: Write): void {
  write(`{"info": ${JSON.stringify({ exit_status: 'Submitted', submission: 'diff', mini_version: '1.9.0', model_stats: { api_calls: steps }, config: { model: { model_name: 'm' } } })}, "messages": [`);
  write(JSON.stringify({ role: 'system', content: 'sys' }));
  write(`,${JSON.stringify({ role: 'user', content: 'Fix the bug' })}`);
  for (let i = 0; i < steps; i++) {
    write(`,${JSON.stringify({ role: 'assistant', content: `THOUGHT: step ${i}.\n\n\`\`\`bash\ngrep -rn pattern${i} src\n\`\`\`` })}`);
    write(`,${JSON.stringify({ role: 'user', content: `<returncode>0</returncode>\n<output>\n${OUTPUT}</output>` })}`);
  }
  write('], "trajectory_format": "mini-swe-agent-1"}\n');
}

/**
 * A SWE-agent `.traj`, as SWE-agent writes it: the steps, then the history they pair with, `info`, `replay_config`
 * last. The action-string format (0.x) or function calling (1.x, whose steps also carry the messages sent, `query`).
 */
function swe(steps: number, write: Write, functionCalling: boolean): void {
  const state = JSON.stringify({ open_file: 'n/a', working_dir: '/work' });
  write('{"environment": "swe_main", "trajectory": [\n');
  for (let i = 0; i < steps; i++) {
    const action = `grep -rn pattern${i} src\n`;
    const step = { action, observation: OUTPUT, response: `Step ${i}: search.\n\n\`\`\`\n${action}\`\`\``, state, thought: `Step ${i}: search.`, execution_time: 0.1 };
    const query = functionCalling ? { query: [{ role: 'user', content: OUTPUT }, { role: 'assistant', content: `Step ${i - 1}` }] } : {};
    write(`${i === 0 ? '' : ',\n'}${JSON.stringify({ ...step, ...query })}`);
  }
  write('],\n"history": [\n');
  write(JSON.stringify({ role: 'system', content: 'SETTING: a shell.\n\nCOMMANDS:\nopen:\n  docstring: opens a file\n', agent: 'primary' }));
  write(`,\n${JSON.stringify({ role: 'user', content: 'A demonstration.', agent: 'primary', is_demo: true })}`);
  write(`,\n${JSON.stringify({ role: 'user', content: 'Fix the bug.', agent: 'primary' })}`);
  for (let i = 0; i < steps; i++) {
    const command = `grep -rn pattern${i} src`;
    if (functionCalling) {
      const call = { id: `call_${i}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } };
      write(`,\n${JSON.stringify({ role: 'assistant', content: `Step ${i}: search.`, thought: `Step ${i}: search.`, action: command, agent: 'main', tool_calls: [call], message_type: 'action' })}`);
      write(`,\n${JSON.stringify({ role: 'tool', content: OUTPUT, agent: 'main', tool_call_ids: [call.id], message_type: 'observation' })}`);
    } else {
      write(`,\n${JSON.stringify({ role: 'assistant', content: `Step ${i}: search.\n\n\`\`\`\n${command}\n\`\`\``, thought: `Step ${i}: search.`, action: `${command}\n`, agent: 'primary' })}`);
      write(`,\n${JSON.stringify({ role: 'user', content: OUTPUT, agent: 'primary' })}`);
    }
  }
  write(`],\n"info": ${JSON.stringify({ exit_status: 'submitted', submission: 'diff --git a/x b/x', model_stats: { api_calls: steps, tokens_sent: steps * 1200 } })}`);
  write(`,\n"replay_config": ${JSON.stringify(JSON.stringify({ agent: { model: { name: 'gpt-4o' } }, problem_statement: { id: 'bench__bench-1' } }))}}\n`);
}

function openhands(steps: number, write: Write, key?: string): void {
  write(key ? `{${JSON.stringify(key)}: [` : '[');
  write(JSON.stringify({ id: 0, timestamp: '2026-03-02T10:00:00.000000', source: 'user', message: 'Fix it', action: 'message', args: { content: 'Fix it' } }));
  for (let i = 0; i < steps; i++) {
    const args = { command: `grep -rn pattern${i} src` };
    const tcm = { function_name: 'execute_bash', tool_call_id: `toolu_${i}`, model_response: { id: `resp_${i}`, model: 'm', choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: '', tool_calls: [{ id: `toolu_${i}`, type: 'function', function: { name: 'execute_bash', arguments: JSON.stringify(args) } }] } }], usage: { prompt_tokens: 1200, completion_tokens: 40 } } };
    write(`,${JSON.stringify({ id: 2 * i + 1, timestamp: iso(10 + i * 10).replace('Z', ''), source: 'agent', message: 'Running', action: 'run', tool_call_metadata: tcm, args })}`);
    write(`,${JSON.stringify({ id: 2 * i + 2, timestamp: iso(15 + i * 10).replace('Z', ''), source: 'agent', message: 'done', cause: 2 * i + 1, observation: 'run', content: OUTPUT, extras: { metadata: { exit_code: 0 } }, success: true })}`);
  }
  write(key ? ']}\n' : ']\n');
}

// #29's agents, shaped like their fixtures in test/fixtures/formats/.
function gemini(steps: number, write: Write): void {
  write(line({ sessionId: 'bench-session', projectHash: 'p0', startTime: iso(0), lastUpdated: iso(0), kind: 'main' }));
  write(line({ id: 'u0', timestamp: iso(1), type: 'user', content: [{ text: 'Look around the repository' }] }));
  for (let i = 0; i < steps; i++) {
    const call = { id: `call_${i}`, name: 'run_shell_command', args: { command: `grep -rn pattern${i} src` }, timestamp: iso(10 + i * 10) };
    // Gemini CLI writes a message again when its tool call ends: the last copy wins.
    write(line({ id: `g${i}`, timestamp: iso(10 + i * 10), type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: [{ ...call, status: 'executing' }] }));
    write(line({ id: `g${i}`, timestamp: iso(10 + i * 10), type: 'gemini', content: '', model: 'gemini-2.5-pro', tokens: { input: 1200, output: 40, total: 1240 }, toolCalls: [{ ...call, status: 'success', result: [{ functionResponse: { id: call.id, name: call.name, response: { output: OUTPUT } } }] }] }));
  }
}

function copilot(steps: number, write: Write): void {
  let n = 0;
  const ev = (type: string, data: unknown, t: number) => write(line({ id: `e${++n}`, timestamp: iso(t), parentId: n > 1 ? `e${n - 1}` : null, type, data }));
  ev('session.start', { sessionId: 'bench-session', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.9', startTime: iso(0) }, 0);
  ev('user.message', { content: 'Look around the repository' }, 1);
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 10;
    const args = { command: `grep -rn pattern${i} src` };
    ev('assistant.message', { messageId: `m${i}`, content: '', model: 'claude-sonnet-4.5', toolRequests: [{ toolCallId: `call_${i}`, name: 'bash', arguments: args }] }, t);
    ev('assistant.usage', { model: 'claude-sonnet-4.5', inputTokens: 1200, outputTokens: 40 }, t);
    ev('tool.execution_start', { toolCallId: `call_${i}`, toolName: 'bash', arguments: args }, t + 1);
    ev('tool.execution_complete', { toolCallId: `call_${i}`, success: true, result: { content: OUTPUT } }, t + 5);
  }
}

function qwen(steps: number, write: Write): void {
  const env = { sessionId: 'bench-session', cwd: '/work', version: '0.9.1' };
  write(line({ ...env, uuid: 'u0', parentUuid: null, timestamp: iso(0), type: 'user', message: { role: 'user', parts: [{ text: 'Look around the repository' }] } }));
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 10;
    write(line({ ...env, uuid: `a${i}`, parentUuid: null, timestamp: iso(t), type: 'assistant', model: 'qwen3-coder-plus', usageMetadata: { promptTokenCount: 1200, candidatesTokenCount: 40 }, message: { role: 'model', parts: [{ functionCall: { id: `call_${i}`, name: 'run_shell_command', args: { command: `grep -rn pattern${i} src` } } }] } }));
    write(line({ ...env, uuid: `r${i}`, parentUuid: `a${i}`, timestamp: iso(t + 5), type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: `call_${i}`, name: 'run_shell_command', response: { output: OUTPUT } } }] }, toolCallResult: { callId: `call_${i}`, status: 'success' } }));
  }
}

function specstory(steps: number, write: Write): void {
  const stamp = (ms: number) => `${iso(ms).slice(0, 19).replace('T', ' ')}Z`;
  write(`<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# ${stamp(0)}\n\n<!-- Cursor Session bench-session (${stamp(0)}) -->\n\n_**User (${stamp(0)})**_\n\nLook around the repository\n\n---\n\n`);
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 10;
    write(`_**Agent (claude-4-sonnet ${stamp(t)})**_\n\n<tool-use data-tool-type="shell" data-tool-name="run_terminal_cmd"><details><summary>Tool use: **run_terminal_cmd** • Run command: grep -rn pattern${i} src</summary>\n\n\`\`\`bash\ngrep -rn pattern${i} src\n\`\`\`\n\n\`\`\`\n${OUTPUT}\`\`\`\n</details></tool-use>\n\n`);
  }
}

function aider(steps: number, write: Write): void {
  write('\n# aider chat started at 2026-03-02 10:00:00\n\n> Main model: anthropic/claude-sonnet-4-5 with diff edit format  \n\n#### Look around the repository  \n\n');
  for (let i = 0; i < steps; i++) {
    write(`Step ${i}: change the pattern.\n\nsrc/a.ts\n\`\`\`ts\n<<<<<<< SEARCH\nconst p = "pattern${i}";\n=======\nconst p = "pattern${i + 1}";\n>>>>>>> REPLACE\n\`\`\`\n\n> Tokens: 1.2k sent, 40 received. Cost: $0.01 message, $0.02 session.  \n> Applied edit to src/a.ts  \n\n> Running grep -rn pattern${i} src  \n${OUTPUT.split('\n').filter((l) => l !== '').map((l) => `> ${l}  \n`).join('')}\n#### go on  \n\n`);
  }
}

function cline(steps: number, write: Write): void {
  write(`[${JSON.stringify({ role: 'user', content: [{ type: 'text', text: '<task>\nLook around the repository\n</task>' }], ts: T0 })}`);
  for (let i = 0; i < steps; i++) {
    write(`,${JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'execute_command', input: { command: `grep -rn pattern${i} src` } }], ts: T0 + 10 + i * 10, modelInfo: { modelId: 'claude-sonnet-4-5' } })}`);
    write(`,${JSON.stringify({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: OUTPUT }], ts: T0 + 15 + i * 10 })}`);
  }
  write(']\n');
}

function clineUi(steps: number, write: Write): void {
  write(`[${JSON.stringify({ ts: T0, type: 'say', say: 'task', text: 'Look around the repository' })}`);
  for (let i = 0; i < steps; i++) {
    const t = T0 + 10 + i * 10;
    write(`,${JSON.stringify({ ts: t, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: '...', tokensIn: 1200, tokensOut: 40, cacheReads: 1000, cacheWrites: 0, cost: 0.01 }) })}`);
    write(`,${JSON.stringify({ ts: t + 1, type: 'ask', ask: 'command', text: `grep -rn pattern${i} src` })}`);
    write(`,${JSON.stringify({ ts: t + 5, type: 'ask', ask: 'command_output', text: OUTPUT })}`);
  }
  write(']\n');
}

function opencode(steps: number, write: Write): void {
  const [info, ...messages] = opencodeSession(steps);
  write(`{"info": ${JSON.stringify(info)}, "messages": [`);
  let sep = '';
  for (const m of messages) {
    write(`${sep}${JSON.stringify(m)}`);
    sep = ',';
  }
  write(']}\n');
}

/** The session's info, then its messages (`{info, parts}`), made as they are taken. */
function* opencodeSession(steps: number): Generator<{ info: Record<string, unknown>; parts: Record<string, unknown>[] } | Record<string, unknown>> {
  yield { id: 'ses_bench', projectID: 'p', directory: '/work', title: 'bench', version: '1.1.20', time: { created: T0, updated: T0 } };
  yield { info: { id: 'msg_0', sessionID: 'ses_bench', role: 'user', time: { created: T0 + 1 }, agent: 'build', model: { providerID: 'anthropic', modelID: 'm' } }, parts: [{ id: 'prt_u', type: 'text', text: 'Look around the repository' }] };
  for (let i = 0; i < steps; i++) {
    const t = T0 + 10 + i * 10;
    const parts = [{ id: `p${i}a`, type: 'step-start' }, { id: `p${i}b`, type: 'tool', callID: `call_${i}`, tool: 'bash', state: { status: 'completed', input: { command: `grep -rn pattern${i} src` }, output: OUTPUT, title: 'grep', metadata: { exit: 0 }, time: { start: t, end: t + 5 } } }, { id: `p${i}c`, type: 'step-finish', reason: 'tool-calls', cost: 0, tokens: { input: 1200, output: 40, reasoning: 0, cache: { read: 0, write: 0 } } }];
    yield { info: { id: `msg_${String(i).padStart(8, '0')}`, sessionID: 'ses_bench', role: 'assistant', time: { created: t, completed: t + 6 }, parentID: 'msg_0', modelID: 'm', providerID: 'anthropic', mode: 'build', agent: 'build', path: { cwd: '/work', root: '/work' }, cost: 0, tokens: { input: 1200, output: 40, reasoning: 0, cache: { read: 0, write: 0 } } }, parts };
  }
}

/**
 * OpenCode's older on-disk storage of the same session under `root` (storage/session/<project>/<id>.json,
 * storage/message/<id>/<message id>.json, storage/part/<message id>/<part id>.json); returns the session file
 * (what `hookwire import` is given) and the bytes written.
 */
export function writeOpenCodeStorage(steps: number, root: string): { file: string; bytes: number } {
  const storage = join(root, 'storage');
  const [info, ...messages] = opencodeSession(steps) as unknown as [Record<string, unknown>, ...{ info: Record<string, unknown>; parts: Record<string, unknown>[] }[]];
  let bytes = 0;
  const put = (dir: string, name: string, value: unknown) => {
    const text = JSON.stringify(value);
    writeFileSync(join(dir, `${name}.json`), text);
    bytes += text.length;
  };
  const sessionDir = join(storage, 'session', 'p');
  const messageDir = join(storage, 'message', 'ses_bench');
  mkdirSync(sessionDir, { recursive: true });
  mkdirSync(messageDir, { recursive: true });
  put(sessionDir, 'ses_bench', info);
  for (const m of messages) {
    const id = m.info.id as string;
    put(messageDir, id, m.info);
    const partDir = join(storage, 'part', id);
    mkdirSync(partDir, { recursive: true });
    for (const part of m.parts) put(partDir, part.id as string, part);
  }
  return { file: join(sessionDir, 'ses_bench.json'), bytes };
}

/** The older Gemini CLI `session-*.json`: one document, its messages under `messages`. */
function geminiJson(steps: number, write: Write): void {
  write(`{"sessionId": "bench-session", "projectHash": "p0", "startTime": "${iso(0)}", "lastUpdated": "${iso(steps * 10 + 20)}", "messages": [`);
  write(JSON.stringify({ id: 'u0', timestamp: iso(1), type: 'user', content: 'Look around the repository' }));
  for (let i = 0; i < steps; i++) {
    const call = { id: `call_${i}`, name: 'run_shell_command', args: { command: `grep -rn pattern${i} src` }, timestamp: iso(10 + i * 10), status: 'success', result: [{ functionResponse: { id: `call_${i}`, name: 'run_shell_command', response: { output: OUTPUT } } }] };
    write(`,${JSON.stringify({ id: `g${i}`, timestamp: iso(10 + i * 10), type: 'gemini', content: '', model: 'gemini-2.5-pro', tokens: { input: 1200, output: 40, total: 1240 }, toolCalls: [call] })}`);
  }
  write(']}\n');
}

/** `goose session export`: the session's fields, then its messages under `conversation` (test/fixtures/formats/goose-export.json). */
function gooseExport(steps: number, write: Write): void {
  const session = { id: '20260302_1', working_dir: '/work', name: 'bench', user_set_name: false, session_type: 'user', created_at: iso(0), updated_at: iso(steps * 10), extension_data: {}, total_tokens: 1240 * steps, input_tokens: 1200 * steps, output_tokens: 40 * steps, schedule_id: null, recipe: null, user_recipe_values: null, provider_name: 'anthropic', model_config: { model_name: 'm', context_limit: 200000 } };
  const meta = { userVisible: true, agentVisible: true };
  write(`${JSON.stringify(session).slice(0, -1)}, "conversation": [`);
  write(JSON.stringify({ id: null, role: 'user', created: T0 / 1000, content: [{ type: 'text', text: 'Look around the repository' }], metadata: meta }));
  for (let i = 0; i < steps; i++) {
    const t = T0 / 1000 + 10 + i * 10;
    write(`,${JSON.stringify({ id: null, role: 'assistant', created: t, content: [{ type: 'toolRequest', id: `call_${i}`, toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: `grep -rn pattern${i} src` } } } }], metadata: meta })}`);
    write(`,${JSON.stringify({ id: null, role: 'user', created: t + 5, content: [{ type: 'toolResponse', id: `call_${i}`, toolResult: { status: 'success', value: { content: [{ type: 'text', text: OUTPUT }], isError: false } } }], metadata: meta })}`);
  }
  write(`], "message_count": ${2 * steps + 1}}\n`);
}

/**
 * Cursor's global store (`state.vscdb`, table `cursorDiskKV`) holding one composer of `steps` steps, each a prompt,
 * an answer with a terminal call and its output, and a closing text (rows `composerData:c-bench` and
 * `bubbleId:c-bench:<id>`, as test/engine/node/cursorStore.test.ts makes them); written to `path` with sql.js.
 * Returns the database's bytes. `hookwire import <path>#c-bench` reads it.
 */
export async function writeCursorStore(steps: number, path: string): Promise<number> {
  const { default: initSqlJs } = await import('sql.js');
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  const headers: { bubbleId: string; type: number }[] = [];
  db.run('BEGIN');
  const put = (key: string, value: unknown) => db.run('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)', [key, JSON.stringify(value)]);
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 10;
    put(`bubbleId:c-bench:u${i}`, { _v: 3, type: 1, bubbleId: `u${i}`, text: `Find where pattern${i} is used`, createdAt: iso(t), requestId: `r${i}` });
    put(`bubbleId:c-bench:t${i}`, { _v: 3, type: 2, bubbleId: `t${i}`, text: '', tokenCount: { inputTokens: 1200, outputTokens: 40 }, toolFormerData: { name: 'run_terminal_cmd', toolCallId: `call_${i}`, status: 'completed', params: JSON.stringify({ command: `grep -rn pattern${i} src`, is_background: false }), result: JSON.stringify({ output: OUTPUT, exitCode: 0 }) } });
    put(`bubbleId:c-bench:a${i}`, { _v: 3, type: 2, bubbleId: `a${i}`, text: `pattern${i} is used in src/a.ts and src/b.ts.`, createdAt: iso(t + 5), tokenCount: { inputTokens: 1300, outputTokens: 30 } });
    headers.push({ bubbleId: `u${i}`, type: 1 }, { bubbleId: `t${i}`, type: 2 }, { bubbleId: `a${i}`, type: 2 });
  }
  put('composerData:c-bench', { _v: 10, composerId: 'c-bench', name: 'bench', createdAt: T0, lastUpdatedAt: T0 + steps * 10, status: 'completed', unifiedMode: 'agent', modelConfig: { modelName: 'claude-4-sonnet' }, fullConversationHeadersOnly: headers });
  db.run('COMMIT');
  const bytes = db.export();
  db.close();
  writeFileSync(path, bytes);
  return bytes.length;
}
