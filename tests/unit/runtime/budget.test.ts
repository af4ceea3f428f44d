import { expect, test } from 'vitest';
import { firstMetStopCondition, narrowBudget, toolCallFits } from '../../../src/runtime/budget';
import { emptyUsage } from '../../../src/records/usage';
import { profileSchema } from '../../../src/settings/schema';

const profile = profileSchema.parse({
  id: 'critic',
  name: 'Critic',
  description: 'Critiques.',
  systemPrompt: '',
  budget: { maxRounds: 6, maxToolCalls: 12, timeoutMs: 60_000 },
});
const live = new AbortController().signal;

test('a delegation can narrow the profile budget but never widen it; the timeout stays the profile’s', () => {
  expect(narrowBudget(profile, { maxRounds: 3 })).toEqual({ maxRounds: 3, maxToolCalls: 12, timeoutMs: 60_000 });
  expect(narrowBudget(profile, { maxRounds: 50, maxToolCalls: 100 })).toEqual({ maxRounds: 6, maxToolCalls: 12, timeoutMs: 60_000 });
  expect(narrowBudget(profile, undefined)).toEqual({ maxRounds: 6, maxToolCalls: 12, timeoutMs: 60_000 });
  expect(narrowBudget(profile, { maxToolCalls: 0 })).toMatchObject({ maxToolCalls: 0 });
});

test('stop conditions: none while under the caps', () => {
  const actual = firstMetStopCondition({ budget: { maxRounds: 2, maxToolCalls: 2 }, usage: { ...emptyUsage(), rounds: 1 }, toolBudgetRefused: false, signal: live });

  expect(actual).toBeUndefined();
});

test('stop conditions: the round cap, a refused tool call, cancellation first', () => {
  const budget = { maxRounds: 2, maxToolCalls: 2 };
  const aborted = AbortSignal.abort();

  expect(firstMetStopCondition({ budget, usage: { ...emptyUsage(), rounds: 2 }, toolBudgetRefused: false, signal: live })?.reason).toBe('round-cap');
  expect(firstMetStopCondition({ budget, usage: emptyUsage(), toolBudgetRefused: true, signal: live })?.reason).toBe('tool-call-cap');
  expect(firstMetStopCondition({ budget, usage: { ...emptyUsage(), rounds: 2 }, toolBudgetRefused: true, signal: aborted })?.reason).toBe('cancelled');
});

test('a tool call fits while the count is under maxToolCalls', () => {
  expect(toolCallFits({ maxRounds: 1, maxToolCalls: 2 }, 1)).toBe(true);
  expect(toolCallFits({ maxRounds: 1, maxToolCalls: 2 }, 2)).toBe(false);
  expect(toolCallFits({ maxRounds: 1, maxToolCalls: 0 }, 0)).toBe(false);
});
