import { describe, expect, it } from 'vitest';
import { budgetReason, defaultAction, withBudgetKey } from '../../../web/model/nodeFactory.ts';

describe('the budget handler\'s default reason', () => {
  it('follows its state key while it is the default, and stays once the user wrote their own', () => {
    const a = defaultAction('budget');
    if (a.type !== 'budget') throw new Error('fixture');
    expect(a.reason).toBe('Budget of {{state.calls}} calls exceeded');
    const t = withBudgetKey(a, 'tokens');
    expect(t).toMatchObject({ key: 'tokens', reason: 'Budget of {{state.tokens}} tokens exceeded' });
    // Typing key by key keeps following.
    expect(withBudgetKey(withBudgetKey(t, 'tokensx'), 'tokensxy').reason).toBe(budgetReason('tokensxy'));
    const own = { ...t, reason: 'Too many tokens' };
    expect(withBudgetKey(own, 'other').reason).toBe('Too many tokens');
    // A key that cannot go in a template path is named without the count.
    expect(budgetReason('my key')).toBe('Budget "my key" exceeded');
    expect(withBudgetKey(t, 'my key').reason).toBe('Budget "my key" exceeded');
  });
});
