/**
 * Hookwire for Node: the production runtime API (pure, engine/runtime/) plus file loading and file sinks, the
 * Node QuickJS sandbox and trace file reading: the package's `hookwire/node` (`import { loadRuntime } from 'hookwire/node'`).
 */
export * from '../runtime/index.ts';
export { loadRuntime } from './loadRuntime.ts';
export { appendLinesTo, jsonLinesTo, recordToDirectory } from './fileSinks.ts';
export { createNodeSandbox } from './loadQuickJS.ts';
export { readTraceFile, importTraceFile } from './readTraceFile.ts';
export { main as runCli } from './cli.ts';
export { compileForNode, type NodeDispatcher, type NodeDispatchOptions } from './codegen/compileForNode.ts';
