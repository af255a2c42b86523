import type { JsonObject, Pipeline, Problem, CodeRunReport, CodeRunSpec as CodeSpec, SandboxLimits } from '../../engine/app.ts';

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

export type SandboxRequest = RunRequest | CheckRequest;

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

export type SandboxReply = RunReply | CheckReply | ReadyReply;
