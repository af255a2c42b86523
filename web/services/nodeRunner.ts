import { EVENT_TYPE_RE, isJsonObject, type HookEvent, type JsonObject, type JsonValue } from '../../engine/app.ts';
import { sampleEvent } from '../model/sampleEvents.ts';
import type { WorkerSandbox } from '../sandbox/workerSandbox.ts';
import type { AppStore, SampleChoice } from '../store/appStore.ts';

/**
 * "Run node": runs one node of the open pipeline alone on the editor's sample event with the engine's
 * `runNode` [X7], in the sandbox worker (so code runs in the real sandbox), and puts the answer in the store for
 * the canvas card and the inspector. A sample that is not JSON, or a type that is not an event type, is
 * answered as a failed run that says why; nothing is changed.
 */
export interface NodeRunner {
  run(nodeId: string): Promise<void>;
}

/** The page's sandbox worker, loaded on the first run (QuickJS is not part of the initial load). */
const pageSandbox = (): Promise<Pick<WorkerSandbox, 'runNode'>> => import('../sandbox/workerSandbox.ts').then((m) => m.pageWorkerSandbox());

type Read = { ok: true; event: HookEvent; vars: JsonObject; label: string } | { ok: false; message: string };

function parseObject(text: string, what: string): JsonObject | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `The sample's ${what} is not valid JSON: ${(e as Error).message}`;
  }
  return isJsonObject(value as JsonValue) ? (value as JsonObject) : `The sample's ${what} must be a JSON object ({…}).`;
}

/** The sample as an event and a state, or why it is not one. */
export function readSample(sample: SampleChoice): Read {
  const type = sample.type.trim();
  if (!EVENT_TYPE_RE.test(type)) return { ok: false, message: `"${type}" is not an event type (dotted words, such as tool.before_call).` };
  const payload = parseObject(sample.payloadText, 'payload');
  if (typeof payload === 'string') return { ok: false, message: payload };
  const vars = parseObject(sample.stateText.trim() || '{}', 'state');
  if (typeof vars === 'string') return { ok: false, message: vars };
  const step = sample.step;
  if (!step) return { ok: true, event: sampleEvent(type, payload), vars, label: `a sample ${type}` };
  const edited = type !== step.event.type || JSON.stringify(payload) !== JSON.stringify(step.event.payload);
  return { ok: true, event: { ...step.event, type, payload }, vars, label: `step ${step.index + 1} · ${type}${edited ? ' (edited)' : ''}` };
}

export function createNodeRunner(store: AppStore, sandbox: () => Promise<Pick<WorkerSandbox, 'runNode'>> = pageSandbox): NodeRunner {
  let runs = 0;
  return {
    async run(nodeId) {
      const s = store.getState();
      if (!s.doc || !s.pipelineId || !s.doc.nodes.some((n) => n.id === nodeId)) return;
      const n = ++runs;
      const read = readSample(s.sample);
      const entry = { pipelineId: s.pipelineId, doc: s.doc, sample: read.ok ? read.label : 'the sample', n, outcome: null };
      s.nodeRunStarted(nodeId, entry);
      if (!read.ok) {
        s.nodeRunFinished(nodeId, n, { ok: false, message: read.message });
        return;
      }
      const outcome = await (await sandbox()).runNode(s.doc, nodeId, read.event, read.vars);
      store.getState().nodeRunFinished(nodeId, n, outcome);
    },
  };
}
