import { useMemo } from 'react';
import { AGENT_CONTRACTS, type AgentId, type LossItem, lossReport, type Pipeline } from '../../engine/app.ts';
import { useApp, selectAgentMarks, selectDoc } from '../store/appStore.ts';
import { Icon } from '../ui/Icon.tsx';

/*
 * The canvas marks of "Export for agent" [AG6]: the engine's loss report for the agent picked there, by node.
 * The canvas shows each line on its node; the canvas bar says which agent is marked and takes the marks away.
 */

// The node marks and the bar's count read one report per document and agent (documents are immutable).
const reports = new WeakMap<Pipeline, Map<AgentId, LossItem[]>>();

function losses(doc: Pipeline, agent: AgentId): LossItem[] {
  const byAgent = reports.get(doc) ?? new Map<AgentId, LossItem[]>();
  reports.set(doc, byAgent);
  let items = byAgent.get(agent);
  if (!items) {
    items = lossReport(doc, AGENT_CONTRACTS.get(agent)!);
    byAgent.set(agent, items);
  }
  return items;
}

/** The loss report lines of the marked agent, per node id; undefined when no agent is marked (or `off`). */
export function useAgentMarks(off: boolean): ReadonlyMap<string, readonly string[]> | undefined {
  const doc = useApp(selectDoc);
  const agent = useApp(selectAgentMarks);
  return useMemo(() => {
    if (off || !doc || !agent) return undefined;
    const out = new Map<string, string[]>();
    for (const l of losses(doc, agent)) if (l.node !== null) out.set(l.node, [...(out.get(l.node) ?? []), l.text]);
    return out;
  }, [off, doc, agent]);
}

/** In the canvas bar while an agent is marked: which one, how much is lost, and a button that clears the marks. */
export function AgentMarksChip() {
  const doc = useApp(selectDoc);
  const agent = useApp(selectAgentMarks);
  const markAgent = useApp((s) => s.markAgent);
  if (!doc || !agent) return null;
  const n = losses(doc, agent).length;
  const name = AGENT_CONTRACTS.get(agent)!.name;
  return (
    <span className={`agent-marks-chip${n ? ' lossy' : ''}`} data-testid="agent-marks-chip">
      <Icon name={n ? 'warning' : 'event'} size={12} />
      {n ? `${n} loss${n === 1 ? '' : 'es'} on ${name} marked` : `Nothing lost on ${name}`}
      <button className="btn ghost icon" onClick={() => markAgent(null)} aria-label={`Clear the ${name} marks`} title="Clear the marks" data-testid="agent-marks-clear">
        <Icon name="close" size={12} />
      </button>
    </span>
  );
}
