// `hookwire install --agent <id> --pipeline <file>` and `hookwire agents` [AG6]: write (or print) the agent's
// own hook configuration for a pipeline, merged into the project's file, and say before it ships what the agent
// cannot carry out (the loss report). The configuration and the report are computed by engine/agents/install.ts
// and loss.ts (the app's "Export for agent" shows the same); this file only reads and writes.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { alsoRunBy, mergeConfig, serveUrlProblem } from '../../agents/install.ts';
import { agentList } from '../../agents/listing.ts';
import { lossReport, strictLosses, type LossItem } from '../../agents/loss.ts';
import { AGENT_CONTRACTS } from '../../agents/registry.ts';
import { isAgentId, AGENT_IDS } from '../../agents/types.ts';
import { nodeName } from '../../model/nodeName.ts';
import type { PipelineNode } from '../../model/pipelineTypes.ts';
import { CliError, EXIT, fileErrorText, table, type Io } from '../cliIo.ts';
import { compilePipelineFile } from '../loadPipelineFile.ts';

export interface InstallOptions {
  agent: string;
  pipeline: string;
  dir?: string;
  serve?: string;
  print?: boolean;
  strict?: boolean;
  /** How the hook runs hookwire (default `hookwire`). */
  bin?: string;
}

/**
 * The loss report as lines, by node: its id, as in the file, and its name as the app shows it (an event's
 * pattern), which the item's text does not repeat; then which other agents also run what was written (VS Code
 * runs Claude Code's and Copilot's hooks).
 */
export function lossLines(agent: string, items: readonly LossItem[], nodes: readonly PipelineNode[]): string {
  const also = isAgentId(agent) ? alsoRunBy(agent).map((t) => `Note: ${t}\n`).join('') : '';
  if (items.length === 0) return `Loss report for ${agent}: nothing is lost.\n${also}`;
  const names = new Map(nodes.map((n) => [n.id, nodeName(n)]));
  const who = (id: string | null) => (id === null ? '(agent)' : names.has(id) && names.get(id) !== id ? `${id} (${names.get(id)})` : id);
  const rows = items.map((i) => `  ${who(i.node)}: ${i.text}${i.events.length > 0 ? ` (${i.events.join(', ')})` : ''}`);
  return `Loss report for ${agent} (${items.length}):\n${rows.join('\n')}\n${also}`;
}

async function readIfThere(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`cannot read ${path}: ${fileErrorText(err)}`);
  }
}

export async function installCommand(o: InstallOptions, io: Io, now: () => Date = () => new Date()): Promise<number> {
  if (!isAgentId(o.agent)) throw new CliError(`--agent ${o.agent} is not one of ${AGENT_IDS.join(', ')}`);
  const serveProblem = o.serve !== undefined ? serveUrlProblem(o.serve) : null;
  if (serveProblem) throw new CliError(`--serve ${o.serve}: ${serveProblem}`);
  const pipelinePath = resolve(o.pipeline);
  const loaded = await compilePipelineFile(pipelinePath);
  const doc = loaded.pipeline;
  loaded.dispose();
  const dir = resolve(o.dir ?? '.');
  const probe = mergeConfig(o.agent, doc, { pipeline: pipelinePath, bin: o.bin, serve: o.serve }, null);
  const file = probe.file ? join(dir, probe.file) : '';
  const existing = file ? await readIfThere(file) : null;
  const merged = mergeConfig(o.agent, doc, { pipeline: pipelinePath, bin: o.bin, serve: o.serve }, existing);
  const losses = lossReport(doc, AGENT_CONTRACTS.get(o.agent)!);
  if (merged.ok && merged.paste !== undefined) {
    // Kimi Code's hooks live in the person's ~/.kimi-code/config.toml: the entries to add, nothing written.
    io.out(`${merged.paste}:\n\n${merged.text}\n`);
    io.err(lossLines(o.agent, losses, doc.nodes));
    return o.strict && strictLosses(losses).length > 0 ? EXIT.failed : EXIT.ok;
  }
  if (!merged.ok) {
    io.err(`hookwire install: ${merged.reason}\n`);
    io.err(lossLines(o.agent, losses, doc.nodes));
    return EXIT.cannotRun;
  }
  if (o.print) {
    io.out(merged.text);
    io.err(`(${merged.file} in ${dir})\n${lossLines(o.agent, losses, doc.nodes)}`);
  } else if (!merged.changed) {
    io.out(`${file}: unchanged (the hooks are already installed)\n${lossLines(o.agent, losses, doc.nodes)}`);
  } else {
    let backup = '';
    if (existing !== null) {
      backup = `${file}.hookwire-${now().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}.bak`;
      await copyFile(file, backup);
    }
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, merged.text);
    io.out(`wrote ${file}${backup ? ` (the old file is ${backup})` : ''}\n${lossLines(o.agent, losses, doc.nodes)}`);
  }
  return o.strict && strictLosses(losses).length > 0 ? EXIT.failed : EXIT.ok;
}

/** `hookwire agents [--json]`: ids, the contract version or date read, and events. */
export function agentsCommand(o: { json?: boolean }, io: Io): number {
  const list = agentList();
  if (o.json) {
    io.out(`${JSON.stringify({ agents: list }, null, 2)}\n`);
    return EXIT.ok;
  }
  const rows = [...AGENT_CONTRACTS.values()].map((c) => [c.id, c.name, `${c.confirmed ? '' : 'unconfirmed: '}${c.sources[0]?.version ?? ''}`, [...c.events.keys()].join(' ')]);
  io.out(table(['id', 'agent', 'contract read', 'events'], rows));
  return EXIT.ok;
}
