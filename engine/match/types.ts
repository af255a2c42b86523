import type { JsonValue } from '../model/json.ts';

// The explanation vocabulary of conditions: produced by this layer (compileCondition) and by code matchers,
// rendered by the debugger. Dispatch's explanations (engine/dispatch/types.ts) embed it.

export type ClauseOp =
  | 'eq' | 'ne' | 'in' | 'nin' | 'regex' | 'prefix' | 'suffix' | 'contains' | 'exists' | 'gt' | 'gte' | 'lt' | 'lte';

export type ConditionExplain =
  | {
      kind: 'clause';
      path: string;
      op: ClauseOp;
      expected: JsonValue;
      /** Absent when the path is missing. */
      actual?: JsonValue;
      missing: boolean;
      pass: boolean;
      /** The near-miss hint for a missing path: "`payload.input` is missing; the payload has `user_input`". */
      hint?: string;
    }
  | { kind: 'all' | 'any'; pass: boolean; children: ConditionExplain[] }
  | { kind: 'not'; pass: boolean; child: ConditionExplain }
  | { kind: 'code'; pass: boolean; logs: string[]; duration_ms: number; error?: { kind: string; message: string; line?: number; column?: number } };
