import { afterAll, beforeAll, expect, test } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { launchChromiumWithExtension, type ChromiumWithExtension } from './support/chromium';
import { readFixtureState, sendFixtureMessage, startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import { startFixtureServer, type FixtureServer } from './support/fixture-server';
import { saveScreenshot } from './support/screenshots';

/**
 * The fixture chat pages on their own, in Chromium with Retinue loaded but switched on for no site:
 * they talk to the scripted model server (directly or through the SillyTavern-shaped backend) and
 * render what it says, so a scenario test that fails with Retinue on is not failing on the page.
 */

let model: ScriptedModelServer;
let fixtures: FixtureServer;
let chromium: ChromiumWithExtension;

beforeAll(async () => {
  model = await startScriptedModelServer();
  fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
  chromium = await launchChromiumWithExtension();
});

afterAll(async () => {
  await chromium?.close();
  await fixtures?.close();
  await model?.close();
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

test('the KoboldAI Lite-shaped page sends its whole log as one assistant message after a fixed user line, and keeps reasoning in it', async () => {
  model.reset();
  model.script(() => ({ content: 'Hello, traveller.', reasoning: 'A greeting.' }));
  const page = await chromium.context.newPage();
  await page.goto(fixtures.pageUrl('/koboldai-lite/', { system: 'You are Mara.' }));
  await waitForFixtureReady(page);
  expect(await sendFixtureMessage(page, 'Hi!')).toMatchObject({ status: 'done', reply: 'Hello, traveller.', reasoning: 'A greeting.' });
  await sendFixtureMessage(page, 'Where is the lamp?');

  const second = model.requests[1]?.body.messages ?? [];
  expect(second.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
  expect(second[1]?.content).toBe(model.requests[0]?.body.messages[1]?.content);
  expect(second[2]?.content).toBe('\nYou: Hi!\nKoboldAI: <think>A greeting.</think>Hello, traveller.\nYou: Where is the lamp?\nKoboldAI:');
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
