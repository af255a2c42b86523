import { EVENT_TYPE_RE, isJsonObject, type HookEvent, type JsonObject, type JsonValue, type Pipeline } from '../../engine/app.ts';
import { sampleEvent } from '../model/sampleEvents.ts';
import type { StepNodeRun } from '../debugger/worker/protocol.ts';
import type { WorkerSandbox } from '../sandbox/workerSandbox.ts';
import { selectRunStep, type AppStore, type SampleChoice, type UsedState } from '../store/appStore.ts';

/**
 * "Run node": runs one node of the open pipeline alone with the engine's `runNode` [X7], on one of two events
 * (one panel, RunNodePanel.tsx): the debugger's selected step — its event, with the state the replay had just
 * before it, both the engine's, run in the replay worker — or an event typed in the panel, with a typed state,
 * run in the sandbox worker. Code runs in the real sandbox either way. The answer goes to the store for the
 * canvas card and the panel, with the state it used. A typed event that is not JSON, or a type that is not an
 * event type, is answered as a failed run that says why; nothing is changed.
 */
export interface NodeRunner {
  run(nodeId: string): Promise<void>;
}

/** Runs a node on a step of the open trace in the replay worker (replayService's client). */
export type RunOnStep = (index: number, nodeId: string, doc: Pipeline) => Promise<StepNodeRun>;

/** The page's sandbox worker, loaded on the first run (QuickJS is not part of the initial load). */
const pageSandbox = (): Promise<Pick<WorkerSandbox, 'runNode'>> => import('../sandbox/workerSandbox.ts').then((m) => m.pageWorkerSandbox());

type Read = { ok: true; event: HookEvent; vars: JsonObject; label: string } | { ok: false; message: string };

function parseObject(text: string, what: string): JsonObject | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `The typed ${what} is not valid JSON: ${(e as Error).message}`;
  }
  return isJsonObject(value as JsonValue) ? (value as JsonObject) : `The typed ${what} must be a JSON object ({…}).`;
}

/** The typed event and state, or why they are not one. */
export function readTyped(sample: SampleChoice): Read {
  const type = sample.type.trim();
  if (!EVENT_TYPE_RE.test(type)) return { ok: false, message: `"${type}" is not an event type (dotted words, such as tool.before_call).` };
  const payload = parseObject(sample.payloadText, 'payload');
  if (typeof payload === 'string') return { ok: false, message: payload };
  const vars = parseObject(sample.stateText.trim() || '{}', 'state');
  if (typeof vars === 'string') return { ok: false, message: vars };
  return { ok: true, event: sampleEvent(type, payload), vars, label: `a typed ${type}` };
}

export function createNodeRunner(store: AppStore, runOnStep: RunOnStep, sandbox: () => Promise<Pick<WorkerSandbox, 'runNode'>> = pageSandbox): NodeRunner {
  let runs = 0;
  return {
    async run(nodeId) {
      const s = store.getState();
      if (!s.doc || !s.pipelineId || !s.doc.nodes.some((n) => n.id === nodeId)) return;
      const n = ++runs;
      const doc = s.doc;
      const step = s.sample.source === 'step' ? selectRunStep(s) : null;
      if (step) {
        s.nodeRunStarted(nodeId, { pipelineId: s.pipelineId, doc, sample: `step ${step.index + 1} · ${step.event.type}`, n, outcome: null, used: null });
        let answer: StepNodeRun;
        try {
          answer = await runOnStep(step.index, nodeId, doc);
        } catch (e) {
          store.getState().nodeRunFinished(nodeId, n, { ok: false, message: `The replay could not run it on step ${step.index + 1}: ${e instanceof Error ? e.message : String(e)}` }, null);
          return;
        }
        const used: UsedState = { from: 'step', ...answer.state };
        store.getState().nodeRunFinished(nodeId, n, answer.outcome, used);
        return;
      }
      const read = readTyped(s.sample);
      s.nodeRunStarted(nodeId, { pipelineId: s.pipelineId, doc, sample: read.ok ? read.label : 'the typed event', n, outcome: null, used: null });
      if (!read.ok) {
        s.nodeRunFinished(nodeId, n, { ok: false, message: read.message }, null);
        return;
      }
      const outcome = await (await sandbox()).runNode(doc, nodeId, read.event, read.vars);
      store.getState().nodeRunFinished(nodeId, n, outcome, { from: 'typed', vars: read.vars });
    },
  };
}
