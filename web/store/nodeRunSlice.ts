import type { StateCreator } from 'zustand';
import type { HookEvent, Pipeline } from '../../engine/app.ts';
import type { NodeRunOutcome } from '../sandbox/workerProtocol.ts';
import { samplePayload } from '../model/sampleEvents.ts';
import type { AppState } from './appStore.ts';

/**
 * "Run node" (issue 34, as in n8n and Node-RED): the sample event the editor runs a node on, and each node's
 * last run, which the canvas shows beside the node and the inspector in full. The runs themselves are the
 * engine's (`runNode` [X7], in the sandbox worker: services/nodeRunner.ts).
 */
export interface SampleChoice {
  type: string;
  /** The payload as the person typed it (JSON text: parsed when the node runs). */
  payloadText: string;
  /** The trace state before the event, as JSON text. */
  stateText: string;
  /** The trace step the sample came from (its event, 0-based index), or null for a typed sample. */
  step: { index: number; event: HookEvent } | null;
  /** The inspector shows the sample's fields (kept from node to node). */
  open: boolean;
}

export interface NodeRunEntry {
  pipelineId: string;
  /** The document the node ran in: a later edit makes the result stale (the card says so). */
  doc: Pipeline;
  /** What the node ran on, for people: "step 3 · tool.before_call" or "a sample tool.before_call". */
  sample: string;
  /** Numbers runs, so a slow answer never overwrites a newer run's. */
  n: number;
  outcome: NodeRunOutcome | null;
}

export interface NodeRunData {
  sample: SampleChoice;
  nodeRuns: ReadonlyMap<string, NodeRunEntry>;
}

export interface NodeRunActions {
  setSample(patch: Partial<SampleChoice>): void;
  nodeRunStarted(nodeId: string, entry: NodeRunEntry): void;
  nodeRunFinished(nodeId: string, n: number, outcome: NodeRunOutcome): void;
  dismissNodeRun(nodeId: string): void;
}

export type NodeRunSlice = NodeRunData & NodeRunActions;

const FIRST_TYPE = 'tool.before_call';

export const createNodeRunSlice: StateCreator<AppState, [], [], NodeRunSlice> = (set, get) => ({
  sample: { type: FIRST_TYPE, payloadText: JSON.stringify(samplePayload(FIRST_TYPE), null, 2), stateText: '{}', step: null, open: false },
  nodeRuns: new Map(),
  setSample: (patch) => set({ sample: { ...get().sample, ...patch } }),
  nodeRunStarted: (nodeId, entry) => set({ nodeRuns: new Map(get().nodeRuns).set(nodeId, entry) }),
  nodeRunFinished: (nodeId, n, outcome) => {
    const entry = get().nodeRuns.get(nodeId);
    if (!entry || entry.n !== n) return;
    set({ nodeRuns: new Map(get().nodeRuns).set(nodeId, { ...entry, outcome }) });
  },
  dismissNodeRun: (nodeId) => {
    if (!get().nodeRuns.has(nodeId)) return;
    const next = new Map(get().nodeRuns);
    next.delete(nodeId);
    set({ nodeRuns: next });
  },
});

export const selectSample = (s: AppState) => s.sample;
/** The open pipeline's last run of a node (runs of another pipeline's node of the same id do not show). */
export const selectNodeRun = (id: string) => (s: AppState): NodeRunEntry | undefined => {
  const r = s.nodeRuns.get(id);
  return r && r.pipelineId === s.pipelineId ? r : undefined;
};
