import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BACKGROUND_HEARTBEAT_MS } from '../../src/background/background-keep-alive';
import { startFirefoxScenario, waitForEndedRuns, type FirefoxScenario } from './chat-turn-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import { readIndexedDb, readRunStore } from './support/settings';

/**
 * Firefox unloads its MV3 event page after `extensions.background.idle.timeout` of idleness, port
 * messages and fetches in flight notwithstanding; the background's keep-alive heartbeat (an extension
 * API call every {@link BACKGROUND_HEARTBEAT_MS}) is what holds it through a long model call. Here the
 * idle timeout is twice the heartbeat and the call lasts longer than the idle timeout, so without the
 * heartbeat Firefox would unload the background mid-call (as restart-firefox.test.ts shows it does
 * with a timeout below the heartbeat).
 */
const IDLE_TIMEOUT_MS = 2 * BACKGROUND_HEARTBEAT_MS;
const SLOW_CALL_MS = IDLE_TIMEOUT_MS + 6_000;
const REPLY = 'The keeper lights the lamp at last.';

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario({ 'extensions.background.idle.timeout': IDLE_TIMEOUT_MS });
});

afterAll(() => scenario?.close());

/**
 * The background's context ids, read from an extension page: `runtime.getContexts` sees an unloaded
 * event page as none, and an API call from another page does not reset the background's idle timer.
 */
function backgroundContextIds(handle: EvaluatingHandle): Promise<string[]> {
  type ContextsApi = { runtime: { getContexts(filter: { contextTypes: string[] }): Promise<Array<{ contextId: string }>> } };
  return evaluateIn(handle, async () => {
    const api = (globalThis as unknown as { browser: ContextsApi }).browser;
    const contexts = await api.runtime.getContexts({ contextTypes: ['BACKGROUND'] });
    return contexts.map((context) => context.contextId);
  }, undefined);
}

describe('Firefox: a model call longer than the idle timeout', () => {
  test('the background stays loaded: the call is made once, the reply reaches the page, no restart', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/', { stream: '0' }));
    await waitForFixtureReady(page);
    scenario.model.reset();
    scenario.model.script(() => ({ delayMs: SLOW_CALL_MS, content: REPLY }));
    const before = (await readRunStore(scenario.options)).runs.length;

    await startFixtureMessage(page, 'Mara reaches the lighthouse.');
    await waitUntil(() => scenario.model.requests.length > 0 || undefined, { description: 'the slow model call', timeoutMs: 20_000 });
    const duringCall = await backgroundContextIds(scenario.options);
    const state = await waitForFixtureStatus(page, 'done', SLOW_CALL_MS + 30_000);
    const afterCall = await backgroundContextIds(scenario.options);

    expect(state.lastReply).toBe(REPLY);
    expect(scenario.model.requests).toHaveLength(1);
    expect(duringCall).toHaveLength(1);
    expect(afterCall).toEqual(duringCall);
    const { runs } = await waitForEndedRuns(scenario.options, before + 1);
    const run = runs.at(-1);
    expect(run?.status).toBe('completed');
    const journal = (await readIndexedDb(scenario.options, { store: 'journal' })) as Array<{ runId: string; type: string }>;
    expect(journal.filter((event) => event.runId === run?.id).map((event) => event.type)).not.toContain('run-resume');
    await page.close();
  }, 90_000);

  test('once the run has ended, the background idles out as usual', async () => {
    const unloaded = await waitUntil(async () => ((await backgroundContextIds(scenario.options)).length === 0 ? true : undefined), {
      description: 'the background unloaded after its idle timeout',
      timeoutMs: IDLE_TIMEOUT_MS + 20_000,
    });

    expect(unloaded).toBe(true);
  }, 60_000);
});
