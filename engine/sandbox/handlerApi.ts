/**
 * The handler API as a TypeScript declaration file: the one description of what code handlers and code
 * matchers see and may return [S2]-[S5]. The editor feeds it to Monaco
 * (`monaco.typescript.typescriptDefaults.addExtraLib(HANDLER_API_DTS, HANDLER_API_URI)`, with
 * `lib: HANDLER_API_LIB` so that `fetch`, `setTimeout` and the DOM are flagged as missing), and a unit test
 * type-checks example handlers against it and checks it against the sandbox's globals and result keys.
 */

/** Where Monaco keeps the declarations. */
export const HANDLER_API_URI = 'file:///hookwire/handler-api.d.ts';

/** The TypeScript `lib` that matches what the sandbox offers: the language, no DOM, no Node. */
export const HANDLER_API_LIB: readonly string[] = ['es2023'];

/** A handler to start from, shown in a new code node. */
export const HANDLER_TEMPLATE = `export default function (ctx: HandlerContext): HandlerResult | void {
  if (ctx.payload.tool_name === 'run_shell' && String(ctx.payload.tool_input?.command).includes('rm -rf')) {
    return block('rm -rf is not allowed');
  }
  log('allowed', ctx.payload.tool_name);
}
`;

/** A matcher to start from. */
export const MATCHER_TEMPLATE = `export default function (ctx: HandlerContext): boolean {
  return ctx.payload.tool_name === 'run_shell';
}
`;

export const HANDLER_API_DTS = `/**
 * Hookwire code handlers and code matchers.
 *
 * Your code is a module whose default export is a function of one argument, ctx:
 *
 *   export default function (ctx: HandlerContext): HandlerResult | void { ... }  // a handler
 *   export default function (ctx: HandlerContext): boolean { ... }              // a matcher: true passes
 *
 * It runs in a sandbox: plain JavaScript (TypeScript types are stripped), no imports, no network, no timers,
 * no DOM. It must be synchronous and deterministic: Date.now() and new Date() give ctx.now, local time is
 * UTC, Math.random() is seeded from the event id, and top-level variables start afresh on every call
 * (keep what must last in ctx.state via state_patch). Built-ins are frozen.
 */

/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The five decisions, weakest first. A decision is never downgraded by a later handler. */
type Decision =
  /** Later handlers run; the action runs. */
  | 'continue'
  /** Later handlers are skipped; the action runs. */
  | 'stop_propagation'
  /** Later handlers run (a later block still wins); then a person must approve the action, or it is blocked. */
  | 'ask'
  /** Later handlers are skipped; the action is blocked with the reason. */
  | 'block_action'
  /** Later handlers are skipped; the action is blocked; the run ends. */
  | 'terminate';

/** The event being handled (its payload is ctx.payload). */
interface HookEventInfo {
  /** Dotted event type, e.g. "tool.before_call". */
  readonly type: string;
  readonly event_id: string;
  readonly trace_id: string;
  readonly agent_id: string;
  /** ISO 8601 timestamp of the event. */
  readonly ts: string;
}

/** The event's payload, as rewritten by earlier handlers. The common fields per event type are listed. */
interface Payload {
  /** tool.before_call / tool.after_call: the tool's name. */
  tool_name?: string;
  /** tool.before_call / tool.after_call: the tool's arguments. */
  tool_input?: any;
  /** tool.after_call: what the tool returned. */
  tool_response?: any;
  /** tool.after_call: true when the tool failed. */
  is_error?: boolean;
  tool_use_id?: string;
  /** model.before_call / model.after_call: the model's name. */
  model?: string;
  /** model.before_call, prompt.built: the conversation. */
  messages?: any[];
  /** model.after_call: a string or an array of content blocks. */
  response?: any;
  /** model.after_call: token counts. */
  usage?: { input_tokens?: number; output_tokens?: number };
  stop_reason?: string;
  /** input.received: the user's prompt. */
  prompt?: string;
  /** final_answer.before / final_answer.after: the answer. */
  text?: string;
  /** agent.error: the error. */
  error?: string;
  [key: string]: any;
}

/** What your function receives. It is a copy: changing it changes nothing outside. */
interface HandlerContext {
  readonly event: HookEventInfo;
  /** The current payload (after rewrites by earlier handlers). */
  readonly payload: Payload;
  /** The trace's state, shared by the events of one trace (counters, totals). */
  readonly state: { [key: string]: any };
  /** The event's metadata (user, tenant, ...). */
  readonly meta: { [key: string]: any };
  /** The dispatch time in ms since the epoch, from the engine's clock (Date.now() returns the same). */
  readonly now: number;
}

/** What a handler returns. Returning nothing (or null) means { decision: 'continue' }. */
interface HandlerResult {
  /** Default 'continue'. */
  decision?: Decision;
  /** Shown to the agent and in the explanation when the action is blocked (or to the person asked to approve it). */
  reason?: string;
  /** Text for the model, kept with the other handlers' texts in order (EmitResult.context). */
  context?: string;
  /** A new payload for later handlers and for the action (a JSON object, at most 1,000,000 characters of JSON). */
  new_payload?: Payload;
  /** Top-level state keys to set; a null value removes the key. */
  state_patch?: { [key: string]: JsonValue };
  /** Another name for state_patch (use one of them). */
  state?: { [key: string]: JsonValue };
}

/** A handler: return a result, or nothing to continue. */
type Handler = (ctx: HandlerContext) => HandlerResult | null | undefined | void;
/** A matcher: true passes, false fails. */
type Matcher = (ctx: HandlerContext) => boolean;

/** Blocks the action: { decision: 'block_action', reason }. */
declare function block(reason: string): HandlerResult;
/** Blocks the action and ends the run: { decision: 'terminate', reason }. */
declare function terminate(reason: string): HandlerResult;
/** Lets the action run but skips later handlers: { decision: 'stop_propagation', reason }. */
declare function stop(reason?: string): HandlerResult;
/** Asks a person to approve the action (later handlers still run): { decision: 'ask', reason }. */
declare function ask(reason: string): HandlerResult;
/** Adds text for the model and continues: { decision: 'continue', context: text }. */
declare function addContext(text: string): HandlerResult;
/** Replaces the payload and continues: { decision: 'continue', new_payload: payload }. */
declare function rewrite(payload: Payload): HandlerResult;
/**
 * Writes a line to the explanation: strings as they are, other values as JSON, separated by spaces.
 * At most 100 lines of 1000 characters per call.
 */
declare function log(...values: unknown[]): void;
`;
