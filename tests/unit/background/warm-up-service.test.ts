import { beforeEach, expect, test } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBackgroundContext } from '../../../src/background/background-context';
import { installWarmUpService, type WarmUpPort } from '../../../src/background/warm-up-service';
import { createAgentRuntime } from '../../../src/runtime/create-agent-runtime';
import { settingsSchema } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { uniqueDatabaseName } from '../../support/record-builders';
import { WARM_UP_PORT_NAME } from '../../../src/messaging/warm-up-port';
import { RUN_PORT_NAME } from '../../../src/messaging/run-port-messages';

beforeEach(() => fakeBrowser.reset());

/** Installs the service on a hand-held listener list and a runtime that counts how often it was made ready. */
function setUp(getRuntime: () => Promise<unknown> = async () => ({})) {
  let listener: ((port: WarmUpPort) => void) | undefined;
  const made = { runtimes: 0 };
  installWarmUpService({
    context: {
      getRuntime: () => {
        made.runtimes += 1;
        return getRuntime();
      },
    },
    connections: { addListener: (added) => void (listener = added) },
  });
  const connect = (name: string, senderId: string | undefined = browser.runtime.id) => {
    const port = { name, sender: { id: senderId }, disconnected: false, disconnect: () => void (port.disconnected = true) };
    listener?.(port);
    return port;
  };
  return { made, connect };
}

test('a warm-up port from this extension makes the runtime ready and is closed at once', () => {
  const { made, connect } = setUp();
  const port = connect(WARM_UP_PORT_NAME);
  expect(port.disconnected).toBe(true);
  expect(made.runtimes).toBe(1);
});

test('another extension’s warm-up port is closed and starts nothing', () => {
  const { made, connect } = setUp();
  const port = connect(WARM_UP_PORT_NAME, 'another-extension');
  expect(port.disconnected).toBe(true);
  expect(made.runtimes).toBe(0);
});

test('other ports (a run’s) are left to their own services', () => {
  const { made, connect } = setUp();
  const port = connect(RUN_PORT_NAME);
  expect(port.disconnected).toBe(false);
  expect(made.runtimes).toBe(0);
});

test('a runtime that cannot be made (the store will not open) is left for the turn to report', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const { made, connect } = setUp(() => Promise.reject(new Error('The store could not open.')));
    connect(WARM_UP_PORT_NAME);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made.runtimes).toBe(1);
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

test('the turn after a warm-up runs on the runtime it made; a settings change between makes a new one', async () => {
  let settings = settingsSchema.parse({ version: 1 });
  let settingsChanged: ((next: typeof settings) => void) | undefined;
  const made: unknown[] = [];
  const context = createBackgroundContext({
    openStore: () => openRunStore({ name: uniqueDatabaseName() }),
    loadSettings: async () => settings,
    watchSettings: (listener) => ((settingsChanged = listener), () => undefined),
    createRuntime: (options) => {
      const runtime = createAgentRuntime(options);
      made.push(runtime);
      return runtime;
    },
  });
  let listener: ((port: WarmUpPort) => void) | undefined;
  installWarmUpService({ context, connections: { addListener: (added) => void (listener = added) } });

  listener?.({ name: WARM_UP_PORT_NAME, sender: { id: browser.runtime.id }, disconnect: () => undefined });
  const forTurn = await context.getRuntime();
  expect(made).toEqual([forTurn]);

  settings = settingsSchema.parse({ version: 1, defaults: { maxRunningChildren: 1 } });
  settingsChanged?.(settings);
  const afterChange = await context.getRuntime();
  expect(made).toHaveLength(2);
  expect(afterChange).not.toBe(forTurn);
});
