import type { Explanation, HandlerExplain, PathExplain } from '../../../engine/app.ts';
import { edgeId } from '../../model/pipelineToFlow.ts';

/**
 * Canvas classes for one step: the path the event took, read from the engine's Explanation [X1][X2] — the
 * event nodes whose pattern selected it, the matchers that passed and the one that failed, the handlers
 * that fired, and the one that decided. Nothing is evaluated here; the explanation says it all.
 */
export interface Highlight {
  nodeClasses: Map<string, string>;
  edgeClasses: Map<string, string>;
  /**
   * The node the canvas keeps in view when the lit path does not fit: for the "why didn't it fire?" handler,
   * the matcher that failed on its path (the reason its answer names), else that handler; else the one that
   * decided, else the first that changed something (payload, state, context for the model), else the first
   * matcher that failed, else the first handler that fired (so a step whose only handler continued still shows
   * it, not only its event). Null when none of these is on the step.
   */
  anchor: string | null;
  /** The anchor and what it explains (a failed matcher and the handler behind it): kept in view together when they fit. */
  anchorGroup: string[];
}

export interface HighlightOptions {
  /**
   * The "why didn't it fire?" handler: it and the nodes on its paths get an outline (`dbg-focus`); every
   * other path keeps its colours, so what did fire stays in view.
   */
  focus?: string | null;
}

const HANDLER_CLASS: Record<HandlerExplain['status'], string> = {
  fired: 'dbg-fired',
  error: 'dbg-error',
  not_matched: 'dbg-missed',
  not_reached: 'dbg-skipped',
  breaker_open: 'dbg-skipped',
  wrong_event_type: 'dbg-dim',
  disabled: 'dbg-dim',
};

/** Edge classes, strongest last: an edge on several paths shows the strongest. */
const EDGE_RANK = ['dbg-edge-fail', 'dbg-edge-pass', 'dbg-edge-decider'];

export function pathHighlight(explanation: Explanation | null, nodeIds: readonly string[], options: HighlightOptions = {}): Highlight {
  const nodes = new Map<string, string[]>();
  const edges = new Map<string, string>();
  const add = (id: string, cls: string) => {
    const list = nodes.get(id);
    if (!list) nodes.set(id, [cls]);
    else if (!list.includes(cls)) list.push(cls);
  };
  const addEdge = (from: string, to: string, cls: string) => {
    const id = edgeId({ from, to });
    const old = edges.get(id);
    if (!old || EDGE_RANK.indexOf(cls) > EDGE_RANK.indexOf(old)) edges.set(id, cls);
  };
  const focused = new Set<string>();
  let effect: string | null = null;
  let fired: string | null = null;
  // The first matcher that failed and the handler behind it; the picked handler's failed matcher, and whether it ran.
  let firstFail: string | null = null;
  let firstFailHandler: string | null = null;
  let focusFail: string | null = null;
  let focusRan = false;
  for (const h of explanation?.handlers ?? []) {
    const decider = explanation!.decided_by === h.handler_id;
    if (h.status === 'fired') fired ??= h.handler_id;
    if (h.status === 'fired' && (h.patch?.length || h.state_changes?.length || h.context !== undefined)) effect ??= h.handler_id;
    add(h.handler_id, HANDLER_CLASS[h.status]);
    if (decider) add(h.handler_id, 'dbg-decider');
    for (const p of h.paths) {
      if (!p.type_matched) continue;
      const failed = markPath(p, h, decider, add, addEdge);
      if (failed === null) continue;
      if (firstFail === null) [firstFail, firstFailHandler] = [failed, h.handler_id];
      if (options.focus === h.handler_id) focusFail ??= failed;
    }
    if (options.focus === h.handler_id) {
      focusRan = h.status === 'fired' || h.status === 'error';
      focused.add(h.handler_id);
      for (const p of h.paths) if (p.type_matched) for (const id of p.nodes) focused.add(id);
    }
  }
  for (const id of focused) add(id, 'dbg-focus');
  const nodeClasses = new Map<string, string>();
  for (const id of nodeIds) {
    const list = nodes.get(id);
    nodeClasses.set(id, list ? list.join(' ') : 'dbg-dim');
  }
  const decidedBy = explanation?.decided_by ?? null;
  const focus = options.focus ?? null;
  const [anchor, anchorGroup]: [string | null, string[]] =
    focus !== null ? (focusFail !== null && !focusRan ? [focusFail, [focusFail, focus]] : [focus, [focus]])
    : decidedBy !== null ? [decidedBy, [decidedBy]]
    : effect !== null ? [effect, [effect]]
    : firstFail !== null && firstFailHandler !== null ? [firstFail, [firstFail, firstFailHandler]]
    : fired !== null ? [fired, [fired]]
    : [null, []];
  return { nodeClasses, edgeClasses: edges, anchor, anchorGroup };
}

/**
 * Marks one path whose event type matched: each matcher up to the first that failed, and the wires between.
 * Returns the matcher that failed, if one did.
 */
function markPath(
  p: PathExplain, h: HandlerExplain, decider: boolean,
  add: (id: string, cls: string) => void, addEdge: (from: string, to: string, cls: string) => void,
): string | null {
  add(p.event_node_id, 'dbg-event');
  const verdict = new Map(p.matchers.map((m) => [m.matcher_id, m.pass]));
  for (let k = 1; k < p.nodes.length; k++) {
    const from = p.nodes[k - 1]!;
    const to = p.nodes[k]!;
    if (to === h.handler_id) {
      const ran = h.status === 'fired' || h.status === 'error';
      if (p.pass && ran) addEdge(from, to, decider ? 'dbg-edge-decider' : 'dbg-edge-pass');
      return null;
    }
    const pass = verdict.get(to);
    if (pass === undefined) return null; // not evaluated on this path
    add(to, pass ? 'dbg-pass' : 'dbg-fail');
    addEdge(from, to, pass ? 'dbg-edge-pass' : 'dbg-edge-fail');
    if (!pass) return to;
  }
  return null;
}
