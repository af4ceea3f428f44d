import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { runDelegatingTurn, waitForEndedRuns, startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import type { FirefoxWithExtension } from './support/firefox';
import { waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readRunStore } from './support/settings';

/** The main scenario in Firefox ESR: the MV3 build, configured through the settings document. */

let scenario: FirefoxScenario;
let model: ScriptedModelServer;
let fixtures: FixtureServer;
let firefox: FirefoxWithExtension;
let options: Page;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
  ({ model, fixtures, browser: firefox, options } = scenario);
});

afterAll(() => scenario?.close());

describe('Firefox: a chat turn becomes a delegated run', () => {
  test('on the SillyTavern-shaped page, streamed: the reply carries both capsules, progress shows as reasoning', async () => {
    const page = await firefox.openPage(fixtures.pageUrl('/sillytavern/', { model: 'scripted-model' }));
    await waitForFixtureReady(page);
    const before = (await readRunStore(options)).runs.length;
    const turn = await runDelegatingTurn(page, model, 'Tell me about the lighthouse.');
    expect(turn.reasoning).toMatch(/scene-critic.*started/);
    const { runs } = await waitForEndedRuns(options, before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'completed', adapter: 'sillytavern' });
    await page.close();
  });

  test('on the OpenAI-style page, as JSON', async () => {
    const page = await firefox.openPage(fixtures.pageUrl('/openai-chat/', { stream: '0' }));
    await waitForFixtureReady(page);
    const turn = await runDelegatingTurn(page, model, 'Mara reaches the lighthouse.');
    expect(turn.streamed).toBe(false);
    await page.close();
  });
});
