import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectTurnPassesThroughAfterSwitchOff, runDelegatingTurn, waitForEndedRuns, startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import { startFixtureServer } from './support/fixture-server';
import { readRunStore } from './support/settings';
import { inviteStrangers, strangerReports } from './support/strangers';
import { LIVE_REPLY_SELECTOR } from './support/reply-growth';
import { READING_SHAPES, runReadingShapeTurn, runStreamedReplyTurn, stopDuringStreamedReply } from './streamed-reply-scenarios';

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

  test('frames, a sandboxed srcdoc frame, a popup and a second connect get nothing; the page’s own turn is delegated', async () => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    await waitForFixtureReady(page);
    const before = (await readRunStore(scenario.options)).runs.length;
    await inviteStrangers(page, scenario.fixtures.origins.secondary);
    await runDelegatingTurn(page, scenario.model, 'Mara reaches the lighthouse.');
    expect(await strangerReports(page)).toEqual({ frame: [], srcdoc: [], popup: [], 'page-again': [] });
    const { runs } = await waitForEndedRuns(scenario.options, before + 1);
    expect(runs.length).toBe(before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'completed', origin: scenario.fixtures.origins.primary });
    await page.close();
  });

  test('another port of an enabled host is another site: its turns go to its server untouched', async () => {
    // Firefox match patterns carry no port, so the hook is in this page too; the bridge's exact-origin check keeps it out.
    const otherPort = await startFixtureServer({ modelBaseUrl: scenario.model.baseURL });
    try {
      const page = await scenario.browser.openPage(otherPort.pageUrl('/openai-chat/', { stream: '0' }));
      await waitForFixtureReady(page);
      scenario.model.reset();
      scenario.model.script(() => ({ content: 'Straight from the model.' }));
      const turn = await sendFixtureMessage(page, 'Hello');
      expect(turn).toMatchObject({ status: 'done', reply: 'Straight from the model.' });
      expect(scenario.model.requests.map((request) => request.toolNames)).toEqual([[]]);
      await page.close();
    } finally {
      await otherPort.close();
    }
  });

  test('a site switched off while its page is open: the next turn goes to the page’s server untouched', async () => {
    await expectTurnPassesThroughAfterSwitchOff({
      ...scenario,
      openPage: async () => {
        const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/', { stream: '0' }));
        await waitForFixtureReady(page);
        return page;
      },
    });
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

describe('Firefox: the page ends with the reply the final reading keeps', () => {
  for (const shape of READING_SHAPES) {
    test(`${shape.name}, on both fixture pages`, async () => {
      for (const url of [scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model' }), scenario.fixtures.pageUrl('/openai-chat/')]) {
        const page = await scenario.browser.openPage(url);
        await runReadingShapeTurn(page, scenario.model, shape, scenario.options);
        await page.close();
      }
    });
  }
});
