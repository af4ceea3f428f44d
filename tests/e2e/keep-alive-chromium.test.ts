import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startChromiumScenario, waitForEndedRuns, type ChromiumScenario } from './chat-turn-scenarios';
import { startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import { readIndexedDb, readRunStore } from './support/settings';

/**
 * Chrome stops an MV3 service worker after 30 s without activity, and a fetch in flight is not
 * activity. Chromium has no setting to shorten that, so this waits it out: one non-streamed model call
 * of 40 s. The background's heartbeat (an extension API call every 5 s) and the bridge's port
 * `keep-alive` (every 15 s) both count as activity here; the test checks that together they hold.
 */
const SLOW_CALL_MS = 40_000;
const REPLY = 'The keeper lights the lamp at last.';

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

describe('Chromium: a non-streamed model call longer than the service worker’s idle time', () => {
  test('the worker is not stopped: the call is made once and the reply reaches the page', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/', { stream: '0' }));
    await waitForFixtureReady(page);
    scenario.model.reset();
    scenario.model.script(() => ({ delayMs: SLOW_CALL_MS, content: REPLY }));
    const before = (await readRunStore(scenario.options)).runs.length;
    const restartsBefore = scenario.browser.serviceWorkerRestarts;

    await startFixtureMessage(page, 'Mara reaches the lighthouse.');
    const state = await waitForFixtureStatus(page, 'done', SLOW_CALL_MS + 30_000);

    expect(state.lastReply).toBe(REPLY);
    expect(scenario.model.requests).toHaveLength(1);
    expect(scenario.browser.serviceWorkerRestarts).toBe(restartsBefore);
    const { runs } = await waitForEndedRuns(scenario.options, before + 1);
    const run = runs.at(-1);
    expect(run?.status).toBe('completed');
    const journal = (await readIndexedDb(scenario.options, { store: 'journal' })) as Array<{ runId: string; type: string }>;
    expect(journal.filter((event) => event.runId === run?.id).map((event) => event.type)).not.toContain('run-resume');
    await page.close();
  }, 120_000);
});
