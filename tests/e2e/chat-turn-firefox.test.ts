import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDelegatingTurn, waitForEndedRuns, startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { waitForFixtureReady } from './support/fixture-pages';
import { readRunStore } from './support/settings';
import { LIVE_REPLY_SELECTOR } from './support/reply-growth';
import { runStreamedReplyTurn, stopDuringStreamedReply } from './streamed-reply-scenarios';

/** The main scenario in Firefox ESR: the MV3 build, configured through the settings document. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: a chat turn becomes a delegated run', () => {
  test('on the SillyTavern-shaped page, streamed: the reply carries both capsules, progress shows as reasoning', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model' }));
    await waitForFixtureReady(page);
    const before = (await readRunStore(scenario.options)).runs.length;
    const turn = await runDelegatingTurn(page, scenario.model, 'Tell me about the lighthouse.');
    expect(turn.reasoning).toMatch(/scene-critic.*started/);
    const { runs } = await waitForEndedRuns(scenario.options, before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'completed', adapter: 'sillytavern' });
    await page.close();
  });

  test('on the OpenAI-style page, as JSON', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/', { stream: '0' }));
    await waitForFixtureReady(page);
    const turn = await runDelegatingTurn(page, scenario.model, 'Mara reaches the lighthouse.');
    expect(turn.streamed).toBe(false);
    await page.close();
  });
});

describe('Firefox: the reply streams into the page as the model writes it', () => {
  test('on the SillyTavern-shaped page', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model' }));
    await runStreamedReplyTurn(page, scenario.model, LIVE_REPLY_SELECTOR.sillyTavern);
    await page.close();
  });

  test('on the OpenAI-style page', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    await runStreamedReplyTurn(page, scenario.model, LIVE_REPLY_SELECTOR.openaiChat);
    await page.close();
  });

  test('Stop during the streamed reply ends the model call', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model' }));
    await stopDuringStreamedReply(page, scenario.model, LIVE_REPLY_SELECTOR.sillyTavern);
    await page.close();
  });
});
