import { expect, test } from 'vitest';
import { warmUpOnUserInput, type WarmUpOptions } from '../../../src/bridge/warm-up-on-input';
import { WARM_UP_INTERVAL_MS } from '../../../src/messaging/warm-up-port';

/** A page (an EventTarget), a clock and a site switch; counts the warm-up ports opened. */
function setUp(overrides: Partial<WarmUpOptions> = {}) {
  const page = new EventTarget();
  const state = { now: 1_000_000, siteOn: true, connects: 0 };
  const stop = warmUpOnUserInput(page, {
    isSiteOn: async () => state.siteOn,
    connect: () => (state.connects += 1),
    now: () => state.now,
    // Node's events are never trusted; the default (event.isTrusted) is checked on its own below.
    isUserInput: () => true,
    ...overrides,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const press = async (type = 'keydown') => {
    page.dispatchEvent(new Event(type));
    await settle();
  };
  return { page, state, stop, press };
}

test('a key or pointer press opens one warm-up port, then none until the interval has passed', async () => {
  const { state, press } = setUp();

  await press('keydown');
  await press('keydown');
  await press('pointerdown');
  expect(state.connects).toBe(1);

  state.now += WARM_UP_INTERVAL_MS - 1;
  await press('pointerdown');
  expect(state.connects).toBe(1);

  state.now += 1;
  await press('pointerdown');
  expect(state.connects).toBe(2);
});

test('other events, such as scrolling or a key let go, start nothing', async () => {
  const { state, press } = setUp();
  for (const type of ['keyup', 'wheel', 'scroll', 'input', 'pointermove']) await press(type);
  expect(state.connects).toBe(0);
});

test('a site switched off opens no port; once on again, the next press does', async () => {
  const { state, press } = setUp();
  state.siteOn = false;
  await press();
  expect(state.connects).toBe(0);

  state.siteOn = true;
  state.now += WARM_UP_INTERVAL_MS;
  await press();
  expect(state.connects).toBe(1);
});

test('an event a page script made is not the user’s input: by default only trusted events count', async () => {
  const { state, press } = setUp({ isUserInput: undefined });
  await press('keydown');
  await press('pointerdown');
  expect(state.connects).toBe(0);
});

test('a bridge the extension left behind (connect throws) and a failed site read stay quiet', async () => {
  // Either would be an unhandled rejection in the page, which fails this run.
  let attempts = 0;
  const orphaned = setUp({
    connect: () => {
      attempts += 1;
      throw new Error('Extension context invalidated.');
    },
  });
  await orphaned.press();
  expect(attempts).toBe(1);

  const unreadable = setUp({ isSiteOn: () => Promise.reject(new Error('storage closed')) });
  await unreadable.press();
  expect(unreadable.state.connects).toBe(0);
});

test('the returned function stops it', async () => {
  const { state, stop, press } = setUp();
  stop();
  await press();
  expect(state.connects).toBe(0);
});

test('on its own clock (performance.now), presses in quick succession open one port', async () => {
  const { state, press } = setUp({ now: undefined });
  await press();
  await press('pointerdown');
  expect(state.connects).toBe(1);
});
