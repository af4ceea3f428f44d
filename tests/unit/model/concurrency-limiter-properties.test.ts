import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createConcurrencyLimiter, type ReleaseSlot } from '../../../src/model/concurrency-limiter';

/**
 * The limiter against a plain model of it, over random sequences of callers asking (urgent or
 * not), holders releasing and waiters giving up: never more slots in use than its cap, and slots go
 * to the urgent waiters in turn, then to the others in turn.
 */
type Step = { kind: 'ask'; urgent: boolean } | { kind: 'release'; pick: number } | { kind: 'give-up'; pick: number };

const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('ask' as const), urgent: fc.boolean() }),
    fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('give-up' as const), pick: fc.nat() }),
  ),
  { maxLength: 60 },
);

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('slots never exceed the cap and go to urgent waiters first, each kind in the order it asked', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 4 }), steps, async (cap, plan: Step[]) => {
      const limiter = createConcurrencyLimiter(cap);
      const holders: { id: number; release: ReleaseSlot }[] = [];
      const waiting: { id: number; urgent: boolean; controller: AbortController }[] = [];
      const granted: number[] = [];
      const expectedGrants: number[] = [];
      let next = 0;
      for (const step of plan) {
        if (step.kind === 'ask') {
          const id = next++;
          const controller = new AbortController();
          const free = holders.length < cap && waiting.length === 0;
          if (free) expectedGrants.push(id);
          else waiting.push({ id, urgent: step.urgent, controller });
          void limiter.acquire(controller.signal, { urgent: step.urgent }).then(
            (release) => {
              granted.push(id);
              holders.push({ id, release });
            },
            () => undefined,
          );
        } else if (step.kind === 'release' && holders.length > 0) {
          const [holder] = holders.splice(step.pick % holders.length, 1);
          holder?.release();
          // The model: the first urgent waiter, else the first waiter.
          const index = Math.max(0, waiting.findIndex((waiter) => waiter.urgent));
          const [taken] = waiting.splice(index, 1);
          if (taken) expectedGrants.push(taken.id);
        } else if (step.kind === 'give-up' && waiting.length > 0) {
          const [leaving] = waiting.splice(step.pick % waiting.length, 1);
          leaving?.controller.abort('gave up');
        }
        await settle();
        expect(granted).toEqual(expectedGrants);
        expect(limiter.active).toBe(holders.length);
        expect(limiter.active).toBeLessThanOrEqual(cap);
        expect(limiter.waiting).toBe(waiting.length);
      }
    }),
    { numRuns: 150 },
  );
});
