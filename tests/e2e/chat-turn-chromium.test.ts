import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { runDelegatingTurn, SECRET_KEY, waitForEndedRuns, startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { defaultDelegations, scriptDelegatingRoot } from './support/delegating-root-script';
import type { ChromiumWithExtension } from './support/chromium';
import { waitUntil } from './support/evaluating-handle';
import { sendFixtureMessage, startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readIndexedDb, readRunStore } from './support/settings';
import { saveScreenshot } from './support/screenshots';
import { LIVE_REPLY_SELECTOR } from './support/reply-growth';
import { runStreamedReplyTurn, stopDuringStreamedReply } from './streamed-reply-scenarios';

/** Chat turns through the built extension in Chromium, configured through the settings document. */

let scenario: ChromiumScenario;
let model: ScriptedModelServer;
let fixtures: FixtureServer;
let chromium: ChromiumWithExtension;
let options: Page;

beforeAll(async () => {
  scenario = await startChromiumScenario();
  ({ model, fixtures, browser: chromium, options } = scenario);
});

afterAll(() => scenario?.close());

async function openFixture(path: string, query: Record<string, string> = {}, origin?: string): Promise<Page> {
  const page = await chromium.context.newPage();
  await page.goto(fixtures.pageUrl(path, query, origin));
  await waitForFixtureReady(page);
  return page;
}

describe("Chromium: the reply streams into the page as the model writes it", () => {
  test('on the OpenAI-style page', async () => {
    const page = await openFixture('/openai-chat/');
    await runStreamedReplyTurn(page, model, LIVE_REPLY_SELECTOR.openaiChat);
    await page.close();
  });

  test('on the SillyTavern-shaped page', async () => {
    const page = await openFixture('/sillytavern/', { model: 'scripted-model' });
    await runStreamedReplyTurn(page, model, LIVE_REPLY_SELECTOR.sillyTavern);
    await page.close();
  });

  test('Stop during the streamed reply ends the model call', async () => {
    const page = await openFixture('/openai-chat/');
    await stopDuringStreamedReply(page, model, LIVE_REPLY_SELECTOR.openaiChat);
    await page.close();
  });
});

describe('Chromium: a chat turn becomes a delegated run', () => {
  test('on the OpenAI-style page, streamed: the reply carries both capsules, progress shows as reasoning', async () => {
    const page = await openFixture('/openai-chat/');
    const before = (await readRunStore(options)).runs.length;
    const turn = await runDelegatingTurn(page, model, 'Mara reaches the lighthouse.');
    expect(turn.streamed).toBe(true);
    expect(turn.reasoning).toMatch(/continuity-checker.*started/);
    expect(turn.reasoning).toMatch(/scene-critic.*done/);
    const ping = fixtures.requests.filter((request) => request.url === '/api/ping?from=openai-chat').at(-1);
    expect(ping?.headers['x-fixture-check']).toBe('pass-through');
    const { runs, tasks } = await waitForEndedRuns(options, before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'completed', adapter: 'openai-chat', origin: fixtures.origins.primary });
    expect(tasks.filter((task) => task.runId === runs.at(-1)?.id).map((task) => task.status)).toEqual(['completed', 'completed']);
    await saveScreenshot(page, 'page-chromium-openai-chat');
    await page.close();
  });

  test('on the OpenAI-style page, JSON with a Request input and a Headers object: the reply, no progress', async () => {
    const page = await openFixture('/openai-chat/', { stream: '0', input: 'request', headers: 'headers', key: 'sk-page' });
    const turn = await runDelegatingTurn(page, model, 'Mara knocks.');
    expect(turn.streamed).toBe(false);
    expect(turn.reasoning).toBe('');
    // Host-bound agents called through the page, with the page's own key.
    expect(model.requests.every((request) => request.headers.authorization === 'Bearer sk-page')).toBe(true);
    await page.close();
  });

  test('on the SillyTavern-shaped page: the reply lands in the chat, quiet prompts pass through', async () => {
    const page = await openFixture('/sillytavern/', { model: 'scripted-model' });
    const turn = await runDelegatingTurn(page, model, 'Tell me about the lighthouse.');
    expect(turn.type).toBe('normal');
    // Host calls went through SillyTavern's backend with its CSRF token.
    expect(fixtures.sillyTavernGenerations.some((generation) => JSON.stringify(generation.forwardedBody).includes('agent_delegate'))).toBe(true);
    model.reset();
    model.script(() => ({ content: 'A quiet answer.' }));
    const quiet = await sendFixtureMessage(page, '', 'quiet');
    expect(quiet).toMatchObject({ status: 'done', reply: 'A quiet answer.' });
    expect(model.requests.map((request) => request.toolNames)).toEqual([[]]);
    await saveScreenshot(page, 'page-chromium-sillytavern');
    await page.close();
  });

  test('a site that is off is not intercepted', async () => {
    const page = await openFixture('/openai-chat/', {}, fixtures.origins.secondary);
    model.reset();
    model.script(() => ({ content: 'Straight from the model.' }));
    const turn = await sendFixtureMessage(page, 'Hello');
    expect(turn).toMatchObject({ status: 'done', reply: 'Straight from the model.' });
    expect(model.requests.map((request) => request.toolNames)).toEqual([[]]);
    expect(await page.evaluate(() => String(window.fetch).includes('[native code]'))).toBe(true);
    await page.close();
  });

  test("the page's Stop button cancels the run and its children", async () => {
    const page = await openFixture('/openai-chat/');
    model.reset();
    model.script((request) => (request.toolNames.includes('task_return') ? { fault: 'hang' } : undefined));
    model.script((request) =>
      request.toolNames.includes('agent_delegate')
        ? request.body.messages.some((message) => message.role === 'tool')
          ? { toolCalls: [{ name: 'agent_await', arguments: {} }] }
          : { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique', objective: 'Critique the scene.' } } }] }
        : undefined,
    );
    const before = (await readRunStore(options)).runs.length;
    await startFixtureMessage(page, 'Take your time');
    await waitUntil(() => model.requests.some((request) => request.toolNames.includes('task_return')), { description: 'the child to start' });
    await page.click('#stop');
    await waitForFixtureStatus(page, 'stopped');
    const { runs, tasks } = await waitForEndedRuns(options, before + 1);
    const run = runs.at(-1);
    expect(run?.status).toBe('cancelled');
    expect(tasks.filter((task) => task.runId === run?.id).map((task) => task.status)).toEqual(['cancelled']);
    await page.close();
  });

  test("a root whose model answers 401 shows the page an error in SillyTavern's format, not a hang", async () => {
    const page = await openFixture('/sillytavern/', { model: 'scripted-model', stream: '0' });
    model.reset();
    model.script(() => ({ fault: 'status', status: 401, message: 'Incorrect API key provided.' }));
    const turn = await sendFixtureMessage(page, 'Hello?');
    expect(turn.status).toBe('error');
    expect(turn.httpStatus).toBe(502);
    expect(turn.error).toContain('Retinue could not finish this reply.');
    expect(turn.error).toContain('401');
    expect(await page.locator('#toast-container').textContent()).toContain('401');
    await page.close();
  });

  test('when the service worker stops mid-run, the bridge reconnects and the run finishes', async () => {
    const page = await openFixture('/openai-chat/');
    model.reset();
    scriptDelegatingRoot(model, { delayMs: 1_500 });
    const before = (await readRunStore(options)).runs.length;
    await startFixtureMessage(page, 'Mara reaches the lighthouse.');
    await waitUntil(() => model.requests.some((request) => request.toolNames.includes('task_return')), { description: 'a child to start' });
    await chromium.stopServiceWorker();
    const state = await waitForFixtureStatus(page, 'done', 60_000);
    for (const delegation of defaultDelegations) expect(state.lastReply).toContain(delegation.finding);
    expect(chromium.serviceWorkerRestarts).toBeGreaterThanOrEqual(1);
    const { runs } = await waitForEndedRuns(options, before + 1);
    expect(runs.at(-1)?.status).toBe('completed');
    const journal = (await readIndexedDb(options, { store: 'journal' })) as Array<{ runId: string; type: string }>;
    expect(journal.filter((event) => event.runId === runs.at(-1)?.id).map((event) => event.type)).toContain('run-resume');
    await page.close();
  });

  test('a page that forges or garbles bridge messages gets nothing it could not get by generating', async () => {
    const page = await openFixture('/openai-chat/');
    const before = (await readRunStore(options)).runs.length;
    const received = await page.evaluate(forgeBridgeMessages, 'An answer to the forged turn.');
    // Malformed messages got no answer at all; the well-formed forged turn got what generating gives:
    // host calls to make (as the page hook would) and then its answer.
    expect(received.afterGarbage).toBe(1);
    expect(JSON.parse(received.seen[0] ?? '{}')).toEqual({ type: 'connected' });
    const answers = received.seen.slice(1).map((text) => JSON.parse(text) as { type: string; requestId?: string });
    expect(answers.every((message) => message.requestId === 'f3')).toBe(true);
    expect(answers.map((message) => message.type)).toEqual(expect.arrayContaining(['host-call', 'response-start', 'response-chunk', 'response-end']));
    const everything = received.seen.join('\n');
    expect(everything).toContain('An answer to the forged turn.');
    expect(everything).not.toContain(SECRET_KEY);
    expect(everything).not.toContain('"connections"');
    expect(everything).not.toMatch(/"runId"/);
    const { runs } = await waitForEndedRuns(options, before + 1);
    expect(runs.length).toBe(before + 1);
    expect(runs.at(-1)?.status).toBe('completed');
    await page.close();
  });
});

/**
 * Runs in the page: offers its own port to the bridge, sends garbage and forgeries, then one
 * well-formed chat turn whose host calls it answers itself with `reply`, as a page hook would.
 */
async function forgeBridgeMessages(reply: string): Promise<{ afterGarbage: number; seen: string[] }> {
  const seen: string[] = [];
  const channel = new MessageChannel();
  const send = (message: unknown) => channel.port1.postMessage(typeof message === 'string' ? message : JSON.stringify(message));
  const sse = `data: ${JSON.stringify({ id: 'f', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: reply }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
  channel.port1.onmessage = (event) => {
    seen.push(String(event.data));
    const message = JSON.parse(String(event.data)) as { type: string; requestId?: string; callId?: string };
    if (message.type !== 'host-call') return;
    const ids = { requestId: message.requestId, callId: message.callId };
    send({ type: 'host-call-start', ...ids, status: 200, contentType: 'text/event-stream' });
    send({ type: 'host-call-chunk', ...ids, text: sse });
    send({ type: 'host-call-end', ...ids });
  };
  window.postMessage('retinue-page-hook:connect', '*', [channel.port2]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  send('{not json');
  send({ type: 'settings-get' });
  send({ type: 'run-resume', runId: 'someone-elses-run' });
  send({ type: 'run-start', requestId: 'f1', adapter: 'openai-chat', body: { messages: [] }, origin: 'https://elsewhere.test' });
  send({ type: 'host-call-chunk', requestId: 'f1', callId: 'call-1', text: 'forged' });
  send({ type: 'run-start', requestId: 'f2', adapter: 'openai-chat', body: { messages: [{ role: 'user', content: 'x'.repeat(5_000_000) }] } });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const afterGarbage = seen.length;
  send({ type: 'run-start', requestId: 'f3', adapter: 'openai-chat', body: { model: 'scripted-model', stream: false, messages: [{ role: 'user', content: 'Forged turn' }] } });
  for (let waited = 0; waited < 150 && !seen.some((text) => text.includes('"response-end"')); waited += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { afterGarbage, seen };
}
