import type { HookEvent, JsonObject, NodeRun, Pipeline, Problem, CodeRunReport, CodeRunSpec as CodeSpec, SandboxLimits } from '../../engine/app.ts';

/** Page → sandbox worker: run `spec` once per input (engine/sandbox/runCode.ts `runCodeOn`). */
export interface RunRequest {
  id: number;
  kind: 'run';
  spec: CodeSpec;
  inputs: JsonObject[];
  limits: SandboxLimits;
}

/** Page → sandbox worker: compile the code nodes of a document, for their problems (checkCode.ts). */
export interface CheckRequest {
  id: number;
  kind: 'check';
  doc: Pipeline;
}

/** Page → sandbox worker: run one node of a document alone on one event [X7] (runNodeIn.ts). */
export interface RunNodeRequest {
  id: number;
  kind: 'runNode';
  doc: Pipeline;
  nodeId: string;
  event: HookEvent;
  /** The trace state before the event. */
  vars: JsonObject;
}

export type SandboxRequest = RunRequest | CheckRequest | RunNodeRequest;

/** What running one node gave: the engine's answer, or why there is none (the pipeline does not load, the node is gone, the worker stopped). */
export type NodeRunOutcome = { ok: true; run: NodeRun } | { ok: false; message: string; problems?: Problem[] };

/** Sandbox worker → page. */
export interface RunReply {
  id: number;
  kind: 'run';
  reports: CodeRunReport[];
}

export interface CheckReply {
  id: number;
  kind: 'check';
  problems: Problem[];
}

/** The worker has loaded QuickJS (sent once, `id` 0): request watchdogs count from here. */
export interface ReadyReply {
  id: 0;
  kind: 'ready';
}

export interface RunNodeReply {
  id: number;
  kind: 'runNode';
  outcome: NodeRunOutcome;
}

export type SandboxReply = RunReply | CheckReply | RunNodeReply | ReadyReply;
