import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDelegatingTurn, waitForEndedRuns, startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { defaultDelegations } from './support/delegating-root-script';
import { waitUntil } from './support/evaluating-handle';
import { waitForFixtureReady } from './support/fixture-pages';
import { HOSTILE_RESULT, putWorkspaceFile, readHostileFindings, SANITISED_FINDINGS } from './support/hostile-markdown';
import { readNarrowLayoutProblems } from './support/narrow-layout';
import { saveScreenshot } from './support/screenshots';
import { readStorage } from './support/settings';

/** Firefox's sidebar page (`sidebar_action` → sidepanel.html) after a real delegated run. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: the sidebar', () => {
  test('the options page renders its sections', async () => {
    const headings = await waitUntil(
      async () => {
        const found = await scenario.options.evaluate(() => Array.from(document.querySelectorAll('h2')).map((heading) => heading.textContent));
        return found.length >= 6 ? found : undefined;
      },
      { description: 'the options page sections' },
    );
    expect(headings).toEqual(['Connections', 'Agent profiles', 'Sites', 'Lending your keyed connections', 'Defaults', 'Import and export']);
    await saveScreenshot(scenario.options, 'options-firefox');
  });

  test('a Markdown agent file dropped on the options page becomes an agent', async () => {
    await scenario.options.evaluate(() => {
      const card = document.querySelector('.agent-files') as HTMLElement;
      const files = new DataTransfer();
      files.items.add(new File(['---\nname: plot-scout\ndescription: Finds loose plot threads.\nmodel: small-model\n---\nScout the plot.\n'], 'plot-scout.md'));
      card.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: files }));
    });
    // The import shows what the file does first; a new agent needs only Save.
    await waitUntil(
      () =>
        scenario.options.evaluate(() => {
          const save = Array.from(document.querySelectorAll('.agent-preview button')).find((button) => button.textContent === 'Save these agents') as HTMLButtonElement | undefined;
          save?.click();
          return save !== undefined || undefined;
        }),
      { description: 'the Save button of the import preview' },
    );
    const stored = await waitUntil(
      async () => {
        const settings = (await readStorage(scenario.options, 'settings')) as { profiles?: Array<{ id: string; model: unknown }> } | undefined;
        return settings?.profiles?.find((profile) => profile.id === 'plot-scout');
      },
      { description: 'the dropped agent in storage' },
    );
    expect(stored.model).toEqual({ binding: 'host', model: 'small-model' });
  });

  test('follows a delegated run live and opens a task to its result', async () => {
    const sidebar = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
      windowSize: { width: 400, height: 900 },
    });
    await waitUntil(async () => (await sidebar.evaluate(() => document.querySelector('.empty-state h2')?.textContent)) ?? undefined, {
      description: 'the empty state in the sidebar',
    });

    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    await waitForFixtureReady(page);
    await runDelegatingTurn(page, scenario.model, 'Mara reaches the lighthouse.');
    await waitForEndedRuns(scenario.options, 1);
    await page.close();

    const rows = await waitUntil(
      async () => {
        const found = await sidebar.evaluate(() =>
          Array.from(document.querySelectorAll('.task-row')).map((row) => ({
            agent: row.querySelector('.task-agent')?.textContent,
            status: row.getAttribute('data-status'),
          })),
        );
        return found.length === 2 && found.every((row) => row.status === 'completed') ? found : undefined;
      },
      { description: 'two completed tasks in the sidebar, without a reload', timeoutMs: 20_000 },
    );
    expect(rows.map((row) => row.agent)).toEqual(defaultDelegations.map((delegation) => delegation.agentId));

    await sidebar.evaluate(() => (document.querySelector('.task-row .task-toggle') as HTMLButtonElement).click());
    const rendered = await waitUntil(async () => (await sidebar.evaluate(() => document.querySelector('.task-row .markdown-body')?.textContent)) ?? undefined, {
      description: 'the first task’s rendered result',
    });
    expect(rendered).toContain(defaultDelegations[0]!.finding);

    // The timeline: the root, then one bar per helper, each finished, the reply's moments marked; and the cost line.
    const timeline = await sidebar.evaluate(() => ({
      bars: Array.from(document.querySelectorAll('.timeline-row')).map((row) => [row.querySelector('.timeline-name')?.textContent, row.getAttribute('data-status')]),
      reply: document.querySelector('.timeline-reply')?.textContent,
      markers: document.querySelectorAll('.timeline-marker').length,
      cost: document.querySelector('.cost-total')?.textContent,
    }));
    expect(timeline.bars).toEqual([['Writer (root)', 'completed'], ...defaultDelegations.map((delegation) => [delegation.agentId, 'completed'])]);
    expect(timeline.reply).toMatch(/^Reply started at \d+\.\ds, finished at \d+\.\ds$/);
    expect(timeline.markers).toBe(2);
    expect(timeline.cost).toMatch(/5 model calls/);
    await sidebar.evaluate(() => (document.querySelectorAll('.timeline-bar')[1] as HTMLButtonElement).focus());
    const details = await sidebar.evaluate(() => {
      const shown = document.querySelectorAll('.timeline-row')[1]?.querySelector('.timeline-details');
      return shown && getComputedStyle(shown).display !== 'none' ? shown.textContent : undefined;
    });
    expect(details).toMatch(/Started at \d+\.\ds, ended at/);
    await saveScreenshot(sidebar, 'side-panel-firefox');
  });

  test('at 232 px wide (the width it opened at by hand), rows wrap or truncate: no badge covers an agent’s name', async () => {
    const sidebar = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
      windowSize: { width: 232, height: 900 },
    });
    await waitUntil(
      async () => ((await sidebar.evaluate(() => document.querySelectorAll('.task-row[data-status="completed"]').length === 2 && document.querySelector('.history-row') !== null)) ? true : undefined),
      { description: 'the run’s tasks and its history row in the narrow sidebar', timeoutMs: 20_000 },
    );

    const width = await sidebar.evaluate(() => document.documentElement.clientWidth);
    const problems = await sidebar.evaluate(readNarrowLayoutProblems);
    await saveScreenshot(sidebar, 'side-panel-narrow-firefox');
    expect(width).toBeLessThanOrEqual(260);
    expect(problems).toEqual([]);
  });

  test('renders a hostile result sanitised, DOMPurify included', async () => {
    const { runs, tasks } = await waitForEndedRuns(scenario.options, 1);
    const second = tasks.find((task) => task.runId === runs[0]!.id && task.workspaceKey === defaultDelegations[1]!.agentId)!;
    const sidebar = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
      windowSize: { width: 400, height: 900 },
    });
    await sidebar.evaluate(putWorkspaceFile, { runId: String(second.runId), path: `summaries/agents/${String(second.workspaceKey)}/result.md`, content: HOSTILE_RESULT });
    await waitUntil(async () => ((await sidebar.evaluate(() => document.querySelectorAll('.task-row .task-toggle').length)) === 2 ? true : undefined), {
      description: 'both task rows in the sidebar',
    });
    await sidebar.evaluate(() => (document.querySelectorAll('.task-row .task-toggle')[1] as HTMLButtonElement).click());
    await waitUntil(async () => ((await sidebar.evaluate(() => document.querySelectorAll('.task-row')[1]?.querySelector('.markdown-body h1')?.textContent)) === 'Hostile result' ? true : undefined), {
      description: 'the hostile result rendered',
    });
    expect(await sidebar.evaluate(readHostileFindings, 1)).toEqual(SANITISED_FINDINGS);
  });
});
