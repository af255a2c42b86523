import { useApp, selectMode } from '../store/appStore.ts';
import { dotState, selectNodeBreakpoints, toggleNodeBreakpoints } from '../debugger/nodeBreakpoints.ts';
import { breakpointLabel, nodeNamer } from '../debugger/model/breakpoints.ts';

/**
 * A handler's or matcher's breakpoint dot in Debug mode, as in an IDE's gutter: filled red while one of its
 * breakpoints is enabled, a ring when all are disabled, a faint ring on hover or selection when it has none.
 * Clicking it (or F9 on the selected node) toggles them (nodeBreakpoints.ts). It renders the breakpoint store,
 * nothing else. `nodrag nopan`: a click here is the dot's, not a drag or a selection of the node.
 */
export function BreakpointDot({ id, name }: { id: string; name: string }) {
  const list = useApp(selectNodeBreakpoints(id));
  const mode = useApp(selectMode);
  const doc = useApp((s) => s.doc);
  if (mode !== 'debug') return null;
  const state = dotState(list);
  const title = state === 'none'
    ? `Add a breakpoint on “${name}” (F9)`
    : `${list.map((b) => `${breakpointLabel(b, nodeNamer(doc))}${b.enabled === false ? ' (disabled)' : ''}`).join('\n')}\nClick or F9 removes ${list.length > 1 ? 'them' : 'it'}`;
  return (
    <button type="button" className={`bp-dot nodrag nopan ${state}`} data-testid="node-breakpoint-dot" data-state={state}
      aria-pressed={state !== 'none'} aria-label={`Breakpoint on “${name}”`} title={title} aria-keyshortcuts="F9"
      onClick={(e) => {
        e.stopPropagation();
        toggleNodeBreakpoints(id);
      }}
      onDoubleClick={(e) => e.stopPropagation()} />
  );
}
