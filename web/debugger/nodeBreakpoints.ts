import type { PipelineNode } from '../../engine/app.ts';
import { useApp, type AppState } from '../store/appStore.ts';
import { breakpointLabel, breakpointNode, isEnabled, nodeNamer, type Breakpoint, type BreakpointSpec } from './model/breakpoints.ts';

/**
 * A node's breakpoints, as the canvas's gutter dot and F9 see them: the breakpoint store's, filtered by node
 * (no copy is kept anywhere else). A handler's default trigger is "fires", a matcher's "matches".
 */
const NONE: readonly Breakpoint[] = Object.freeze([]);
const cache = new WeakMap<readonly Breakpoint[], Map<string, readonly Breakpoint[]>>();

/** The breakpoints on node `id`, the same array while the list is the same (a stable selector result). */
export const selectNodeBreakpoints = (id: string) => (s: AppState): readonly Breakpoint[] => {
  let byNode = cache.get(s.breakpoints);
  if (!byNode) {
    byNode = new Map();
    for (const b of s.breakpoints) {
      const n = breakpointNode(b);
      if (n !== null) byNode.set(n, [...(byNode.get(n) ?? []), b]);
    }
    cache.set(s.breakpoints, byNode);
  }
  return byNode.get(id) ?? NONE;
};

/** "on", "off" (every one disabled) or "none". */
export function dotState(list: readonly Breakpoint[]): 'on' | 'off' | 'none' {
  return list.length === 0 ? 'none' : list.some(isEnabled) ? 'on' : 'off';
}

function defaultSpec(node: PipelineNode): BreakpointSpec | null {
  return node.kind === 'handler' ? { kind: 'handler', handler_id: node.id } : node.kind === 'matcher' ? { kind: 'matcher', matcher_id: node.id } : null;
}

/**
 * Toggles the breakpoints of a handler or matcher: with none, adds its default one; with some, removes them
 * all (the toast offers them back). The dot and F9 both do this. Says what it did as a toast.
 */
export function toggleNodeBreakpoints(nodeId: string): void {
  const st = useApp.getState();
  const node = st.doc?.nodes.find((n) => n.id === nodeId);
  const spec = node ? defaultSpec(node) : null;
  if (!spec) return;
  const name = nodeNamer(st.doc);
  const on = selectNodeBreakpoints(nodeId)(st);
  if (on.length === 0) {
    st.addBreakpoint(spec);
    st.toast({ tone: 'info', message: `Breakpoint added: ${breakpointLabel(spec, name)}. Shift+F9 lists them.` });
    return;
  }
  for (const b of on) st.removeBreakpoint(b.id);
  st.toast({
    tone: 'info',
    message: `Breakpoint${on.length > 1 ? 's' : ''} removed: ${on.map((b) => breakpointLabel(b, name)).join('; ')}.`,
    actionLabel: 'Undo',
    action: () => {
      for (const { id: _id, ...rest } of on) useApp.getState().addBreakpoint(rest as BreakpointSpec);
    },
  });
}
