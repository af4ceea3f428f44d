/**
 * `npm run demo`: builds Retinue, serves a small story chat page on loopback, and opens Chromium with
 * Retinue loaded and switched on for that page.
 *
 * The page's model is the project's scripted model server, scripted so that the root delegates two
 * tasks (continuity-checker and scene-critic) and answers with their results; or a real
 * OpenAI-compatible endpoint when OPENAI_BASE_URL, OPENAI_API_KEY and RETINUE_MODEL are all set.
 *
 * With a display (DISPLAY set) the browser stays open until you close it or press Ctrl+C. Without
 * one, it runs one chat turn headless, prints the reply and the task table, and saves screenshots of
 * the page and the side panel under test-output/demo/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../tests/support/scripted-model-server';
import { buildExtension, repositoryRoot } from '../tests/e2e/support/build-extension';
import { launchChromiumWithExtension, type ChromiumWithExtension } from '../tests/e2e/support/chromium';
import { scriptDelegatingRoot } from '../tests/e2e/support/delegating-root-script';
import { waitUntil } from '../tests/e2e/support/evaluating-handle';
import { readFixtureState, waitForFixtureReady } from '../tests/e2e/support/fixture-pages';
import { startFixtureServer, type FixtureServer } from '../tests/e2e/support/fixture-server';
import { coversOrigin, readRegisteredContentScripts } from '../tests/e2e/support/registrations';
import { saveScreenshot } from '../tests/e2e/support/screenshots';
import { readRunStore, writeSettings } from '../tests/e2e/support/settings';
import { formatTaskTable } from './demo/task-table';

const demoOutputDirectory = path.join(repositoryRoot, 'test-output', 'demo');
const firstMessage = 'Mara reaches the lighthouse at dusk, soaked from the storm. What does she find?';
const storySystemPrompt =
  'You are the narrator of an interactive story. The user plays Mara, a courier caught by a storm on the coast. ' +
  'Earlier: the lighthouse keeper, Old Ansel, lost his lantern in the storm. Write the next scene in a few paragraphs ' +
  'and end with a moment for the user to act.';

interface RealEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** A real endpoint only when all three variables are set; anything less uses the scripted server. */
function realEndpointFromEnvironment(): RealEndpoint | undefined {
  const { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: apiKey, RETINUE_MODEL: model } = process.env;
  return baseUrl && apiKey && model ? { baseUrl: baseUrl.replace(/\/$/, ''), apiKey, model } : undefined;
}

async function main(): Promise<void> {
  const realEndpoint = realEndpointFromEnvironment();
  const hasDisplay = Boolean(process.env.DISPLAY);
  const cleanups: Array<() => Promise<void>> = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };

  try {
    console.log('Building Retinue for Chromium…');
    await buildExtension({ browsers: ['chrome'], force: true });

    let model: ScriptedModelServer | undefined;
    if (!realEndpoint) {
      model = await startScriptedModelServer({ models: ['scripted-story-model'] });
      cleanups.push(() => model!.close());
      scriptDelegatingRoot(model, { delayMs: hasDisplay ? 700 : 150 });
      // Reached only when Retinue did not take the turn (no tools offered): say so in the page.
      model.script((request) =>
        request.toolNames.length === 0
          ? { content: 'The scripted model answered the page directly: Retinue did not take this chat turn.' }
          : undefined,
      );
    }
    const fixtures = await startFixtureServer({
      modelBaseUrl: realEndpoint?.baseUrl ?? model!.baseURL,
      // The page calls its own origin's /v1; the server adds the key, so it never reaches the page.
      modelApiKey: realEndpoint?.apiKey,
      staticFolders: { '/demo/': path.join(repositoryRoot, 'scripts/demo') },
    });
    cleanups.push(() => fixtures.close());
    const pageUrl = fixtures.pageUrl('/demo/', {
      model: realEndpoint?.model ?? 'scripted-story-model',
      system: storySystemPrompt,
    });
    console.log(`Demo chat page: ${pageUrl.split('?')[0]} (model: ${realEndpoint ? `${realEndpoint.model} at ${realEndpoint.baseUrl}` : 'the scripted model server'})`);

    const chromium = await launchChromiumWithExtension({ headless: !hasDisplay });
    cleanups.push(() => chromium.close());
    await switchRetinueOn(chromium, fixtures);

    const page = await chromium.context.newPage();
    await page.goto(pageUrl);
    await waitForFixtureReady(page);
    const sidePanel = await chromium.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(fixtures.origins.primary)}`);
    // About the width of the browser's side panel.
    await sidePanel.setViewportSize({ width: 420, height: 900 });

    if (hasDisplay) {
      await page.bringToFront();
      await page.fill('#input', firstMessage);
      console.log('\nChromium is open with Retinue switched on for the demo page; the side panel is open in a tab.');
      console.log('Send the message in the page and watch the side panel. Close the browser or press Ctrl+C to stop.');
      await new Promise<void>((resolve) => {
        chromium.context.once('close', () => resolve());
        process.once('SIGINT', () => resolve());
      });
      return;
    }
    await runOneTurnHeadless({ chromium, page, sidePanel });
  } finally {
    await cleanUp();
  }
}

/** Writes the settings document that switches Retinue on for the demo page, and waits for the page hook. */
async function switchRetinueOn(chromium: ChromiumWithExtension, fixtures: FixtureServer): Promise<void> {
  const options = await chromium.openExtensionPage('options.html');
  await writeSettings(options, {
    version: 1,
    sites: [{ origin: fixtures.origins.primary, enabled: true, adapter: 'openai-chat' }],
  });
  await options.close();
  try {
    await waitUntil(
      async () => (await readRegisteredContentScripts(chromium.serviceWorker)).filter((script) => coversOrigin(script, fixtures.origins.primary)).length >= 2,
      { description: 'the page hook to be registered for the demo page', timeoutMs: 10_000 },
    );
  } catch {
    console.warn('Warning: the page hook was not registered for the demo page; the chat will go straight to the model.');
  }
}

async function runOneTurnHeadless(options: { chromium: ChromiumWithExtension; page: Page; sidePanel: Page }): Promise<void> {
  const { chromium, page, sidePanel } = options;
  console.log(`\nYou: ${firstMessage}`);
  await page.fill('#input', firstMessage);
  await page.click('#send');
  const state = await waitUntil(
    async () => {
      const current = await readFixtureState(page);
      return current.turns.length > 0 ? current : undefined;
    },
    { description: 'the chat turn to finish', timeoutMs: 180_000, intervalMs: 250 },
  );
  const turn = state.turns[0]!;
  if (turn.status === 'done') console.log(`\nReply:\n${turn.reply}`);
  else console.log(`\nThe turn ended "${turn.status}": ${turn.error || '(no message)'}`);

  const extensionPage = await chromium.openExtensionPage('options.html');
  console.log(`\n${formatTaskTable(await readRunStore(extensionPage))}`);
  await extensionPage.close();

  await sidePanel.reload();
  await sidePanel.waitForLoadState('load');
  // Best effort: open the first delegated task so the shot shows a result capsule.
  await sidePanel.locator('[aria-expanded="false"]').first().click({ timeout: 3_000 }).catch(() => undefined);
  await sidePanel.waitForTimeout(1_000);
  const pageShot = await saveScreenshot(page, 'demo-page', demoOutputDirectory);
  const panelShot = await saveScreenshot(sidePanel, 'demo-side-panel', demoOutputDirectory);
  console.log(`\nScreenshots: ${path.relative(repositoryRoot, pageShot)}, ${path.relative(repositoryRoot, panelShot)}`);
  if (turn.status !== 'done') process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
