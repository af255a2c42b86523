// The version of a pipeline that a recording names with each decision [R17]: `sha256:<16 hex>` of the pipeline
// file's text (its UTF-8 bytes), the first 64 bits of the digest. The same text has the same version in the
// CLI, `hookwire serve` (which also keeps each version's text under this name to rebuild a session with
// exactly the pipeline that decided it) and the browser. Any change to the file is a new version, layout
// included: a version says "these decisions were made by exactly this file", nothing weaker.
import { sha256HexOf } from './hashChain.ts';

/** `sha256:` and 16 lowercase hex. */
export const PIPELINE_VERSION_RE = /^sha256:[0-9a-f]{16}$/;

/**
 * The version of the pipeline whose file text is `text` [R17].
 *
 * @example pipelineVersionOf('{"format":"hookwire.pipeline",…}') // 'sha256:3f0c…' (16 hex)
 */
export function pipelineVersionOf(text: string): string {
  return `sha256:${sha256HexOf(text).slice(0, 16)}`;
}
