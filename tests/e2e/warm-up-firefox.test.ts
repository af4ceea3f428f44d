import { afterAll, beforeAll } from 'vitest';
import { BACKGROUND_HEARTBEAT_MS } from '../../src/background/background-keep-alive';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { evaluateIn, waitUntil } from './support/evaluating-handle';
import { describeWarmUp, type WarmUpScenario } from './warm-up-scenarios';

/**
 * The user's input in an enabled page starts an unloaded event page (src/bridge/warm-up-on-input.ts).
 * Firefox unloads an idle background after `extensions.background.idle.timeout`; shortened here (below
 * the heartbeat, which holds it while a run works) so a test waits seconds, not half a minute.
 */
const IDLE_TIMEOUT_MS = 2_000;
if (IDLE_TIMEOUT_MS >= BACKGROUND_HEARTBEAT_MS) throw new Error('The idle timeout must be shorter than the heartbeat.');

let scenario: FirefoxScenario;
let watched: WarmUpScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario({ 'extensions.background.idle.timeout': IDLE_TIMEOUT_MS });
  const { browser: firefox, options } = scenario;
  // An event page's window while it is loaded, null once Firefox unloaded it; asking does not load it.
  const isRunning = () =>
    evaluateIn(options, () => (globalThis as unknown as { browser: { extension: { getBackgroundPage(): unknown } } }).browser.extension.getBackgroundPage() !== null, undefined);
  watched = {
    ...scenario,
    background: {
      isRunning,
      stop: async () => {
        await waitUntil(async () => !(await isRunning()), { description: 'Firefox to unload the idle background', timeoutMs: 20_000, intervalMs: 200 });
      },
    },
    openUrl: (url) => firefox.openPage(url),
  };
});

afterAll(() => scenario?.close());

describeWarmUp('Firefox: the user at the page starts an unloaded background', () => watched, 90_000);
