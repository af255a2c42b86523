/**
 * Problems the user can fix (a bad pipeline, a bad trace line) are values, never exceptions: a code from
 * the table below, where it is (a JSON path into the document), and a readable message.
 */
export type ProblemSeverity = 'error' | 'warning';

export type JsonPath = readonly (string | number)[];

export interface Problem {
  code: ProblemCode;
  severity: ProblemSeverity;
  /** Path into the document, e.g. ['nodes', 3, 'when', 'payload.tool_name', 'regex']. */
  path: JsonPath;
  message: string;
  /** The node the problem concerns, when there is one (the editor marks it). */
  node_id?: string;
  /** For a problem in a node's code: where in the source (1-based), so an editor can put the cursor there. */
  at?: { line: number; column: number };
}

/** Every problem code, with what it means. One table, so messages stay consistent. */
export const PROBLEM_CODES = {
  not_json: 'The file is not valid JSON.',
  too_deep: 'The document nests JSON deeper than the limit (128 levels) [V9].',
  not_a_pipeline: 'The document is not a Hookwire pipeline (format is missing or different).',
  future_version: 'The pipeline was written by a newer Hookwire.',
  migration_failed: 'An older pipeline could not be migrated.',
  schema: 'A field has the wrong shape or type.',
  unknown_field: 'A field is not part of the format.',
  duplicate_id: 'Two nodes share an id.',
  missing_node: 'A wire refers to a node that does not exist.',
  bad_wire: 'A wire joins nodes in a direction the pipeline does not allow.',
  duplicate_wire: 'The same wire appears twice.',
  cycle: 'Wires form a cycle.',
  bad_pattern: 'An event pattern is not exact, prefix.* or *.',
  bad_event_type: 'An event type name is not a dotted identifier.',
  unknown_operator: 'A condition uses an operator Hookwire does not know.',
  bad_operand: 'An operator got a value of the wrong kind.',
  bad_path: 'A path does not start with payload., state., meta. or event.',
  bad_regex: 'A regular expression does not compile (RE2 syntax: no backreferences or lookaround).',
  empty_matcher: 'A matcher has no condition.',
  code_error: 'Code does not compile.',
  no_sandbox: 'Code nodes need a sandbox and none was given.',
  bad_template: 'A reason template has an unclosed placeholder.',
  unreachable_handler: 'No event node leads to this handler.',
  shadowed_handler: 'An earlier unconditional block or terminate on the same events means this handler never runs.',
  conflicting_rewrites: 'Two handlers rewrite the same field on the same event.',
  dangling_node: 'An event or matcher node leads to no handler.',
  misspelled_event: 'An event pattern is not a catalogue event type but is one or two edits from one (did you mean …?).',
  breaker_policy: 'A handler that can block has a breaker but does not say what happens while it is open (while_open).',
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/** Formats a path for people: nodes[3].when["payload.tool_name"].regex */
export function formatPath(path: JsonPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out || '(document)';
}
