import type { StateCreator } from 'zustand';
import type { HookEvent, JsonObject, Pipeline } from '../../engine/app.ts';
import type { NodeRunOutcome } from '../sandbox/workerProtocol.ts';
import { samplePayload } from '../model/sampleEvents.ts';
import type { AppState } from './appStore.ts';

/**
 * "Run node" (issue 34, as in n8n and Node-RED): the event the editor runs a node on — the debugger's selected
 * step, or one typed in the panel — and each node's last run, which the canvas shows beside the node and the
 * inspector in full. The runs themselves are the engine's (`runNode` [X7]: services/nodeRunner.ts).
 */
export interface SampleChoice {
  /** 'step': the debugger's selected step, whenever a trace is open and replayed (else the typed event runs). */
  source: 'step' | 'typed';
  type: string;
  /** The payload as the person typed it (JSON text: parsed when the node runs). */
  payloadText: string;
  /** The trace state before the typed event, as JSON text. */
  stateText: string;
  /** The inspector shows the run's fields (kept from node to node). */
  open: boolean;
}

/** The state a run used: the replay's before a step (the engine's), or the typed one. */
export type UsedState =
  | { from: 'step'; index: number; vars: JsonObject; flow_sessions: number; same_version: boolean }
  | { from: 'typed'; vars: JsonObject };

export interface NodeRunEntry {
  pipelineId: string;
  /** The document the node ran in: a later edit makes the result stale (the card says so). */
  doc: Pipeline;
  /** What the node ran on, for people: "step 3 · tool.before_call" or "a sample tool.before_call". */
  sample: string;
  /** Numbers runs, so a slow answer never overwrites a newer run's. */
  n: number;
  outcome: NodeRunOutcome | null;
  /** The state it ran with (null until it ran, or when it could not). */
  used: UsedState | null;
}

export interface NodeRunData {
  sample: SampleChoice;
  nodeRuns: ReadonlyMap<string, NodeRunEntry>;
}

export interface NodeRunActions {
  setSample(patch: Partial<SampleChoice>): void;
  nodeRunStarted(nodeId: string, entry: NodeRunEntry): void;
  nodeRunFinished(nodeId: string, n: number, outcome: NodeRunOutcome, used: UsedState | null): void;
  dismissNodeRun(nodeId: string): void;
}

export type NodeRunSlice = NodeRunData & NodeRunActions;

const FIRST_TYPE = 'tool.before_call';

export const createNodeRunSlice: StateCreator<AppState, [], [], NodeRunSlice> = (set, get) => ({
  sample: { source: 'step', type: FIRST_TYPE, payloadText: JSON.stringify(samplePayload(FIRST_TYPE), null, 2), stateText: '{}', open: false },
  nodeRuns: new Map(),
  setSample: (patch) => set({ sample: { ...get().sample, ...patch } }),
  nodeRunStarted: (nodeId, entry) => set({ nodeRuns: new Map(get().nodeRuns).set(nodeId, entry) }),
  nodeRunFinished: (nodeId, n, outcome, used) => {
    const entry = get().nodeRuns.get(nodeId);
    if (!entry || entry.n !== n) return;
    set({ nodeRuns: new Map(get().nodeRuns).set(nodeId, { ...entry, outcome, used }) });
  },
  dismissNodeRun: (nodeId) => {
    if (!get().nodeRuns.has(nodeId)) return;
    const next = new Map(get().nodeRuns);
    next.delete(nodeId);
    set({ nodeRuns: next });
  },
});

export const selectSample = (s: AppState) => s.sample;

/** The step a node runs on when the source is 'step': the debugger's shown step of the open, replayed trace, or null. */
export interface RunStep {
  index: number;
  event: HookEvent;
  traceName: string;
}
let lastStep: { detail: AppState['detail']; trace: AppState['trace']; step: RunStep } | null = null;
export const selectRunStep = (s: AppState): RunStep | null => {
  if (!s.trace || !s.detail || s.activeEpoch < 0) return null;
  // The same object while the step and trace are the same (a stable selector result).
  if (lastStep?.detail !== s.detail || lastStep.trace !== s.trace) {
    lastStep = { detail: s.detail, trace: s.trace, step: { index: s.detail.step.index, event: s.detail.step.event, traceName: s.trace.name } };
  }
  return lastStep.step;
};
/** The open pipeline's last run of a node (runs of another pipeline's node of the same id do not show). */
export const selectNodeRun = (id: string) => (s: AppState): NodeRunEntry | undefined => {
  const r = s.nodeRuns.get(id);
  return r && r.pipelineId === s.pipelineId ? r : undefined;
};
