import { expect, test } from 'vitest';
import { createRunRateLimit, MAX_RUNS_PER_ORIGIN_PER_MINUTE } from '../../../src/background/run-rate-limit';

test(`an origin may start ${MAX_RUNS_PER_ORIGIN_PER_MINUTE} runs in any minute; other origins count on their own`, () => {
  let now = 0;
  const limit = createRunRateLimit({ now: () => now });
  const origin = 'http://127.0.0.1:8000';

  const first = Array.from({ length: MAX_RUNS_PER_ORIGIN_PER_MINUTE }, () => limit.tryStart(origin));
  const over = limit.tryStart(origin);
  const elsewhere = limit.tryStart('http://localhost:3000');
  now = 59_999;
  const stillOver = limit.tryStart(origin);
  now = 60_000;
  const again = limit.tryStart(origin);

  expect(first.every(Boolean)).toBe(true);
  expect([over, elsewhere, stillOver, again]).toEqual([false, true, false, true]);
  expect(limit.perMinute).toBe(MAX_RUNS_PER_ORIGIN_PER_MINUTE);
});
