import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BACKGROUND_HEARTBEAT_MS } from '../../src/background/background-keep-alive';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import type { SettingsInput } from '../../src/settings/schema';
import type { ScriptedRequest } from '../support/scripted-model-server';
import { waitForEndedRuns, startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { defaultDelegations, scriptDelegatingRoot, type ScriptedDelegation } from './support/delegating-root-script';
import { startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import { readIndexedDb, readRunStore, readStorage, writeSettings } from './support/settings';

/**
 * Firefox has no service worker to stop: its MV3 background is an event page, which Firefox unloads
 * once it has been idle for `extensions.background.idle.timeout` (30 s by default). While a run works
 * the background's keep-alive makes an extension API call every `BACKGROUND_HEARTBEAT_MS` (5 s), which
 * resets that timer; with the preference below the heartbeat interval, Firefox unloads the background
 * between two heartbeats during one slow model call, as a crash would. The page's bridge reconnects,
 * which starts the background again, and the run resumes from the store. keep-alive-firefox.test.ts
 * checks the other side: with the timeout above the heartbeat, a longer call is never cut.
 */
const IDLE_TIMEOUT_MS = 3_000;
if (IDLE_TIMEOUT_MS >= BACKGROUND_HEARTBEAT_MS) throw new Error('The idle timeout must be shorter than the heartbeat, or nothing unloads the background.');
/**
 * Far longer than the idle timeout: the background is unloaded while this call is in flight, and the
 * call is cut there (after the restart the critic answers at once), so its length costs nothing when
 * all goes well. At 8 s one fresh-clone run saw no unload: a call that short leaves Firefox one or
 * two heartbeat gaps to find idle; 20 s leaves it four.
 */
const SLOW_CALL_MS = 20_000;

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario({ 'extensions.background.idle.timeout': IDLE_TIMEOUT_MS });
});

afterAll(() => scenario?.close());

const [checker, critic] = defaultDelegations as [ScriptedDelegation, ScriptedDelegation];
const isChild = (delegation: ScriptedDelegation) => (request: ScriptedRequest) =>
  request.toolNames.includes('task_return') && request.systemText.includes(delegation.systemMarker);

async function openChatPage() {
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
  await waitForFixtureReady(page);
  return page;
}

async function runJournal(runId: unknown): Promise<string[]> {
  const journal = (await readIndexedDb(scenario.options, { store: 'journal' })) as Array<{ runId: string; type: string }>;
  return journal.filter((event) => event.runId === runId).map((event) => event.type);
}

async function storedTasks(runId: unknown) {
  const tasks = (await readIndexedDb(scenario.options, { store: 'tasks' })) as Array<{ runId: string; workspaceKey: string; status: string; resultRef?: string }>;
  // The store lists tasks by their (random) ids: compare them by name.
  return tasks.filter((task) => task.runId === runId).sort((left, right) => left.workspaceKey.localeCompare(right.workspaceKey));
}

async function capsuleOf(runId: unknown, resultRef: string | undefined): Promise<string | undefined> {
  const files = (await readIndexedDb(scenario.options, { store: 'files' })) as Array<{ runId: string; path: string; content: string }>;
  return files.find((file) => file.runId === runId && file.path === resultRef)?.content;
}

describe('Firefox: the background unloaded mid-run', () => {
  test('the run resumes and finishes: the reply carries both capsules, the finished child is not asked again', async () => {
    const page = await openChatPage();
    scenario.model.reset();
    // The critic's first call outlasts the idle timeout; after the restart it answers at once.
    scenario.model.queue(isChild(critic), { delayMs: SLOW_CALL_MS, toolCalls: [{ name: 'task_return', arguments: { summary: critic.finding } }] });
    scriptDelegatingRoot(scenario.model);
    const before = (await readRunStore(scenario.options)).runs.length;

    await startFixtureMessage(page, 'Mara reaches the lighthouse.');
    const state = await waitForFixtureStatus(page, 'done', 60_000);

    for (const delegation of defaultDelegations) expect(state.lastReply).toContain(delegation.finding);
    const { runs } = await waitForEndedRuns(scenario.options, before + 1);
    const run = runs.at(-1);
    expect(run?.status).toBe('completed');
    expect(await runJournal(run?.id)).toContain('run-resume');
    const tasks = await storedTasks(run?.id);
    expect(tasks.map((task) => task.status)).toEqual(['completed', 'completed']);
    for (const task of tasks) expect(await capsuleOf(run?.id, task.resultRef)).toBeDefined();
    expect(scenario.model.requests.filter(isChild(checker))).toHaveLength(1);
    await page.close();
  }, 90_000);

  test('a task cancelled before the background was unloaded stays cancelled, and the other’s capsule is used', async () => {
    // The built-in root leaves agent_cancel out to keep its prompt small: this root gets it back.
    const settings = (await readStorage(scenario.options, 'settings')) as SettingsInput;
    const root = builtInProfiles.find((profile) => profile.id === 'root')!;
    await writeSettings(scenario.options, { ...settings, profiles: [...(settings.profiles ?? []), { ...root, tools: { allow: [...root.tools.allow, 'agent.cancel'] } }] });
    const page = await openChatPage();
    scenario.model.reset();
    // The root cancels the critic only once the critic's call is out: the test is about a running task.
    let criticAsked!: () => void;
    const criticIsOut = new Promise<void>((resolve) => (criticAsked = resolve));
    scenario.model.script((request) => {
      if (!isChild(critic)(request)) return undefined;
      criticAsked();
      return { fault: 'hang' };
    });
    scenario.model.script((request) => (isChild(checker)(request) ? { toolCalls: [{ name: 'task_return', arguments: { summary: checker.finding } }] } : undefined));
    let awaitDelayed = false;
    scenario.model.script((request) => {
      if (!request.toolNames.includes('agent_delegate')) return undefined;
      const called = request.body.messages.flatMap((message) =>
        message.role === 'assistant' ? (message.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [call.function.name] : [])) : [],
      );
      if (!called.includes('agent_delegate')) {
        return { toolCalls: [checker, critic].map((task) => ({ name: 'agent_delegate', arguments: { agentId: task.agentId, task: { title: task.title, objective: task.objective } } })) };
      }
      if (!called.includes('agent_cancel')) return criticIsOut.then(() => ({ toolCalls: [{ name: 'agent_cancel', arguments: { tasks: [critic.agentId] } }] }));
      if (!called.includes('agent_await')) {
        // The first await outlasts the idle timeout: the background is unloaded after the cancel.
        const delayMs = awaitDelayed ? 0 : SLOW_CALL_MS;
        awaitDelayed = true;
        return { delayMs, toolCalls: [{ name: 'agent_await', arguments: {} }] };
      }
      const results = request.body.messages.filter((message) => message.role === 'tool').map((message) => String(message.content)).join('\n');
      return { content: results.includes(checker.finding) ? `Reply with: ${checker.finding}` : 'Reply without the checker.' };
    });
    const before = (await readRunStore(scenario.options)).runs.length;

    await startFixtureMessage(page, 'Mara reaches the lighthouse.');
    const state = await waitForFixtureStatus(page, 'done', 60_000);

    expect(state.lastReply).toBe(`Reply with: ${checker.finding}`);
    const { runs } = await waitForEndedRuns(scenario.options, before + 1);
    const run = runs.at(-1);
    expect(run?.status).toBe('completed');
    expect(await runJournal(run?.id)).toContain('run-resume');
    const tasks = await storedTasks(run?.id);
    expect(tasks.map((task) => [task.workspaceKey, task.status])).toEqual([
      [checker.agentId, 'completed'],
      [critic.agentId, 'cancelled'],
    ]);
    expect(await capsuleOf(run?.id, tasks[0]?.resultRef)).toContain(checker.finding);
    expect(scenario.model.requests.filter(isChild(critic))).toHaveLength(1);
    await page.close();
    await writeSettings(scenario.options, settings);
  }, 90_000);
});
