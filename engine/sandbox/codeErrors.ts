import { originalPosition, type Transpiled } from './transpile.ts';
import { DEFAULT_CODE_FUEL, type CodeError, type CodeErrorKind, type SandboxLimits } from './types.ts';

/**
 * Turns what QuickJS reports (an error's name, message and stack in the generated factory) into a
 * `CodeError` that speaks about the user's source [S8]: a readable message and the user's line/column.
 */

/** What the runner (or the host, for errors that escape the runner) knows about a failure. */
export interface RawError {
  kind: CodeErrorKind;
  name: string;
  message: string;
  stack: string;
}

/** The file name QuickJS sees for program `id`; stack frames name it. */
export function programFile(id: number): string {
  return `hookwire-${id}.js`;
}

/** Which kind an error that escaped the runner is: QuickJS's own messages for its limits. */
export function kindOfEscaped(message: string): CodeErrorKind {
  if (message === 'interrupted') return 'timeout';
  if (message === 'out of fuel') return 'fuel';
  if (message === 'out of memory') return 'memory';
  if (message === 'stack overflow') return 'stack';
  return 'thrown';
}

const MB = 1024 * 1024;

function readableMessage(raw: RawError, limits: SandboxLimits): string {
  switch (raw.kind) {
    case 'fuel':
      return `the code ran out of fuel (${limits.fuel ?? DEFAULT_CODE_FUEL} units, a limit on work that is the same on every machine) and was stopped`;
    case 'timeout':
      return `the code ran past the wall-clock safety net of ${limits.timeoutMs} ms (the machine was stalled, or the fuel is set very high) and was stopped`;
    case 'memory':
      return `the code ran out of memory (limit ${formatMb(limits.memoryBytes)})`;
    case 'stack':
      return 'too much recursion: the call stack overflowed';
    default:
      return raw.name ? `${raw.name}: ${raw.message}` : raw.message;
  }
}

function formatMb(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/**
 * The innermost stack frame inside program `id`, mapped to the user's source. Frames look like
 * `at handler (hookwire-3.js:4:12)` or, for syntax errors, `at hookwire-3.js:4:12`.
 */
export function userPosition(stack: string, id: number, code: Transpiled): { line: number; column?: number } | undefined {
  const frame = new RegExp(`${programFile(id).replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  if (!frame) return undefined;
  const line = Number(frame[1]);
  const column = Number(frame[2]);
  const mapped = originalPosition(code, line, column);
  // Sucrase keeps line numbers, so the generated line is the user's line even where no token maps.
  return mapped ?? (line >= 1 ? { line } : undefined);
}

/** A `CodeError` for a failure of program `id`, positioned in the user's source when the stack allows. */
export function toCodeError(raw: RawError, id: number, code: Transpiled, limits: SandboxLimits): CodeError {
  const error: CodeError = { kind: raw.kind, message: readableMessage(raw, limits) };
  const at = userPosition(raw.stack, id, code);
  if (at && (raw.kind === 'timeout' || raw.kind === 'fuel')) {
    // QuickJS records a frame's position at calls, not at loop back-edges: a loop that runs out of time
    // reports where its function starts, not the loop. Said as that, never as the error's own line [S8].
    error.message += ` while running the function that starts at line ${at.line}`;
    return error;
  }
  if (at) {
    error.line = at.line;
    if (at.column !== undefined) error.column = at.column;
  }
  return error;
}
