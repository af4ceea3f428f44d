import { expect, test } from 'vitest';
import { narrowBudget } from '../../../src/runtime/budget';
import { profileSchema } from '../../../src/settings/schema';

const profile = profileSchema.parse({
  id: 'critic',
  name: 'Critic',
  description: 'Critiques.',
  systemPrompt: '',
  budget: { maxRounds: 6, maxToolCalls: 12, timeoutMs: 60_000 },
});

test('a delegation can narrow the profile budget but never widen it; the timeout stays the profile’s', () => {
  expect(narrowBudget(profile, { maxRounds: 3 })).toEqual({ maxRounds: 3, maxToolCalls: 12, timeoutMs: 60_000 });
  expect(narrowBudget(profile, { maxRounds: 50, maxToolCalls: 100 })).toEqual({ maxRounds: 6, maxToolCalls: 12, timeoutMs: 60_000 });
  expect(narrowBudget(profile, undefined)).toEqual({ maxRounds: 6, maxToolCalls: 12, timeoutMs: 60_000 });
  expect(narrowBudget(profile, { maxToolCalls: 0 })).toMatchObject({ maxToolCalls: 0 });
});
