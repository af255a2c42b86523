import { OPENCODE_TOOLS } from '../model/toolTables.ts';
import type { AgentContract } from './types.ts';
import { eventSpecs } from './eventSpec.ts';

/*
 * OpenCode [AG1]: no command hooks. It loads TypeScript/JavaScript plugins in its own process, and Hookwire's
 * plugin (`hookwire/opencode`, engine/adapters/opencode) decides there. Its contract is what that plugin can carry
 * out through the two hooks it implements, read from:
 * - https://opencode.ai/docs/plugins (read 2026-12): project plugins are the `.ts`/`.js` files of
 *   `.opencode/plugins/` (global: `~/.config/opencode/plugins/`), loaded at start-up; a local plugin's npm
 *   dependencies go in `.opencode/package.json` (OpenCode runs `bun install`); a call is blocked by throwing from
 *   `tool.execute.before` (the docs' `.env` example), and `output.args` is what the tool runs with.
 * - anomalyco/opencode (1.18.x, read 2026-12): packages/opencode/src/config/plugin.ts scans `{plugin,plugins}/*.{ts,js}`
 *   of each config directory; src/plugin/discovery.ts calls every export of a legacy (non-`default`-object) plugin
 *   module as a plugin function and throws "Plugin export is not a function" otherwise, so the generated file
 *   exports exactly one function.
 * - `@opencode-ai/plugin` 1.18.33 index.d.ts `Hooks`: `tool.execute.before(input {tool, sessionID, callID},
 *   output {args})`, `tool.execute.after(input {tool, sessionID, callID, args}, output {title, output, metadata})`;
 *   `permission.ask` answers OpenCode's own permission prompt, which a plugin cannot raise from a tool hook.
 * So: a block is carried (thrown before, output withheld after), a rewrite of the arguments or of the output is
 * carried, context reaches the model only after a call (appended to the output), an ASK has no one to ask (the
 * generated plugin has no approver: denied, fail closed [P14]), and TERMINATE blocks the call without ending the
 * session. The prompt, the model call and the session's end are not mapped by the plugin: "no such hook".
 */

const ev = eventSpecs({ required: { tool: 'string', sessionID: 'string', callID: 'string' }, block: 'plugin', ask: false, context: 'none', terminate: false });

export const OPENCODE_CONTRACT: AgentContract = {
  id: 'opencode',
  name: 'OpenCode',
  sources: [
    { url: 'https://opencode.ai/docs/plugins', version: '@opencode-ai/plugin 1.18.33 (Hooks), opencode 1.18.x config/plugin.ts, read 2026-12' },
  ],
  events: new Map([
    // anomalyco/opencode issue #5894 (closed): a sub-agent's calls do reach the plugin (plugins load per instance; the
    // report's calls were grep run through bash). The calls the experimental batch tool makes were said there to skip the
    // hooks (comment of 2026-02-13, a fix announced); not checked in 1.18.x, so not in the loss report (docs/agents.md).
    ev('tool.execute.before', 'tool.before_call', { rewrite: { field: 'tool_input', how: 'apply' } }),
    // Triggered only after a call that succeeded (PR #32542; the task tool's, PR #5642): a failure never reaches it.
    ev('tool.execute.after', 'tool.after_call', { rewrite: { field: 'tool_response', how: 'apply' }, context: 'model', caveat: 'tool.execute.after fires only for a call that succeeded (anomalyco/opencode PR #32542): a failed call\'s result is never shown to an after-call rule' }),
  ]),
  ...OPENCODE_TOOLS,
  unseen: [],
  agentId: 'opencode',
  // In process: OpenCode awaits the hook, there is no hook timeout (the runtime's own deadlines apply). 0: none.
  timeoutSeconds: 0,
  onFailure: 'in process: a plugin hook that throws stops the tool call (the model reads the message); the generated plugin blocks every call when hookwire or the pipeline cannot load',
  // In process, no hook timeout: a throw blocks.
  failOpen: [],
  confirmed: true,
};

/** Where `hookwire install --agent opencode` writes the plugin (a project plugin, loaded at start-up). */
export const OPENCODE_PLUGIN_FILE = '.opencode/plugins/hookwire.js';

/** The first line of a plugin file Hookwire wrote: a re-install replaces such a file, and no other. */
export const OPENCODE_PLUGIN_MARK = '// Written by `hookwire install --agent opencode`';

/**
 * The plugin file for a pipeline [AG6]: plain JavaScript (no type-checking in the user's project can break it),
 * one export (OpenCode calls every export as a plugin). It loads hookwire and the pipeline inside the plugin
 * function, so that when either cannot load OpenCode still gets hooks, ones that block every tool call with the
 * reason (fail closed) instead of a plugin that failed to load (OpenCode would then run without it).
 */
export function openCodePluginFile(pipeline: string): string {
  const p = JSON.stringify(pipeline);
  return `${OPENCODE_PLUGIN_MARK} (Hookwire): a re-install replaces this file.
// OpenCode loads each .js and .ts file of .opencode/plugins/ at start-up and calls every export as a plugin
// (https://opencode.ai/docs/plugins). This one runs the Hookwire pipeline below in OpenCode's own process through
// hookwire/opencode. hookwire must be importable from here: a dependency of the project, or of
// .opencode/package.json (OpenCode installs those). If hookwire or the pipeline cannot load, every tool call is
// blocked with the reason (failing closed).
const PIPELINE = ${p};

export const Hookwire = async (input, options) => {
  let why;
  try {
    const { loadRuntime } = await import('hookwire/node');
    const { hookwireOpenCode } = await import('hookwire/opencode');
    const loaded = await loadRuntime(PIPELINE);
    if (loaded.ok) return await hookwireOpenCode(loaded.runtime)(input, options);
    why = \`the pipeline \${PIPELINE} was refused: \${loaded.problems.map((p) => p.message).join('; ')}\`;
  } catch (err) {
    why = \`hookwire could not start (\${err instanceof Error ? err.message : String(err)})\`;
  }
  const message = \`Blocked by Hookwire: \${why}: failing closed\`;
  return {
    'tool.execute.before': async () => {
      throw new Error(message);
    },
    'tool.execute.after': async (_input, output) => {
      output.output = message;
    },
  };
};
`;
}
