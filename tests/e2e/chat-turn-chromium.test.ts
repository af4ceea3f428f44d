import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import type { SettingsInput } from '../../src/settings/schema';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { expectTurnPassesThroughAfterSwitchOff, runDelegatingTurn, waitForEndedRuns, startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { defaultDelegations, scriptDelegatingRoot, type ScriptedDelegation } from './support/delegating-root-script';
import type { ChromiumWithExtension } from './support/chromium';
import { waitUntil } from './support/evaluating-handle';
import { sendFixtureMessage, startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readIndexedDb, readRunStore, readStorage, writeSettings } from './support/settings';
import { saveScreenshot } from './support/screenshots';
import { inviteStrangers, strangerReports } from './support/strangers';
import { LIVE_REPLY_SELECTOR } from './support/reply-growth';
import { READING_SHAPES, runReadingShapeTurn, runStreamedReplyTurn, stopDuringStreamedReply } from './streamed-reply-scenarios';

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

  test('a site switched off while its page is open: the next turn goes to the page’s server untouched', async () => {
    await expectTurnPassesThroughAfterSwitchOff({ options, model, fixtures, openPage: () => openFixture('/openai-chat/') });
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

  test('when the service worker stops after the root cancelled a task, the run finishes and the cancelled task stays cancelled', async () => {
    // The built-in root leaves agent_cancel out to keep its prompt small: this root gets it back.
    const settings = (await readStorage(options, 'settings')) as SettingsInput;
    const root = builtInProfiles.find((profile) => profile.id === 'root')!;
    await writeSettings(options, { ...settings, profiles: [...(settings.profiles ?? []), { ...root, tools: { allow: [...root.tools.allow, 'agent.cancel'] } }] });
    const page = await openFixture('/openai-chat/');
    model.reset();
    const [checker, critic] = defaultDelegations as [ScriptedDelegation, ScriptedDelegation];
    // The critic never answers (the root cancels it, once the critic's call is out); the checker returns at once.
    let criticAsked!: () => void;
    const criticIsOut = new Promise<void>((resolve) => (criticAsked = resolve));
    model.script((request) => {
      if (!request.toolNames.includes('task_return')) return undefined;
      if (request.systemText.includes(critic.systemMarker)) {
        criticAsked();
        return { fault: 'hang' };
      }
      if (request.systemText.includes(checker.systemMarker)) return { toolCalls: [{ name: 'task_return', arguments: { summary: checker.finding } }] };
      return undefined;
    });
    model.script((request) => {
      if (!request.toolNames.includes('agent_delegate')) return undefined;
      const called = request.body.messages.flatMap((message) =>
        message.role === 'assistant' ? (message.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [call.function.name] : [])) : [],
      );
      if (!called.includes('agent_delegate')) {
        return { toolCalls: [checker, critic].map((task) => ({ name: 'agent_delegate', arguments: { agentId: task.agentId, task: { title: task.title, objective: task.objective } } })) };
      }
      if (!called.includes('agent_cancel')) return criticIsOut.then(() => ({ toolCalls: [{ name: 'agent_cancel', arguments: { tasks: [critic.agentId] } }] }));
      // The await comes late, so the worker is stopped while the run is still going.
      if (!called.includes('agent_await')) return { delayMs: 3_000, toolCalls: [{ name: 'agent_await', arguments: {} }] };
      const results = request.body.messages.filter((message) => message.role === 'tool').map((message) => String(message.content)).join('\n');
      return { content: results.includes(checker.finding) ? `Reply with: ${checker.finding}` : 'Reply without the checker.' };
    });
    const earlierRuns = (await readRunStore(options)).runs;
    const before = earlierRuns.length;
    const earlierRunIds = new Set(earlierRuns.map((run) => run.id));
    await startFixtureMessage(page, 'Mara reaches the lighthouse.');
    // Only this turn's tasks: earlier tests of this file leave cancelled tasks of their own.
    const cancelledTask = async () =>
      ((await readIndexedDb(options, { store: 'tasks' })) as Array<{ status: string; runId: string }>).some(
        (task) => task.status === 'cancelled' && !earlierRunIds.has(task.runId),
      );
    await waitUntil(cancelledTask, { description: 'the root to cancel the critic' });
    const restartsBefore = chromium.serviceWorkerRestarts;
    await chromium.stopServiceWorker();
    const state = await waitForFixtureStatus(page, 'done', 60_000);
    expect(state.lastReply).toBe(`Reply with: ${checker.finding}`);
    expect(chromium.serviceWorkerRestarts).toBeGreaterThan(restartsBefore);
    const { runs } = await waitForEndedRuns(options, before + 1);
    const run = runs.at(-1);
    expect(run?.status).toBe('completed');
    const tasks = (await readIndexedDb(options, { store: 'tasks' })) as Array<{ runId: string; workspaceKey: string; status: string; resultRef?: string }>;
    // The store lists tasks by their (random) ids: compare them by name.
    const mine = tasks.filter((task) => task.runId === run?.id).sort((left, right) => left.workspaceKey.localeCompare(right.workspaceKey));
    expect(mine.map((task) => [task.workspaceKey, task.status])).toEqual([
      [checker.agentId, 'completed'],
      [critic.agentId, 'cancelled'],
    ]);
    const files = (await readIndexedDb(options, { store: 'files' })) as Array<{ runId: string; path: string; content: string }>;
    const checkerTask = mine.find((task) => task.workspaceKey === checker.agentId);
    const capsule = files.find((file) => file.runId === run?.id && file.path === checkerTask?.resultRef);
    expect(capsule?.content).toContain(checker.finding);
    expect(model.requests.filter((request) => request.systemText.includes(critic.systemMarker))).toHaveLength(1);
    const journal = (await readIndexedDb(options, { store: 'journal' })) as Array<{ runId: string; type: string }>;
    expect(journal.filter((event) => event.runId === run?.id).map((event) => event.type)).toContain('run-resume');
    await page.close();
    await writeSettings(options, settings);
  });

  test('frames, a sandboxed srcdoc frame, a popup and a second connect get nothing; the page’s own turn is delegated', async () => {
    const page = await openFixture('/openai-chat/');
    const before = (await readRunStore(options)).runs.length;
    await inviteStrangers(page, fixtures.origins.secondary);
    await runDelegatingTurn(page, model, 'Mara reaches the lighthouse.');
    expect(await strangerReports(page)).toEqual({ frame: [], srcdoc: [], popup: [], 'page-again': [] });
    const { runs } = await waitForEndedRuns(options, before + 1);
    expect(runs.length).toBe(before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'completed', origin: fixtures.origins.primary });
    await page.close();
  });
});

describe('Chromium: the page ends with the reply the final reading keeps', () => {
  for (const shape of READING_SHAPES) {
    test(`${shape.name}, on both fixture pages`, async () => {
      for (const [path, query] of [['/sillytavern/', { model: 'scripted-model' }], ['/openai-chat/', undefined]] as const) {
        const page = await openFixture(path, query);
        await runReadingShapeTurn(page, model, shape, options);
        await page.close();
      }
    });
  }
});
