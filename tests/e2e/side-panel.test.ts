import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { runDelegatingTurn, waitForEndedRuns, startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import type { ChromiumWithExtension } from './support/chromium';
import { defaultDelegations, scriptDelegatingRoot } from './support/delegating-root-script';
import { sendFixtureMessage, startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { HOSTILE_RESULT, putWorkspaceFile, readHostileFindings, SANITISED_FINDINGS } from './support/hostile-markdown';
import { readNarrowLayoutProblems } from './support/narrow-layout';
import { saveScreenshot } from './support/screenshots';

/** The side panel after a real delegated chat turn, in Chromium (opened as a tab, at panel width). */


let scenario: ChromiumScenario;
let model: ScriptedModelServer;
let fixtures: FixtureServer;
let chromium: ChromiumWithExtension;
let options: Page;
let panel: Page;

beforeAll(async () => {
  scenario = await startChromiumScenario();
  ({ model, fixtures, browser: chromium, options } = scenario);
  panel = await chromium.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(fixtures.origins.primary)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
});

afterAll(() => scenario?.close());

describe('Chromium: the side panel', () => {
  test('tells a new user what to do before the first run', async () => {
    await panel.getByRole('heading', { name: 'Nothing here yet' }).waitFor();
    expect(await panel.getByText(fixtures.origins.primary, { exact: true }).count()).toBe(1);
    expect(await panel.getByRole('switch', { name: 'On for this site' }).isChecked()).toBe(true);
    await saveScreenshot(panel, 'side-panel-empty-chromium');
  });

  test('follows a delegated run live and lists its tasks with their results', async () => {
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/openai-chat/'));
    await waitForFixtureReady(page);
    await runDelegatingTurn(page, model, 'Mara reaches the lighthouse.');
    const { runs, tasks } = await waitForEndedRuns(options, 1);
    await page.close();

    // No reload: the run arrived over the panel's Port from the journal.
    const taskRows = panel.locator('.task-row');
    await panel.waitForFunction(() => document.querySelectorAll('.task-row[data-status="completed"]').length === 2, undefined, { timeout: 20_000 });
    // The run's own end event may come after its tasks': wait for it rather than read the badge once.
    await panel.waitForFunction(() => document.querySelector('.run-view .run-head .status-badge')?.textContent === 'Completed', undefined, { timeout: 20_000 });
    expect(await taskRows.locator('.task-agent').allTextContents()).toEqual(defaultDelegations.map((delegation) => delegation.agentId));
    expect(await taskRows.locator('.task-title').allTextContents()).toEqual(defaultDelegations.map((delegation) => delegation.title));
    expect(await panel.getByRole('button', { name: /^Cancel/ }).count()).toBe(0);

    const first = defaultDelegations[0]!;
    await panel.locator('.task-row').first().getByRole('button', { name: first.title }).click();
    await panel.locator('.task-row').first().locator('.markdown-body').getByText(first.finding, { exact: false }).first().waitFor();
    expect(await panel.locator('.task-row').first().getByRole('button', { name: first.title }).getAttribute('aria-expanded')).toBe('true');
    expect(await panel.locator('.task-row').first().locator('.artifact-path').allTextContents()).toContain('summaries/result.md');
    expect(runs).toHaveLength(1);
    expect(tasks.map((task) => task.status)).toEqual(['completed', 'completed']);
    await saveScreenshot(panel, 'side-panel-light-chromium');
    await panel.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(panel, 'side-panel-dark-chromium');
    await panel.emulateMedia({ colorScheme: 'light' });
  });

  test('at 232 px wide (as Firefox opened it), rows wrap or truncate: no badge covers an agent’s name', async () => {
    const narrow = await chromium.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(fixtures.origins.primary)}`);
    await narrow.setViewportSize({ width: 232, height: 900 });
    await narrow.waitForFunction(() => document.querySelectorAll('.task-row[data-status="completed"]').length === 2 && document.querySelector('.history-row') !== null, undefined, { timeout: 20_000 });

    const problems = await narrow.evaluate(readNarrowLayoutProblems);
    await saveScreenshot(narrow, 'side-panel-narrow-chromium');
    await narrow.close();
    expect(problems).toEqual([]);
  });

  test('renders a hostile result sanitised: no script, no handlers, no remote image, no javascript: link', async () => {
    const { runs, tasks } = await waitForEndedRuns(options, 1);
    const second = tasks.find((task) => task.runId === runs[0]!.id && task.workspaceKey === defaultDelegations[1]!.agentId)!;
    await panel.evaluate(putWorkspaceFile, { runId: String(second.runId), path: `summaries/agents/${String(second.workspaceKey)}/result.md`, content: HOSTILE_RESULT });
    await panel.reload();
    await panel.locator('.task-row').nth(1).getByRole('button', { name: defaultDelegations[1]!.title }).click();
    const body = panel.locator('.task-row').nth(1).locator('.markdown-body');
    await body.getByRole('heading', { name: 'Hostile result' }).waitFor();

    expect(await panel.evaluate(readHostileFindings, 1)).toEqual(SANITISED_FINDINGS);
    expect(await body.textContent()).toContain('[image: tracker]');
  });

  test('cancels a running task from the panel; the run finishes without it', async () => {
    await panel.reload();
    const [fast, slow] = defaultDelegations;
    model.reset();
    // The scene critic answers only after a long while, so it is still running when the user cancels it.
    model.script((request) => (request.toolNames.includes('task_return') && request.systemText.includes(slow!.systemMarker) ? { content: 'never used', delayMs: 60_000 } : undefined));
    scriptDelegatingRoot(model);
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/openai-chat/'));
    await waitForFixtureReady(page);
    await startFixtureMessage(page, 'Mara knocks twice.');

    const cancelButton = panel.getByRole('button', { name: `Cancel task ${slow!.title}` });
    await cancelButton.waitFor({ timeout: 20_000 });
    await panel.waitForFunction((title) => Array.from(document.querySelectorAll('.task-row')).some((row) => row.textContent?.includes(title) && row.getAttribute('data-status') === 'running'), slow!.title);
    await cancelButton.click();

    await waitForFixtureStatus(page, 'done');
    const reply = await page.evaluate(() => (window as unknown as { fixture: { lastReply: string } }).fixture.lastReply);
    expect(reply).toContain(fast!.finding);
    expect(reply).not.toContain(slow!.finding);
    await panel.waitForFunction(() => document.querySelector('.run-view .run-head .status-badge')?.textContent === 'Completed', undefined, { timeout: 20_000 });
    const statuses = await panel.locator('.task-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-status')));
    expect(statuses).toEqual(['completed', 'cancelled']);
    expect(await panel.getByRole('button', { name: /^Cancel/ }).count()).toBe(0);
    await saveScreenshot(panel, 'side-panel-cancelled-task-chromium');
    await page.close();
  });

  test('opened as a tab without ?origin=, shows the site of the last web page the user looked at', async () => {
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/openai-chat/'));
    await waitForFixtureReady(page);
    const plainPanel = await chromium.openExtensionPage('sidepanel.html');
    await plainPanel.locator('.site-origin', { hasText: fixtures.origins.primary }).waitFor();
    expect(await plainPanel.getByRole('switch', { name: 'On for this site' }).isChecked()).toBe(true);
    await plainPanel.close();
    await page.close();
  });

  test('searches the history and lists all sites', async () => {
    await panel.getByRole('searchbox', { name: 'Search runs' }).fill('no such run anywhere');
    await panel.getByText('No run matches “no such run anywhere”.').waitFor();
    await panel.getByRole('searchbox', { name: 'Search runs' }).fill('');
    await panel.getByRole('button', { name: 'All sites' }).click();
    await panel.getByRole('button', { name: /^Open run/ }).first().waitFor();
    expect(await panel.getByRole('button', { name: /^Open run/ }).count()).toBe(2);
  });

  test('a SillyTavern turn Retinue let pass shows up as a notice about the site, which can be dismissed', async () => {
    model.queue(() => true, { content: 'Straight from the page model.' });
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/sillytavern/', { source: 'cohere' }));
    await waitForFixtureReady(page);
    const turn = await sendFixtureMessage(page, 'Mara lights the lamp.');
    await page.close();

    const notice = panel.getByRole('region', { name: 'Notices about this site' }).getByText(/SillyTavern is set to the source "cohere"/);
    await notice.waitFor();
    await saveScreenshot(panel, 'side-panel-page-notice-chromium');
    await panel.getByRole('button', { name: 'Dismiss this notice' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(turn.reply).toBe('Straight from the page model.');
  });
});
