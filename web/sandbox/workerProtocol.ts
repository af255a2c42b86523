import type { JsonObject } from '../../engine/model/json.ts';
import type { CodeRunReport, CodeSpec } from '../../engine/sandbox/runCode.ts';
import type { SandboxLimits } from '../../engine/sandbox/types.ts';

/** Page → sandbox worker: run `spec` once per input (engine/sandbox/runCode.ts `runCodeOn`). */
export interface RunRequest {
  id: number;
  spec: CodeSpec;
  inputs: JsonObject[];
  limits: SandboxLimits;
}

/** Sandbox worker → page. */
export interface RunReply {
  id: number;
  reports: CodeRunReport[];
}
