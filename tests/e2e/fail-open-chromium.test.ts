import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { expectFallbackWithReason, expectHistoryRefusedFallback, STRICT_TEMPLATE_PAGES, expectPlainReply, expectPromptedDelegation, FAIL_OPEN_PAGES, PLAIN_REPLY, PROMPTED_PAGES, scriptRefusalAfterProgress } from './fail-open-scenarios';
import { waitForFixtureReady } from './support/fixture-pages';
import { TOOL_PROTOCOL_STORAGE_KEY } from '../../src/model/tool-protocol-memory';
import { writeStorage } from './support/settings';
import { saveScreenshot } from './support/screenshots';

/** Fail open in Chromium on both fixture pages: the page's own plain reply, and the side panel's reason. */

let scenario: ChromiumScenario;
let panel: Page;

beforeAll(async () => {
  scenario = await startChromiumScenario();
  panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
});

afterAll(() => scenario?.close());

async function openFixture(path: string, query: Record<string, string> = {}): Promise<Page> {
  const page = await scenario.browser.context.newPage();
  await page.goto(scenario.fixtures.pageUrl(path, query));
  await waitForFixtureReady(page);
  return page;
}

describe('Chromium: an endpoint that refuses everything Retinue adds', () => {
  test.each(FAIL_OPEN_PAGES)('%s %o gets the page’s own plain reply; the side panel says why', async (path, query) => {
    const page = await openFixture(path, query);
    await expectFallbackWithReason({ page, model: scenario.model, store: scenario.options, panel });
    await page.close();
  });

  test('a refusal after progress was streamed: the page’s own answer follows in the same stream', async () => {
    const page = await openFixture('/openai-chat/');
    scriptRefusalAfterProgress(scenario.model);
    const turn = await expectPlainReply({ page, model: scenario.model, store: scenario.options });
    expect(turn.reasoning).toMatch(/scene-critic.*started/);
    expect(turn.reply).toBe(PLAIN_REPLY);
    await saveScreenshot(panel, 'side-panel-chromium-fallback');
    await page.close();
  });
});

describe('Chromium: an endpoint without native tool calling', () => {
  // Refusals above may have left the endpoint remembered as prompted-only: start from native, as a new user does.
  beforeAll(() => writeStorage(scenario.options, { [TOOL_PROTOCOL_STORAGE_KEY]: {} }));
  afterAll(() => writeStorage(scenario.options, { [TOOL_PROTOCOL_STORAGE_KEY]: {} }));

  test.each(PROMPTED_PAGES)('%s %o still gets a delegated turn through the prompted protocol', async (path, query) => {
    const page = await openFixture(path, query);
    await expectPromptedDelegation({ page, model: scenario.model, store: scenario.options });
    await page.close();
  });
});

describe('Chromium: a strict chat template that refuses a native history', () => {
  // Start from native tools, as a new user does.
  beforeAll(() => writeStorage(scenario.options, { [TOOL_PROTOCOL_STORAGE_KEY]: {} }));

  test.each(STRICT_TEMPLATE_PAGES)('%s %o gets the page’s own plain reply; the side panel names the template', async (path, query) => {
    const page = await openFixture(path, query);
    await expectHistoryRefusedFallback({ page, model: scenario.model, store: scenario.options, panel });
    await page.close();
  });
});
