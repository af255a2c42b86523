/**
 * Problems found while reading or importing a trace are values (STYLE habit 8): a code from the table
 * below, the 1-based line it concerns (0 when it concerns the whole input), and a readable message that
 * says where and why. Errors drop the line (or, when `fatal`, the whole input); warnings keep it.
 */
export const TRACE_PROBLEM_CODES = {
  empty: 'The input is empty: there is no header line.',
  binary: 'The input is binary data, not text.',
  not_a_trace: 'The first line is not a Hookwire trace header (format "hookwire.trace").',
  future_version: 'The trace was written by a newer Hookwire.',
  bad_header: 'The header line is not valid.',
  not_json: 'A line is not valid JSON.',
  schema: 'A line has the wrong shape for a trace event.',
  line_too_long: 'A line is longer than the limit; it was skipped without being read whole.',
  truncated: 'The input ends in the middle of a line.',
  duplicate_event_id: 'An event id appears again; the event is kept (replay treats it as a re-dispatch).',
  unknown_format: 'The format of the input could not be recognised.',
  pipeline: 'The input is a Hookwire pipeline, not a recorded run.',
  format_mismatch: 'The input was to be read as one format but its content is another (or none of it fits).',
  bad_source: 'The input is in a known format but its content does not have the expected shape.',
  unknown_record: 'A record of a kind the importer does not know: kept as an annotation, not replayed.',
  unreadable_record: 'A record that could not be imported (a malformed message, span or step): skipped, so the import is partial.',
  too_large: 'The input is larger than the limit.',
  too_deep: 'JSON nested deeper than the limit (128 levels) [V9].',
  chain_broken: 'The hash chain is broken at this line: it, or a line before it, was edited, removed, inserted or moved [K2].',
  more_problems: 'More problems were found than are listed.',
  unreadable: 'The file could not be read.',
} as const;

export type TraceProblemCode = keyof typeof TRACE_PROBLEM_CODES;

export interface TraceProblem {
  code: TraceProblemCode;
  severity: 'error' | 'warning';
  /** 1-based line number; 0 when the problem concerns the whole input. */
  line: number;
  /** `line 12: <detail>`, or the detail alone for the whole input. */
  message: string;
  /** What is wrong, without where (for a view that shows the line in a column of its own). */
  detail: string;
  /** True when nothing more could be read after this problem. */
  fatal?: boolean;
}

/** Builds a problem whose message starts with where it is: `line 12: not valid JSON (...)`. */
export function traceProblem(
  code: TraceProblemCode,
  line: number,
  detail: string,
  severity: 'error' | 'warning' = 'error',
  fatal = false,
): TraceProblem {
  const where = line > 0 ? `line ${line}: ` : '';
  const p: TraceProblem = { code, severity, line, message: `${where}${detail}`, detail };
  if (fatal) p.fatal = true;
  return p;
}
