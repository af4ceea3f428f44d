import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROME_EXTENSION_ID, GECKO_ID } from '../../src/extension/identity';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { launchChromiumWithExtension, type ChromiumWithExtension } from './support/chromium';
import { launchFirefoxWithExtension, type FirefoxWithExtension } from './support/firefox';
import { startFixtureServer, type FixtureServer } from './support/fixture-server';
import { readFixtureState, sendFixtureMessage, startFixtureMessage, stopFixtureGeneration, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import { readRunStore, readStorage, writeSettings } from './support/settings';
import { coversOrigin, readRegisteredContentScripts, waitForRegisteredContentScripts } from './support/registrations';
import { saveScreenshot } from './support/screenshots';

/**
 * The harness itself: the built extension loads in both browsers, its pages open, settings written
 * through the harness read back, and the fixture chat pages work on their own (no site is switched
 * on here, so Retinue stays out of their way).
 */

const settingsDocument = {
  version: 1,
  sites: [{ origin: 'http://127.0.0.1:9', enabled: true, adapter: 'auto' }],
  defaults: { maxRunningChildren: 2 },
} as const;

let model: ScriptedModelServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  model = await startScriptedModelServer();
  fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
});

afterAll(async () => {
  await fixtures?.close();
  await model?.close();
});

describe('Chromium', () => {
  let chromium: ChromiumWithExtension;

  beforeAll(async () => {
    chromium = await launchChromiumWithExtension();
  });
  afterAll(async () => {
    await chromium?.close();
  });

  test('loads the extension under its fixed id with its service worker running', () => {
    expect(chromium.extensionId).toBe(CHROME_EXTENSION_ID);
    expect(chromium.serviceWorker.url()).toBe(`chrome-extension://${CHROME_EXTENSION_ID}/background.js`);
  });

  test('opens the options page and the side panel as tabs', async () => {
    const options = await chromium.openExtensionPage('options.html');
    const sidePanel = await chromium.openExtensionPage('sidepanel.html');
    expect(options.url()).toBe(`chrome-extension://${CHROME_EXTENSION_ID}/options.html`);
    expect(await options.locator('#app').count()).toBe(1);
    expect(await sidePanel.locator('#app').count()).toBe(1);
    await saveScreenshot(sidePanel, 'harness-chromium-side-panel');
    await options.close();
    await sidePanel.close();
  });

  test('settings written from the options page read back there and in the service worker', async () => {
    const options = await chromium.openExtensionPage('options.html');
    await writeSettings(options, settingsDocument);
    expect(await readStorage(options, 'settings')).toEqual(settingsDocument);
    expect(await readStorage(chromium.serviceWorker, 'settings')).toEqual(settingsDocument);
    await options.close();
  });

  test('the run store reads as empty before any run, without creating the database', async () => {
    const options = await chromium.openExtensionPage('options.html');
    const snapshot = await readRunStore(options, 'retinue-harness-absent');
    const created = await options.evaluate(async () => (await indexedDB.databases()).map((entry) => entry.name));
    expect(snapshot).toEqual({ runs: [], tasks: [] });
    expect(created).not.toContain('retinue-harness-absent');
    await options.close();
  });

  test('a stopped service worker is counted when it starts again', async () => {
    await chromium.serviceWorker.evaluate(() => {
      (globalThis as { harnessMarker?: string }).harnessMarker = 'before the stop';
    }, undefined);
    await chromium.stopServiceWorker();
    const worker = await chromium.waitForServiceWorker();
    const marker = await worker.evaluate(() => (globalThis as { harnessMarker?: string }).harnessMarker ?? 'fresh', undefined);
    expect(marker).toBe('fresh');
    expect(chromium.serviceWorkerRestarts).toBe(1);
  });

  test('the OpenAI-style page gets a streamed reply with reasoning straight from the model server', async () => {
    model.reset();
    model.script(() => ({ content: 'Streamed hello from the model.', reasoning: 'Thinking it over.' }));
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/openai-chat/', { system: 'You are terse.' }));
    await waitForFixtureReady(page);
    const turn = await sendFixtureMessage(page, 'Hello there');
    expect(turn).toMatchObject({ status: 'done', reply: 'Streamed hello from the model.', reasoning: 'Thinking it over.', streamed: true });
    expect(await page.locator('.message.assistant .content').last().textContent()).toBe('Streamed hello from the model.');
    expect(model.requests.map((request) => request.lastMessageText)).toEqual(['Hello there']);
    expect(model.requests[0]?.systemText).toBe('You are terse.');
    const ping = fixtures.requests.find((request) => request.url === '/api/ping?from=openai-chat');
    expect(ping?.headers['x-fixture-check']).toBe('pass-through');
    await saveScreenshot(page, 'harness-chromium-openai-chat');
    await page.close();
  });

  test('the OpenAI-style page reads a JSON reply, and a Request-object fetch with a Headers object', async () => {
    model.reset();
    model.script(() => ({ content: 'A JSON answer.' }));
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/openai-chat/', { stream: '0', input: 'request', headers: 'headers', key: 'sk-fixture' }));
    await waitForFixtureReady(page);
    const turn = await sendFixtureMessage(page, 'Answer in JSON');
    expect(turn).toMatchObject({ status: 'done', reply: 'A JSON answer.', streamed: false });
    expect(model.requests[0]?.headers.authorization).toBe('Bearer sk-fixture');
    await page.close();
  });

  test('the OpenAI-style page stops a hanging generation with its Stop button', async () => {
    model.reset();
    model.script(() => ({ fault: 'hang', afterChunks: 2, turn: { content: 'This never finishes in full.' } }));
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/openai-chat/'));
    await waitForFixtureReady(page);
    await startFixtureMessage(page, 'Take your time');
    await waitForFixtureStatus(page, 'generating');
    await page.click('#stop');
    const state = await waitForFixtureStatus(page, 'stopped');
    expect(state.turns.at(-1)?.status).toBe('stopped');
    await page.close();
  });

  test('the SillyTavern-shaped page sends its token and reads streamed and plain replies through its backend', async () => {
    model.reset();
    model.script((request) =>
      request.stream ? { content: 'A streamed swipe-worthy reply.', reasoning: 'Pondering.' } : { content: 'A plain reply.' },
    );
    const generationsBefore = fixtures.sillyTavernGenerations.length;
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/sillytavern/', { custom_url: model.baseURL, model: 'scripted-model' }));
    await waitForFixtureReady(page);
    expect(await page.evaluate(() => typeof (window as { SillyTavern?: { getContext(): { chat: unknown[] } } }).SillyTavern?.getContext().chat)).toBe('object');

    const streamed = await sendFixtureMessage(page, 'Tell me a story');
    expect(streamed).toMatchObject({ status: 'done', reply: 'A streamed swipe-worthy reply.', reasoning: 'Pondering.', type: 'normal' });
    const generate = fixtures.requests.findLast((request) => request.url === '/api/backends/chat-completions/generate');
    expect(generate?.headers['x-csrf-token']).toBe(fixtures.csrfToken);
    expect(JSON.parse(generate?.body ?? '{}')).toMatchObject({ type: 'normal', stream: true, chat_completion_source: 'custom', custom_url: model.baseURL });
    const firstGeneration = fixtures.sillyTavernGenerations[generationsBefore];
    expect(firstGeneration?.target).toBe(`${model.baseURL}/chat/completions`);
    expect(Object.keys(firstGeneration?.forwardedBody ?? {})).not.toContain('chat_completion_source');

    const quiet = await sendFixtureMessage(page, '', 'quiet');
    expect(quiet).toMatchObject({ status: 'done', reply: 'A plain reply.', streamed: false, type: 'quiet' });
    const swipe = await sendFixtureMessage(page, '', 'swipe');
    expect(swipe.type).toBe('swipe');
    const chat = await page.evaluate(() => (window as { SillyTavern?: { getContext(): { chat: Array<{ mes: string; swipes?: string[] }> } } }).SillyTavern!.getContext().chat);
    expect(chat.map((entry) => entry.mes)).toEqual(['Tell me a story', 'A streamed swipe-worthy reply.']);
    expect(chat[1]?.swipes).toHaveLength(2);

    const regenerated = await sendFixtureMessage(page, '', 'regenerate');
    expect(regenerated).toMatchObject({ status: 'done', type: 'regenerate' });
    const impersonated = await sendFixtureMessage(page, '', 'impersonate');
    expect(impersonated.type).toBe('impersonate');
    expect(await page.inputValue('#send_textarea')).toBe('A streamed swipe-worthy reply.');
    const types = fixtures.sillyTavernGenerations.slice(generationsBefore).map((generation) => generation.type);
    expect(types).toEqual(['normal', 'quiet', 'swipe', 'regenerate', 'impersonate']);
    const chatAfter = await page.evaluate(() => (window as { SillyTavern?: { getContext(): { chat: unknown[] } } }).SillyTavern!.getContext().chat.length);
    expect(chatAfter).toBe(2);
    await saveScreenshot(page, 'harness-chromium-sillytavern');
    await page.close();
  });

  test('the SillyTavern-shaped page shows the provider error message of a failed generation', async () => {
    model.reset();
    model.script(() => ({ fault: 'status', status: 401, message: 'Incorrect API key provided.' }));
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/sillytavern/', { custom_url: model.baseURL, stream: '0' }));
    await waitForFixtureReady(page);
    const turn = await sendFixtureMessage(page, 'Hello?');
    expect(turn).toMatchObject({ status: 'error', httpStatus: 401, error: 'Incorrect API key provided.' });
    expect(await page.locator('#toast-container').textContent()).toBe('Incorrect API key provided.');
    await page.close();
  });

  test('the SillyTavern backend passes tools and tool_choice through to the custom endpoint', async () => {
    model.reset();
    model.script((request) => (request.toolNames.includes('look_around') ? { toolCalls: [{ name: 'look_around', arguments: { where: 'lighthouse' } }] } : undefined));
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/sillytavern/', { custom_url: model.baseURL }));
    await waitForFixtureReady(page);
    const answer = await page.evaluate(async ({ customUrl, token }) => {
      const response = await fetch('/api/backends/chat-completions/generate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token },
        body: JSON.stringify({
          type: 'normal',
          messages: [{ role: 'user', content: 'Look around.' }],
          model: 'scripted-model',
          stream: false,
          chat_completion_source: 'custom',
          custom_url: customUrl,
          tools: [{ type: 'function', function: { name: 'look_around', parameters: { type: 'object', properties: { where: { type: 'string' } } } } }],
          tool_choice: 'auto',
        }),
      });
      return (await response.json()) as { choices: Array<{ message: { tool_calls?: Array<{ function: { name: string } }> } }> };
    }, { customUrl: model.baseURL, token: fixtures.csrfToken });
    expect(answer.choices[0]?.message.tool_calls?.[0]?.function.name).toBe('look_around');
    expect(model.requests[0]?.body.tool_choice).toBe('auto');
    await page.close();
  });

  test('the SillyTavern backend refuses a generate request without the CSRF token', async () => {
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/sillytavern/', { custom_url: model.baseURL }));
    await waitForFixtureReady(page);
    const status = await page.evaluate(async () => {
      const response = await fetch('/api/backends/chat-completions/generate', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
      return response.status;
    });
    expect(status).toBe(403);
    await page.close();
  });

  test('the fixture pages are reachable on the second origin too', async () => {
    const page = await chromium.context.newPage();
    await page.goto(fixtures.pageUrl('/openai-chat/', {}, fixtures.origins.secondary));
    await waitForFixtureReady(page);
    expect(new URL(page.url()).origin).toBe(fixtures.origins.secondary);
    const state = await readFixtureState(page);
    expect(state.status).toBe('idle');
    await page.close();
  });

  test('a site switched on in settings gets the page hook (MAIN world) and the bridge; switched off, neither', async () => {
    const options = await chromium.openExtensionPage('options.html');
    const enabledOrigin = fixtures.origins.primary;
    await writeSettings(options, { version: 1, sites: [{ origin: enabledOrigin, enabled: true }] });
    const registered = await waitForRegisteredContentScripts(chromium.serviceWorker, (scripts) => scripts.filter((script) => coversOrigin(script, enabledOrigin)).length === 2, {
      description: `the page hook and bridge to be registered for ${enabledOrigin}`,
    });
    const pageHook = registered.find((script) => script.world === 'MAIN');
    expect(pageHook).toMatchObject({ runAt: 'document_start', js: ['content-scripts/page-hook.js'] });
    expect(registered.some((script) => coversOrigin(script, fixtures.origins.secondary))).toBe(false);

    await writeSettings(options, { version: 1, sites: [{ origin: enabledOrigin, enabled: false }] });
    await waitForRegisteredContentScripts(chromium.serviceWorker, (scripts) => !scripts.some((script) => coversOrigin(script, enabledOrigin)), {
      description: `the registrations for ${enabledOrigin} to go away`,
    });
    expect(await readRegisteredContentScripts(chromium.serviceWorker)).toEqual([]);
    await options.close();
  });
});

describe('Firefox', () => {
  let firefox: FirefoxWithExtension;

  beforeAll(async () => {
    firefox = await launchFirefoxWithExtension();
  });
  afterAll(async () => {
    await firefox?.close();
  });

  test('installs the add-on under its fixed id and opens its options page', async () => {
    expect(firefox.addonId).toBe(GECKO_ID);
    const options = await firefox.openExtensionPage('options.html');
    // Puppeteer's page.url() stays at about:blank for extension pages in Firefox; ask the page.
    expect(await options.evaluate(() => location.href)).toBe(`moz-extension://${firefox.extensionUuid}/options.html`);
    expect(await options.evaluate(() => document.getElementById('app') !== null)).toBe(true);
    await options.close();
  });

  test('settings written from the options page read back', async () => {
    const options = await firefox.openExtensionPage('options.html');
    await writeSettings(options, settingsDocument);
    expect(await readStorage(options, 'settings')).toEqual(settingsDocument);
    await options.close();
  });

  test('loopback host permissions are granted to the temporarily installed add-on', async () => {
    const options = await firefox.openExtensionPage('options.html');
    const granted = await options.evaluate(async () => {
      const api = (globalThis as { browser?: { permissions: { contains(query: { origins: string[] }): Promise<boolean> } } }).browser!;
      return {
        loopback: await api.permissions.contains({ origins: ['http://127.0.0.1/*'] }),
        localhost: await api.permissions.contains({ origins: ['http://localhost/*'] }),
      };
    });
    expect(granted).toEqual({ loopback: true, localhost: true });
    await options.close();
  });

  test('a site switched on in settings gets the page hook and the bridge', async () => {
    const options = await firefox.openExtensionPage('options.html');
    await writeSettings(options, { version: 1, sites: [{ origin: fixtures.origins.primary, enabled: true }] });
    const registered = await waitForRegisteredContentScripts(options, (scripts) => scripts.filter((script) => coversOrigin(script, fixtures.origins.primary)).length === 2, {
      description: 'the page hook and bridge to be registered in Firefox',
    });
    expect(registered.find((script) => script.world === 'MAIN')?.js).toEqual(['content-scripts/page-hook.js']);
    await writeSettings(options, { version: 1, sites: [] });
    await waitForRegisteredContentScripts(options, (scripts) => scripts.length === 0, { description: 'the registrations to go away in Firefox' });
    await options.close();
  });

  test('the SillyTavern-shaped page gets a streamed reply', async () => {
    model.reset();
    model.script(() => ({ content: 'Hello from Firefox.' }));
    const page = await firefox.openPage(fixtures.pageUrl('/sillytavern/', { custom_url: model.baseURL }));
    await waitForFixtureReady(page);
    const turn = await sendFixtureMessage(page, 'Hi');
    expect(turn).toMatchObject({ status: 'done', reply: 'Hello from Firefox.' });
    await stopFixtureGeneration(page);
    await page.close();
  });
});
