import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage, usageSchema } from '../../../src/records/usage';

describe('addUsage', () => {
  it('adds counts and stays unmarked while every part was reported', () => {
    const actual = addUsage({ ...emptyUsage(), rounds: 1, promptTokens: 100, completionTokens: 20, totalTokens: 120 }, { rounds: 1, promptTokens: 50, totalTokens: 50 });

    expect(actual).toStrictEqual({ rounds: 2, toolCalls: 0, promptTokens: 150, completionTokens: 20, totalTokens: 170 });
  });

  it('marks the sum estimated once any part is, whichever side it came from', () => {
    const estimated = { rounds: 1, promptTokens: 40, completionTokens: 4, totalTokens: 44, estimated: true };

    expect(addUsage(emptyUsage(), estimated).estimated).toBe(true);
    expect(addUsage({ ...emptyUsage(), estimated: true }, { toolCalls: 1 }).estimated).toBe(true);
    expect(addUsage(addUsage(emptyUsage(), estimated), { rounds: 1, promptTokens: 10, totalTokens: 10 })).toStrictEqual({
      rounds: 2,
      toolCalls: 0,
      promptTokens: 50,
      completionTokens: 4,
      totalTokens: 54,
      estimated: true,
    });
  });

  it('reads usage records written before estimates existed', () => {
    const stored = { rounds: 3, toolCalls: 2, promptTokens: 900, completionTokens: 80, totalTokens: 980 };

    expect(usageSchema.parse(stored)).toStrictEqual(stored);
  });
});
