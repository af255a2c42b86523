import type { CodeSpec } from '../../engine/model/pipelineSchema.ts';

/** "Run on a sample event": wired to the browser sandbox when it is available. */
export function RunSample(_props: { role: 'handler' | 'matcher'; spec: CodeSpec; nodeId: string }) {
  return null;
}
