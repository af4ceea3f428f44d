import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createBackgroundKeepAlive, whileHeld } from '../../../src/background/background-keep-alive';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function countingPing() {
  const ping = { count: 0, call: () => ((ping.count += 1), Promise.resolve()) };
  return ping;
}

test('pings at once and every interval while held, and stops with the last release', async () => {
  const ping = countingPing();
  const keepAlive = createBackgroundKeepAlive({ ping: ping.call, intervalMs: 1_000 });

  const releaseFirst = keepAlive.hold();
  const releaseSecond = keepAlive.hold();
  await vi.advanceTimersByTimeAsync(3_000);
  const whileBothHeld = ping.count;
  releaseFirst();
  releaseFirst();
  await vi.advanceTimersByTimeAsync(2_000);
  const whileOneHeld = ping.count;
  const holdsLeft = keepAlive.holds;
  releaseSecond();
  await vi.advanceTimersByTimeAsync(10_000);

  expect(whileBothHeld).toBe(4);
  expect(whileOneHeld).toBe(6);
  expect(holdsLeft).toBe(1);
  expect(ping.count).toBe(6);
  expect(keepAlive.holds).toBe(0);
});

test('nothing pings while nothing is held; a new hold starts again', async () => {
  const ping = countingPing();
  const keepAlive = createBackgroundKeepAlive({ ping: ping.call, intervalMs: 1_000 });

  await vi.advanceTimersByTimeAsync(5_000);
  const idle = ping.count;
  const release = keepAlive.hold();
  await vi.advanceTimersByTimeAsync(1_000);
  release();

  expect(idle).toBe(0);
  expect(ping.count).toBe(2);
});

test('a failing ping does not stop the heartbeat or reach the work', async () => {
  let calls = 0;
  const keepAlive = createBackgroundKeepAlive({
    ping: () => {
      calls += 1;
      throw new Error('no extension API here');
    },
    intervalMs: 1_000,
  });

  const release = keepAlive.hold();
  await vi.advanceTimersByTimeAsync(2_000);
  release();

  expect(calls).toBe(3);
});

test('whileHeld holds until the work settles, and passes its result or its error on', async () => {
  const keepAlive = createBackgroundKeepAlive({ ping: () => Promise.resolve(), intervalMs: 1_000 });
  let finish: (value: string) => void = () => undefined;

  const held = whileHeld(keepAlive, () => new Promise<string>((resolve) => (finish = resolve)));
  const holdsDuring = keepAlive.holds;
  finish('reply');
  const result = await held;
  const failed = whileHeld(keepAlive, () => Promise.reject(new Error('model down')));

  expect(holdsDuring).toBe(1);
  expect(result).toBe('reply');
  await expect(failed).rejects.toThrow('model down');
  expect(keepAlive.holds).toBe(0);
});
