import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDelegatingTurn, startChromiumScenario, waitForEndedRuns, type ChromiumScenario } from './chat-turn-scenarios';
import { axeViolations, EXTRA_RULES } from './support/axe';
import { defaultDelegations } from './support/delegating-root-script';
import { waitForFixtureReady } from './support/fixture-pages';
import { saveScreenshot, screenshotDirectory } from './support/screenshots';

/**
 * axe-core's WCAG 2.1 A and AA rules on the side panel (after a delegated run, a task opened, a
 * timeline bar's details shown) and the options page, in light and dark; then the keyboard.
 */

const SCHEMES = ['light', 'dark'] as const;

let scenario: ChromiumScenario;
let panel: Page;

/** Presses Tab until the focus comes round again; each stop's name and focus outline (a switch's shows on its track). */
async function tabThrough(page: Page): Promise<{ controls: number; reached: Array<{ name: string; outline: string }> }> {
  const controls = await page.evaluate(() => {
    const all = Array.from(document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], summary, [tabindex]'));
    return all.filter((element) => element.tabIndex >= 0 && !(element as HTMLButtonElement).disabled && element.getClientRects().length > 0).length;
  });
  const reached: Array<{ name: string; outline: string }> = [];
  for (let step = 0; step < controls + 5; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body || element.dataset['tabVisited']) return undefined;
      element.dataset['tabVisited'] = 'yes';
      const ringHolder = element.matches('.switch-control input') ? (element.nextElementSibling ?? element) : element;
      const style = getComputedStyle(ringHolder);
      return { name: `${element.tagName} ${element.textContent?.trim().slice(0, 40) ?? ''}`, outline: `${style.outlineStyle} ${style.outlineWidth}` };
    });
    if (!focused) break;
    reached.push(focused);
  }
  return { controls, reached };
}

beforeAll(async () => {
  scenario = await startChromiumScenario();
  const page = await scenario.browser.context.newPage();
  await page.goto(scenario.fixtures.pageUrl('/openai-chat/'));
  await waitForFixtureReady(page);
  await runDelegatingTurn(page, scenario.model, 'Mara reaches the lighthouse.');
  await waitForEndedRuns(scenario.options, 1);
  await page.close();
  panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.waitForFunction(() => document.querySelectorAll('.task-row[data-status="completed"]').length === 2, undefined, { timeout: 20_000 });
});

afterAll(() => scenario?.close());

describe('Chromium: accessibility of Retinue’s own pages', () => {
  test('the side panel after a delegated run has no WCAG 2.1 A/AA violation, light or dark', async () => {
    await panel.locator('.task-row').first().getByRole('button', { name: defaultDelegations[0]!.title }).click();
    await panel.locator('.task-row').first().locator('.markdown-body').getByText(defaultDelegations[0]!.finding, { exact: false }).first().waitFor();
    // One bar's details pinned open, so they are checked too.
    await panel.getByRole('button', { name: `${defaultDelegations[1]!.agentId} — Completed` }).click();
    await panel.locator('.timeline-row.is-pinned .timeline-details').waitFor();

    for (const colorScheme of SCHEMES) {
      await panel.emulateMedia({ colorScheme });
      const { violations, ran } = await axeViolations(panel);
      expect(ran).toEqual(expect.arrayContaining(['color-contrast', ...EXTRA_RULES]));
      expect({ colorScheme, violations }).toEqual({ colorScheme, violations: [] });
      await saveScreenshot(panel, `side-panel-timeline-details-${colorScheme}-chromium`);
    }
    // The timeline alone, its details closed, in both schemes.
    await panel.getByRole('button', { name: `${defaultDelegations[1]!.agentId} — Completed` }).click();
    await panel.mouse.move(0, 0);
    for (const colorScheme of SCHEMES) {
      await panel.emulateMedia({ colorScheme });
      await panel.locator('.timeline-details').first().waitFor({ state: 'hidden' });
      await panel.locator('.run-view').screenshot({ path: path.join(screenshotDirectory, `side-panel-timeline-${colorScheme}-chromium.png`) });
    }
    await panel.emulateMedia({ colorScheme: 'light' });
  });

  test('the options page has no WCAG 2.1 A/AA violation, light or dark', async () => {
    const options = scenario.options;
    await options.reload();
    await options.getByRole('heading', { name: 'Sites' }).waitFor();

    for (const colorScheme of SCHEMES) {
      await options.emulateMedia({ colorScheme });
      const { violations } = await axeViolations(options);
      expect({ colorScheme, violations }).toEqual({ colorScheme, violations: [] });
    }
    await options.emulateMedia({ colorScheme: 'light' });
  });

  test('every control of the side panel and the options page is reached with Tab and shows where the focus is', async () => {
    await panel.reload();
    await panel.waitForFunction(() => document.querySelectorAll('.timeline-bar').length === 3);
    await scenario.options.reload();
    await scenario.options.getByRole('heading', { name: 'Sites' }).waitFor();

    for (const page of [panel, scenario.options]) {
      const { controls, reached } = await tabThrough(page);
      expect(reached).toHaveLength(controls);
      expect(reached.filter((entry) => entry.outline.startsWith('none') || entry.outline.endsWith(' 0px'))).toEqual([]);
    }
  });

  test('a timeline bar shows its details on keyboard focus; Escape hides them', async () => {
    const bar = panel.getByRole('button', { name: `${defaultDelegations[0]!.agentId} — Completed` });
    await bar.focus();
    await panel.keyboard.press('Shift+Tab');
    await panel.keyboard.press('Tab');
    const details = panel.locator('.timeline-row', { has: bar }).locator('.timeline-details');
    await details.waitFor({ state: 'visible' });
    expect(await details.textContent()).toMatch(/Started at \d+\.\ds, ended at \d+\.\ds/);
    await panel.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
  });
});
