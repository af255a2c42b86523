import { compilePipeline } from '../compile/compilePipeline.ts';
import { parseJsonText } from '../model/jsonErrorOffset.ts';
import { createSinkQueue, defaultScheduler, type SinkFailure, type SinkQueue } from './sinkQueue.ts';
import { openTrace, type TraceContext } from './runtimeTrace.ts';
import { pipelineVersionOf } from './telemetry.ts';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from './approve.ts';
import type { Runtime, RuntimeLoad, RuntimeOptions, RuntimeQueues, StartTraceOptions } from './types.ts';

/**
 * The production runtime [P1]-[P8]: loads an exported pipeline (text or parsed JSON) and refuses it with every
 * problem when it has errors; otherwise returns a runtime whose traces emit events, guard actions and record
 * themselves. Pure: time, ids, sinks, recording and scheduling are injected.
 *
 * @example
 * const r = createRuntime(pipelineJson, { sinks: { audit: (a) => log(a) } });
 * if (!r.ok) throw new Error(formatProblems(r.problems));
 * const trace = r.runtime.startTrace();
 * const res = trace.emit('input.received', { prompt });
 */
export function createRuntime(pipeline: unknown, options: RuntimeOptions = {}): RuntimeLoad {
  let doc = pipeline;
  if (typeof pipeline === 'string') {
    const parsed = parseJsonText(pipeline);
    if (!parsed.ok) return parsed;
    doc = parsed.doc;
  }
  const compiled = compilePipeline(doc, { sandbox: options.sandbox ?? null });
  if (!compiled.ok) return { ok: false, problems: compiled.problems };

  let sinkFailures = 0;
  const onFailure = (f: SinkFailure) => {
    sinkFailures++;
    options.onSinkError?.(f);
  };
  const queueOptions = { onFailure, ...(options.schedule ? { schedule: options.schedule } : {}), ...(options.maxPending ? { maxPending: options.maxPending } : {}) };
  const sinks = options.sinks ?? {};
  const queues: RuntimeQueues = {
    raw: sinks.raw ? createSinkQueue('raw', sinks.raw, queueOptions) : null,
    audit: sinks.audit ? createSinkQueue('audit', sinks.audit, queueOptions) : null,
    handlerAudit: sinks.handlerAudit ? createSinkQueue('handlerAudit', sinks.handlerAudit, queueOptions) : null,
    errors: sinks.errors ? createSinkQueue('errors', sinks.errors, queueOptions) : null,
    async: sinks.async ? createSinkQueue('async', sinks.async, queueOptions) : null,
  };
  const all = Object.values(queues).filter((q): q is SinkQueue<never> => q !== null);
  const traces = new Set<TraceContext>();
  const clock = options.clock ?? { now: () => Date.now() };
  let traceSeq = 0;
  const telemetry = options.telemetry
    ? { ...options.telemetry, pipeline: { name: compiled.pipeline.name, version: options.telemetry.pipelineVersion ?? options.pipelineVersion ?? pipelineVersionOf(compiled.pipeline) } }
    : null;
  const newTraceId = options.newTraceId ?? (() => `trace-${Math.floor(clock.now()).toString(36)}-${++traceSeq}`);

  const runtime: Runtime = {
    name: compiled.pipeline.name,
    warnings: compiled.problems,
    startTrace(start: StartTraceOptions = {}) {
      const ctx = openTrace(compiled.compiled, compiled.pipeline.name, start, {
        clock,
        trace_id: start.trace_id ?? newTraceId(),
        agent_id: start.agent_id ?? options.agentId ?? 'agent',
        queues,
        record: (header) => (start.record !== undefined ? start.record : options.record?.(header) ?? null),
        schedule: options.schedule ?? defaultScheduler,
        queueOptions,
        onEnd: (c) => traces.delete(c),
        telemetry,
        approver: options.approver,
        approvalTimeoutMs: options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
        timers: options.timers,
        pipelineVersion: options.pipelineVersion ?? null,
      });
      traces.add(ctx);
      return ctx.trace;
    },
    async flush() {
      // Dispatching queued async events produces records, so traces go first, then the shared sinks.
      for (const t of [...traces]) await t.trace.flush();
      await Promise.all(all.map((q) => q.drained()));
    },
    stats() {
      const queuesNow = [...all, ...[...traces].flatMap((t) => (t.recordQueue ? [t.recordQueue] : []))];
      return {
        traces: traces.size,
        pending: queuesNow.reduce((n, q) => n + q.pending, 0) + [...traces].reduce((n, t) => n + t.pendingAsync(), 0),
        dropped: queuesNow.reduce((n, q) => n + q.dropped, 0),
        sinkFailures,
      };
    },
  };
  return { ok: true, runtime };
}
