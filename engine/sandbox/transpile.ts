import { transform } from './sucraseTransform.ts';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import type { CodeError } from './types.ts';

/**
 * User code → the JavaScript QuickJS runs [S1]. Sucrase strips TypeScript (no type checking: that is the
 * editor's job) and turns the ES module into a CommonJS body, which we wrap in a factory function so the
 * sandbox can run the module afresh on every call. Sucrase keeps line numbers and writes a source map,
 * so every position QuickJS reports maps back to the user's own line and column.
 */

/** Opens the factory; user code starts right after it on line 1 of the generated file. */
export const FACTORY_OPEN = '(function (exports, require) {';
const FACTORY_CLOSE = '\n})';
const ES_MODULE_MARK = 'Object.defineProperty(exports, "__esModule", {value: true});';

export interface Transpiled {
  /** A function expression `(function (exports, require) {…})` that runs the module once. */
  factory: string;
  map: TraceMap;
}

export type TranspileResult = { ok: true; code: Transpiled } | { ok: false; error: CodeError };

/**
 * Strips types and module syntax. `transpile('export default (c: Ctx) => true', 'ts')` → a factory that
 * sets `exports.default`. A syntax error comes back as `{ kind: 'syntax', line, column }` (1-based).
 */
export function transpile(source: string, language: 'js' | 'ts'): TranspileResult {
  try {
    const out = transform(source, {
      transforms: language === 'ts' ? ['typescript', 'imports'] : ['imports'],
      // QuickJS runs ES2023 natively: keep optional chaining, class fields and friends as written.
      disableESTransforms: true,
      production: true,
      filePath: language === 'ts' ? 'code.ts' : 'code.js',
      sourceMapOptions: { compiledFilename: 'code.js' },
    });
    const map = new TraceMap(out.sourceMap as unknown as ConstructorParameters<typeof TraceMap>[0]);
    // Sucrase marks `exports` as an ES module; nothing reads the mark, and it would cost a property
    // definition on every call. Blanked with spaces of the same length so the source map stays exact.
    const code = out.code.replace(ES_MODULE_MARK, ' '.repeat(ES_MODULE_MARK.length));
    return { ok: true, code: { factory: FACTORY_OPEN + code + FACTORY_CLOSE, map } };
  } catch (e) {
    return { ok: false, error: sucraseError(source, e) };
  }
}

function sucraseError(source: string, e: unknown): CodeError {
  const raw = e instanceof Error ? e.message : String(e);
  // "Error transforming code.ts: Unexpected token, expected \";\" (3:23)" → "Unexpected token, expected \";\""
  const message = raw.replace(/^Error transforming [^:]*: /, '').replace(/ \(\d+:\d+\)$/, '');
  const pos = (e as { pos?: unknown }).pos;
  if (typeof pos !== 'number') return { kind: 'syntax', message };
  return { kind: 'syntax', message, ...positionOf(source, pos) };
}

/** 1-based line and column of a character offset. */
export function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Maps a 1-based position in the generated factory back to the user's source, or `undefined` when it
 * falls outside the user's code (the wrapper itself).
 */
export function originalPosition(code: Transpiled, line: number, column: number): { line: number; column: number } | undefined {
  const generatedColumn = (line === 1 ? column - FACTORY_OPEN.length : column) - 1;
  if (generatedColumn < 0) return undefined;
  const found = originalPositionFor(code.map, { line, column: generatedColumn });
  if (found.line === null || found.column === null) return undefined;
  return { line: found.line, column: found.column + 1 };
}
