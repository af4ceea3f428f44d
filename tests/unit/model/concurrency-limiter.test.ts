import { describe, expect, test } from 'vitest';
import { CancelledError } from '../../../src/errors';
import { createConcurrencyLimiter } from '../../../src/model/concurrency-limiter';

describe('concurrency limiter', () => {
  test('grants slots up to the cap, then first come first served', async () => {
    const limiter = createConcurrencyLimiter(2);
    const order: string[] = [];
    const first = await limiter.acquire();
    const second = await limiter.acquire();
    const third = limiter.acquire().then((release) => (order.push('third'), release));
    const fourth = limiter.acquire().then((release) => (order.push('fourth'), release));

    expect([limiter.active, limiter.waiting]).toEqual([2, 2]);
    first();
    first();
    (await third)();
    second();
    (await fourth)();

    expect(order).toEqual(['third', 'fourth']);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  test('a caller whose signal aborts while waiting leaves the queue with CancelledError', async () => {
    const limiter = createConcurrencyLimiter(1);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);

    controller.abort('task timed out');

    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    await expect(waiting).rejects.toThrow('task timed out');
    expect(limiter.waiting).toBe(0);
    held();
    expect(limiter.active).toBe(0);
  });

  test('run releases the slot when the work throws', async () => {
    const limiter = createConcurrencyLimiter(1);

    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');

    expect(limiter.active).toBe(0);
  });

  test('an urgent caller waits ahead of the callers that are not, in turn with other urgent ones, and takes no slot from a holder', async () => {
    const limiter = createConcurrencyLimiter(1);
    const order: string[] = [];
    const granted = (name: string, waiting: Promise<() => void>) => waiting.then((release) => (order.push(name), release));
    const held = await limiter.acquire();
    const helperOne = granted('helper one', limiter.acquire());
    const helperTwo = granted('helper two', limiter.acquire());
    const rootFirst = granted('root first', limiter.acquire(undefined, { urgent: true }));
    const rootSecond = granted('root second', limiter.acquire(undefined, { urgent: true }));

    expect([limiter.active, limiter.waiting]).toEqual([1, 4]);
    await Promise.resolve();
    expect(order).toEqual([]);
    held();
    (await rootFirst)();
    (await rootSecond)();
    (await helperOne)();
    (await helperTwo)();

    expect(order).toEqual(['root first', 'root second', 'helper one', 'helper two']);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  test('an urgent caller whose signal aborts leaves the queue, and the slot goes to the next in line', async () => {
    const limiter = createConcurrencyLimiter(1);
    const held = await limiter.acquire();
    const helper = limiter.acquire();
    const controller = new AbortController();
    const root = limiter.acquire(controller.signal, { urgent: true });

    controller.abort('the reply is due');
    await expect(root).rejects.toBeInstanceOf(CancelledError);
    held();

    (await helper)();
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });
});
