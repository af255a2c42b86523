import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { traceProblem } from '../traceProblem.ts';
import type { ElementImporter, ImporterOptions, ImportResult } from './importReport.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { importKeyed, type KeyedImporter } from './keyedImporter.ts';
import { toIsoTs } from './toIsoTs.ts';
import { openHandsModelCall, openHandsTextCall, openHandsToolInput } from './openHandsModel.ts';

/** Action kinds that run something in the environment: tool calls even without tool_call_metadata. */
const TOOL_ACTIONS = new Set(['run', 'run_ipython', 'edit', 'read', 'write', 'browse', 'browse_interactive', 'delegate', 'think', 'mcp']);
const ANNOTATED = new Set(['change_agent_state', 'system', 'recall', 'condensation']);

/**
 * OpenHands event stream (a JSON array, or `{"trajectory": [...]}`) → trace v1. Rules [I7]. Event ids are
 * `oh:<event id>:<role>`; timestamps without a zone are read as UTC (noted in the report).
 *
 * | source event                                        | event(s)                                  | payload                                         |
 * |-----------------------------------------------------|-------------------------------------------|-------------------------------------------------|
 * | (first event)                                       | agent.start [synth]                       | first_event_id                                  |
 * | source user, action message                         | input.received                            | prompt = args.content, image_urls               |
 * | first action of a tool_call_metadata.model_response | model.before_call + model.after_call      | model, response_id; response blocks (text,      |
 * |                                                     |                                           | tool_use), usage, stop_reason                   |
 * | agent message without tool_call_metadata (a text    | model.before_call + model.after_call      | response_id (the event's, else llm_metrics'),   |
 * |   reply), unless its response id was seen           |                                           | response [text], usage from llm_metrics         |
 * | action run/edit/read/… or any with tool metadata    | tool.before_call                          | tool_name = function_name (else the action),    |
 * |                                                     |                                           | tool_input = the call's arguments (else args)   |
 * | observation whose `cause` is that action            | tool.after_call                           | tool_response = content, extras, is_error       |
 * | source agent, action message / finish               | final_answer.before + final_answer.after  | text (finish: tool_name "finish", tool_input)   |
 * | agent_state_changed → error; error observation      | agent.error                               | error                                           |
 * | change_agent_state, agent_state_changed, system,    | annotation (meta.annotations)             |                                                 |
 * |   recall                                            |                                           |                                                 |
 * | null observation                                    | skipped (counted)                         |                                                 |
 * | (end)                                               | agent.end [synth]                         | status = the last agent_state                   |
 */
export function importOpenHands(doc: unknown, options: ImporterOptions = {}): ImportResult {
  if (!Array.isArray(doc)) return importKeyed(doc, openHandsTrajectoryImporter(options));
  const imp = openHandsImporter(options);
  doc.forEach((ev, i) => imp.record(ev, i + 1));
  return imp.finish(doc.length);
}

/** `{"trajectory": [...]}`, fed as it streams [I1]: the events of `trajectory`, one at a time; no other member is read. */
export function openHandsTrajectoryImporter(options: ImporterOptions, onEvent?: (event: TraceEvent) => void): KeyedImporter {
  const imp = openHandsImporter(options, onEvent);
  return {
    arrays: new Set(['trajectory']),
    needs: [],
    begin() {},
    element: (_key, ev, index) => imp.record(ev, index),
    finish(_shell, arrays) {
      const n = arrays.get('trajectory');
      if (n === undefined) return { ok: false, problem: traceProblem('bad_source', 0, 'expected an OpenHands event stream: a JSON array of events (or {"trajectory": [...]})', 'error', true) };
      return imp.finish(n);
    },
  };
}

/**
 * The same, one event at a time, as the array streams from the file [I1]; with `onEvent` the events are handed
 * over, not kept. Memory follows the actions still waiting for their observation.
 */
export function openHandsImporter(options: ImporterOptions, onEvent?: (event: TraceEvent) => void): ElementImporter {
  const b = new TraceBuilder('openhands', 'oh', options.fallbackTraceId ?? 'openhands', 'openhands', options.ids);
  if (onEvent) b.streamTo(onEvent);
  const tools = new Map<string, JsonObject>();
  const seenResponses = new Set<string>();
  const answered = new Set<string>();
  let state: string | null = null;
  let lastTs: string | null = null;
  let objects = 0;
  let others = 0;
  return {
    record(ev) {
      if (!isJsonObject(ev)) {
        others++;
        return;
      }
      objects++;
      const t = toIsoTs(ev.timestamp);
      if (t?.naive) b.note('timestamps have no time zone and were read as UTC');
      const ts = t?.iso ?? null;
      if (ts) lastTs = ts;
      const id = String(ev.id ?? b.count);
      if (b.count === 0) b.emit('agent.start', 'start', ts, { first_event_id: ev.id ?? null, synthesised: true });
      if (typeof ev.action === 'string') onAction(b, ev, ev.action, id, ts, { tools, seenResponses });
      else if (typeof ev.observation === 'string') state = onObservation(b, ev, ev.observation, id, ts, tools, answered) ?? state;
      else b.unknown('(neither action nor observation)');
    },
    finish(records) {
      if (others > 0) b.unknown('(event not an object)');
      for (const [id, p] of tools) if (!answered.has(id)) b.warn(`action ${id} (${String(p.tool_name)}) has no observation`);
      if (objects > 0) b.emit('agent.end', 'end', lastTs, { status: state ?? 'unknown', synthesised: true });
      const source: JsonObject = { kind: 'openhands' };
      if (options.fileName) source.file_name = options.fileName;
      return b.finish(source as JsonObject & { kind: string }, records);
    },
  };
}

interface ActionCtx {
  tools: Map<string, JsonObject>;
  seenResponses: Set<string>;
}

function onAction(b: TraceBuilder, ev: JsonObject, kind: string, id: string, ts: string | null, c: ActionCtx): void {
  const args = isJsonObject(ev.args) ? ev.args : {};
  const tcm = isJsonObject(ev.tool_call_metadata) ? ev.tool_call_metadata : null;
  if (kind === 'message' && ev.source === 'user') {
    b.emit('input.received', `${id}:input`, ts, { prompt: String(args.content ?? ev.message ?? ''), image_urls: (args.image_urls as JsonValue | undefined) ?? null });
    return;
  }
  if (ANNOTATED.has(kind)) {
    b.annotate(`action:${kind}`, { id: ev.id ?? null, args });
    return;
  }
  const isTool = TOOL_ACTIONS.has(kind) || (tcm !== null && kind !== 'message' && kind !== 'finish');
  if (!isTool && kind !== 'message' && kind !== 'finish') {
    b.unknown(`action:${kind}`);
    return;
  }
  if (tcm) openHandsModelCall(b, tcm, ts, c.seenResponses);
  // A text-only agent reply has no tool metadata but still comes from a model call (OpenHands builds it
  // from the response and stamps it with the response id): it is one, unless its response was seen.
  else if (kind === 'message') openHandsTextCall(b, ev, id, ts, c.seenResponses);
  if (kind === 'message' || kind === 'finish') {
    const text = String(args.content ?? args.final_thought ?? args.thought ?? ev.message ?? '');
    const p: JsonObject = { text };
    if (kind === 'finish') Object.assign(p, { tool_name: 'finish', tool_input: (args.outputs as JsonValue | undefined) ?? {} });
    b.finalAnswer(id, ts, p);
    return;
  }
  const p: JsonObject = {
    tool_name: typeof tcm?.function_name === 'string' ? tcm.function_name : kind,
    tool_input: openHandsToolInput(tcm, args),
    tool_use_id: typeof tcm?.tool_call_id === 'string' ? tcm.tool_call_id : `action-${id}`,
    action: kind,
  };
  c.tools.set(id, p);
  b.emit('tool.before_call', `${id}:tool.before`, ts, p);
}

/** Returns the agent state an agent_state_changed observation sets, if any. */
function onObservation(b: TraceBuilder, ev: JsonObject, kind: string, id: string, ts: string | null, tools: Map<string, JsonObject>, answered: Set<string>): string | undefined {
  const extras = isJsonObject(ev.extras) ? ev.extras : {};
  const cause = ev.cause === undefined || ev.cause === null ? null : String(ev.cause);
  const call = cause !== null ? tools.get(cause) : undefined;
  if (call && cause !== null) {
    answered.add(cause);
    const isError = ev.success === false || kind === 'error';
    b.emit('tool.after_call', `${id}:tool.after`, ts, {
      tool_name: call.tool_name as JsonValue,
      tool_input: call.tool_input as JsonValue,
      tool_response: (ev.content as JsonValue | undefined) ?? null,
      is_error: isError,
      tool_use_id: call.tool_use_id as JsonValue,
      observation: kind,
      extras,
    });
    return undefined;
  }
  if (kind === 'agent_state_changed') {
    const state = String(extras.agent_state ?? '');
    b.annotate('observation:agent_state_changed', { id: ev.id ?? null, agent_state: state });
    if (state === 'error') b.emit('agent.error', `${id}:error`, ts, { error: String(extras.reason ?? ev.content ?? ev.message ?? 'agent state error') });
    return state;
  }
  if (kind === 'error') b.emit('agent.error', `${id}:error`, ts, { error: String(ev.content ?? ev.message ?? 'error') });
  else if (kind === 'null') b.skip('observation:null');
  else if (kind === 'recall') b.annotate('observation:recall', { id: ev.id ?? null, extras });
  else b.unknown(`observation:${kind}`);
  return undefined;
}
