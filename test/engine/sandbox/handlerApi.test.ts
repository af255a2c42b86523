import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { HANDLER_API_DTS, HANDLER_API_LIB, HANDLER_TEMPLATE, MATCHER_TEMPLATE } from '../../../engine/sandbox/handlerApi.ts';
import { HANDLER_RESULT_KEYS, sandboxInput } from '../../../engine/sandbox/codeResult.ts';
import { HELPER_NAMES, REMOVED_GLOBALS } from '../../../engine/sandbox/prelude.ts';
import { createNodeSandbox, loadQuickJS } from '../../../engine/node/loadQuickJS.ts';
import { runCode } from '../../../engine/sandbox/runCode.ts';
import type { QuickJSSandbox } from '../../../engine/sandbox/quickjsSandbox.ts';
import { CASE_LIMITS, caseInput } from '../../shared/sandboxCases.ts';

// The handler API's .d.ts is the one description of what code sees and returns [S2]-[S5]. These tests
// hold it to that: examples type-check against it with the real TypeScript compiler, and its names match
// the sandbox's globals, the result keys codeResult.ts accepts and the ctx sandboxInput builds.

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  lib: HANDLER_API_LIB.map((l) => `lib.${l}.d.ts`),
  types: [],
};

/**
 * Type errors of handler files checked against the API, as "line: message" per file. One program for all
 * files: the compiler reads the ES lib once.
 */
function typeErrors(sources: Record<string, string>): Map<string, string[]> {
  const files = new Map<string, string>([['/hookwire.d.ts', HANDLER_API_DTS]]);
  const names = Object.keys(sources);
  names.forEach((name, i) => files.set(`/example${i}.ts`, sources[name]!));
  const host = ts.createCompilerHost(OPTIONS);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = files.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, version) : read(name, version, ...rest);
  };
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  const program = ts.createProgram([...files.keys()], OPTIONS, host);
  const out = new Map<string, string[]>(names.map((n) => [n, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const index = d.file ? /^\/example(\d+)\.ts$/.exec(d.file.fileName)?.[1] : undefined;
    const key = index !== undefined ? names[Number(index)]! : '(the API itself)';
    const line = d.file && d.start !== undefined ? `${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    out.set(key, [...(out.get(key) ?? []), line + ts.flattenDiagnosticMessageText(d.messageText, ' ')]);
  }
  return out;
}

function declared(): { functions: string[]; members: (name: string) => string[] } {
  const file = ts.createSourceFile('api.d.ts', HANDLER_API_DTS, ts.ScriptTarget.ES2022, true);
  const functions: string[] = [];
  const interfaces = new Map<string, string[]>();
  file.forEachChild((node) => {
    if (ts.isFunctionDeclaration(node) && node.name) functions.push(node.name.text);
    if (ts.isInterfaceDeclaration(node)) {
      interfaces.set(node.name.text, node.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : [])));
    }
  });
  return { functions, members: (name) => interfaces.get(name) ?? [] };
}

const GOOD: Record<string, string> = {
  template: HANDLER_TEMPLATE,
  matcher: MATCHER_TEMPLATE,
  'every helper': `export default function (ctx: HandlerContext): HandlerResult | void {
    log('event', ctx.event.type, ctx.event.event_id, ctx.meta.user_id, ctx.now.toFixed(0));
    if (ctx.state.calls > 10) return terminate('too many calls');
    if (ctx.payload.tool_name === 'run_shell') return block('no shell');
    if (ctx.payload.usage?.output_tokens === 0) return stop();
    return rewrite({ ...ctx.payload, tool_input: { command: 'ls' } });
  }`,
  'a full result': `const handler: Handler = (ctx) => ({
    decision: 'block_action', reason: 'r', new_payload: { a: 1 }, state_patch: { n: (ctx.state.n ?? 0) + 1, gone: null },
  });
  export default handler;`,
  'a typed matcher': 'const m: Matcher = (ctx) => Date.now() === ctx.now && Math.random() < 2;\nexport default m;',
};

const BAD: Record<string, { source: string; error: RegExp }> = {
  'an unknown decision': { source: "export default (): HandlerResult => ({ decision: 'BLOCK' });", error: /"BLOCK"' is not assignable/ },
  'an unknown result key': { source: "export default (): HandlerResult => ({ reasn: 'x' });", error: /'reasn' does not exist/ },
  'a reason that is not a string': { source: 'export default () => block(42);', error: /'number' is not assignable to parameter of type 'string'/ },
  'fetch (no network)': { source: "export default () => { fetch('https://x'); };", error: /Cannot find name 'fetch'/ },
  'setTimeout (no timers)': { source: 'export default () => { setTimeout(() => 1, 1); };', error: /Cannot find name 'setTimeout'/ },
  'document (no DOM)': { source: 'export default () => document.title;', error: /Cannot find name 'document'/ },
  'process (no Node)': { source: 'export default () => process.env;', error: /Cannot find name 'process'/ },
  'console (log is the way)': { source: "export default () => { console.log('x'); };", error: /Cannot find name 'console'/ },
  'a matcher returning a string': { source: "const m: Matcher = () => 'yes';\nexport default m;", error: /not assignable to type 'boolean'/ },
};

describe('the handler API .d.ts', () => {
  const checked = typeErrors({ ...GOOD, ...Object.fromEntries(Object.entries(BAD).map(([k, v]) => [k, v.source])) });

  it('[S3] has no type errors of its own', () => {
    expect(checked.get('(the API itself)') ?? []).toEqual([]);
  });

  for (const name of Object.keys(GOOD)) {
    it(`[S3] ${name} type-checks against it`, () => {
      expect(checked.get(name)).toEqual([]);
    });
  }

  for (const [name, { error }] of Object.entries(BAD)) {
    it(`[S3] ${name} is a type error`, () => {
      const errors = checked.get(name) ?? [];
      expect(errors.some((e) => error.test(e)), errors.join('\n')).toBe(true);
    });
  }

  it('[S3] declares exactly the helpers the prelude installs', () => {
    expect(declared().functions.sort()).toEqual([...HELPER_NAMES].sort());
  });

  it('[S4] HandlerResult has exactly the keys readHandlerResult accepts', () => {
    expect(declared().members('HandlerResult').sort()).toEqual([...HANDLER_RESULT_KEYS].sort());
  });

  it('[S2] HandlerContext and HookEventInfo have exactly the fields sandboxInput gives', () => {
    const input = caseInput();
    const built = sandboxInput({
      event: { ...(input.event as { type: string; event_id: string; trace_id: string; agent_id: string; ts: string }), payload: {} },
      payload: {},
      state: {},
      now: 0,
    });
    expect(declared().members('HandlerContext').sort()).toEqual(Object.keys(built).sort());
    expect(declared().members('HookEventInfo').sort()).toEqual(Object.keys(built.event as object).sort());
  });
});

describe('the sandbox offers what the .d.ts says', () => {
  let sb: QuickJSSandbox;
  beforeAll(async () => {
    sb = await createNodeSandbox();
  });
  afterAll(() => sb.dispose());

  it('[S3] its globals are plain QuickJS plus the helpers, minus the GC-timing ones', async () => {
    const { module } = await loadQuickJS();
    const ctx = module.newContext();
    const names0 = ctx.unwrapResult(ctx.evalCode('Object.getOwnPropertyNames(globalThis)'));
    const plain = ctx.dump(names0) as string[];
    names0.dispose();
    ctx.dispose();
    const r = runCode(sb, { source: 'export default () => ({ state: { names: Object.getOwnPropertyNames(globalThis) } })', language: 'js', role: 'handler' }, caseInput(), CASE_LIMITS);
    expect(r.ok).toBe(true);
    const names = r.ok && r.role === 'handler' ? (r.outcome.state_patch?.names as string[]) : [];
    expect(names.filter((n) => !plain.includes(n)).sort()).toEqual([...HELPER_NAMES].sort());
    expect(plain.filter((n) => !names.includes(n)).sort()).toEqual([...REMOVED_GLOBALS].sort());
  });

  it('[S3] the template handler runs and blocks rm -rf', () => {
    const r = runCode(sb, { source: HANDLER_TEMPLATE, language: 'ts', role: 'handler' }, caseInput(), CASE_LIMITS);
    expect(r).toMatchObject({ ok: true, outcome: { decision: 'block_action', reason: 'rm -rf is not allowed' } });
  });
});
