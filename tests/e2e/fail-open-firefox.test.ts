import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDelegatingTurn, startFirefoxScenario, waitForEndedRuns, type FirefoxScenario } from './chat-turn-scenarios';
import { expectFallbackWithReason, expectHistoryRefusedFallback, STRICT_TEMPLATE_PAGES, expectPlainReply, expectPromptedDelegation, FAIL_OPEN_PAGES, PLAIN_REPLY, PROMPTED_PAGES, scriptRefusalAfterProgress } from './fail-open-scenarios';
import { waitForFixtureReady } from './support/fixture-pages';
import { TOOL_PROTOCOL_STORAGE_KEY } from '../../src/model/tool-protocol-memory';
import { readRunStore, writeStorage } from './support/settings';

/**
 * Fail open in Firefox ESR on both fixture pages, and a page that sends `fetch(new Request(…))`
 * (Firefox has no `Request.prototype.body`, so the page hook reads a clone).
 */

let scenario: FirefoxScenario;
let panel: Awaited<ReturnType<FirefoxScenario['browser']['openExtensionPage']>>;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
  panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
});

afterAll(() => scenario?.close());

async function openFixture(path: string, query: Record<string, string> = {}): Promise<Page> {
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl(path, query));
  await waitForFixtureReady(page);
  return page;
}

describe('Firefox: an endpoint that refuses everything Retinue adds', () => {
  test.each(FAIL_OPEN_PAGES)('%s %o gets the page’s own plain reply; the side panel says why', async (path, query) => {
    const page = await openFixture(path, query);
    await expectFallbackWithReason({ page, model: scenario.model, store: scenario.options, panel });
    await page.close();
  });

  test('a refusal after progress was streamed: the page’s own answer follows in the same stream', async () => {
    const page = await openFixture('/sillytavern/', { model: 'scripted-model' });
    scriptRefusalAfterProgress(scenario.model);
    const turn = await expectPlainReply({ page, model: scenario.model, store: scenario.options });
    expect(turn.reasoning).toMatch(/scene-critic.*started/);
    expect(turn.reply).toBe(PLAIN_REPLY);
    await page.close();
  });
});

describe('Firefox: an endpoint without native tool calling', () => {
  // Refusals above may have left the endpoint remembered as prompted-only: start from native, as a new user does.
  beforeAll(() => writeStorage(scenario.options, { [TOOL_PROTOCOL_STORAGE_KEY]: {} }));
  afterAll(() => writeStorage(scenario.options, { [TOOL_PROTOCOL_STORAGE_KEY]: {} }));

  test.each(PROMPTED_PAGES)('%s %o still gets a delegated turn through the prompted protocol', async (path, query) => {
    const page = await openFixture(path, query);
    await expectPromptedDelegation({ page, model: scenario.model, store: scenario.options });
    await page.close();
  });
});

describe('Firefox: a page that sends fetch(new Request(…))', () => {
  // The refusing endpoint above was remembered as prompted-only; here the same endpoint takes tools again.
  beforeAll(() => writeStorage(scenario.options, { [TOOL_PROTOCOL_STORAGE_KEY]: {} }));

  test.each<Record<string, string>>([{ input: 'request' }, { input: 'request', stream: '0' }])('%o is intercepted and becomes a delegated run', async (query) => {
    const page = await openFixture('/openai-chat/', query);
    const before = (await readRunStore(scenario.options)).runs.length;
    await runDelegatingTurn(page, scenario.model, 'Mara reaches the lighthouse.');
    const { runs } = await waitForEndedRuns(scenario.options, before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'completed', adapter: 'openai-chat' });
    await page.close();
  });
});

describe('Firefox: a strict chat template that refuses a native history', () => {
  // Start from native tools, as a new user does.
  beforeAll(() => writeStorage(scenario.options, { [TOOL_PROTOCOL_STORAGE_KEY]: {} }));

  test.each(STRICT_TEMPLATE_PAGES)('%s %o gets the page’s own plain reply; the side panel names the template', async (path, query) => {
    const page = await openFixture(path, query);
    await expectHistoryRefusedFallback({ page, model: scenario.model, store: scenario.options, panel });
    await page.close();
  });
});
