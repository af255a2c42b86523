import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { runCodeOn } from '../../../engine/sandbox/runCode.ts';
import type { QuickJSSandbox } from '../../../engine/sandbox/quickjsSandbox.ts';
import { CASE_LIMITS, caseInput, checkCase, SANDBOX_CASES } from '../../shared/sandboxCases.ts';

// The Node runner of the shared case list (the browser runner is e2e/sandbox.spec.ts). One sandbox for
// all cases, in order, as dispatch would use it: each case also shows that the ones before it left the
// runtime usable.
let sandbox: QuickJSSandbox;
beforeAll(async () => {
  sandbox = await createNodeSandbox();
});
afterAll(() => sandbox.dispose());

describe('shared sandbox cases (Node)', () => {
  for (const c of SANDBOX_CASES) {
    it(c.name, () => {
      const reports = runCodeOn(sandbox, c.spec, c.inputs ?? [caseInput()], c.limits ?? CASE_LIMITS);
      expect(checkCase(c, reports)).toEqual([]);
    });
  }
});
