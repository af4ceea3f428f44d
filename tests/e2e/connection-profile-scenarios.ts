import { expect } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import type { AgentProfileInput, ModelBinding } from '../../src/settings/schema';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { SECRET_KEY, scenarioSettings, waitForEndedRuns, type Scenario } from './chat-turn-scenarios';
import { defaultDelegations, scriptDelegatingRoot } from './support/delegating-root-script';
import { evaluateIn, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import { readRunStore } from './support/settings';
import { switchSitesOn } from './support/site-setup';

/** The page's own model; the profile's and the override's differ from it and from each other. */
export const PAGE_MODEL = 'scripted-model';
export const PROFILE_MODEL = 'profile-model';
export const OVERRIDE_MODEL = 'override-model';

type AnyScenario = Scenario<{ close(): Promise<void>; openPage(url: string): Promise<EvaluatingHandle & { close(): Promise<void> }> }, EvaluatingHandle>;

/** A built-in agent with another model binding (an override of the built-in, by its id). */
function rebound(agentId: string, model: ModelBinding): AgentProfileInput {
  const builtIn = builtInProfiles.find((profile) => profile.id === agentId);
  if (!builtIn) throw new Error(`no built-in agent ${agentId}`);
  return { ...builtIn, model };
}

/** Settings where the continuity checker runs on a SillyTavern connection profile and the scene critic on another model of the page's source. */
async function bindHelpers(scenario: AnyScenario, continuityProfileName: string): Promise<void> {
  const settings = scenarioSettings(scenario.fixtures, scenario.model);
  await switchSitesOn(scenario.options, [scenario.fixtures.origins.primary], {
    ...settings,
    profiles: [
      rebound('continuity-checker', { binding: 'hostProfile', profileName: continuityProfileName }),
      rebound('scene-critic', { binding: 'host', model: OVERRIDE_MODEL }),
    ],
  });
}

function requestsOf(model: ScriptedModelServer, systemMarker: string) {
  return model.requests.filter((request) => request.toolNames.includes('task_return') && request.systemText.includes(systemMarker));
}

function expectNoKeyFromRetinue(model: ScriptedModelServer): void {
  for (const request of model.requests) {
    expect(JSON.stringify(request.headers)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(request.body)).not.toContain(SECRET_KEY);
  }
}

const [continuity, critic] = defaultDelegations as [(typeof defaultDelegations)[number], (typeof defaultDelegations)[number]];

/**
 * On the SillyTavern-shaped page: a helper bound to the connection profile "Cheap helper" reaches the
 * model server with that profile's model (and SillyTavern's server got the profile's secret id, not a
 * key), a helper with a model override reaches it with that model, the root keeps the page's model.
 */
export async function helpersOnProfileAndOverride(scenario: AnyScenario): Promise<void> {
  await bindHelpers(scenario, 'Cheap helper');
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: PAGE_MODEL }));
  try {
    await waitForFixtureReady(page);
    scenario.model.reset();
    scenario.fixtures.sillyTavernGenerations.length = 0;
    scriptDelegatingRoot(scenario.model);
    const turn = await sendFixtureMessage(page, 'Tell me about the lighthouse.');
    expect(turn.status).toBe('done');
    expect(turn.reply).toContain(continuity.finding);
    expect(turn.reply).toContain(critic.finding);
    expect(requestsOf(scenario.model, continuity.systemMarker).map((request) => request.body.model)).toEqual([PROFILE_MODEL]);
    expect(requestsOf(scenario.model, critic.systemMarker).map((request) => request.body.model)).toEqual([OVERRIDE_MODEL]);
    const rootModels = scenario.model.requests.filter((request) => request.toolNames.includes('agent_delegate')).map((request) => request.body.model);
    expect(new Set(rootModels)).toEqual(new Set([PAGE_MODEL]));
    expectNoKeyFromRetinue(scenario.model);
    const profileCalls = scenario.fixtures.sillyTavernGenerations.filter((generation) => generation.forwardedBody?.model === PROFILE_MODEL);
    expect(profileCalls.map((generation) => [generation.source, generation.secretId])).toEqual([['custom', 'secret-cheap']]);
  } finally {
    await page.close();
  }
}

/**
 * On the OpenAI-style page: the model override reaches the server as the request's `model`; a helper
 * bound to a connection profile fails (the page has no Connection Manager) and the run goes on.
 */
export async function overrideOnOpenAiPage(scenario: AnyScenario): Promise<void> {
  await bindHelpers(scenario, 'Cheap helper');
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/', { model: PAGE_MODEL }));
  try {
    await waitForFixtureReady(page);
    scenario.model.reset();
    scriptDelegatingRoot(scenario.model);
    const before = (await readRunStore(scenario.options)).runs.length;
    const turn = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');
    expect(turn.status).toBe('done');
    expect(turn.reply).toContain(critic.finding);
    expect(turn.reply).not.toContain(continuity.finding);
    expect(requestsOf(scenario.model, critic.systemMarker).map((request) => request.body.model)).toEqual([OVERRIDE_MODEL]);
    expect(requestsOf(scenario.model, continuity.systemMarker)).toEqual([]);
    expectNoKeyFromRetinue(scenario.model);
    const { tasks } = await waitForEndedRuns(scenario.options, before + 1);
    const failed = tasks.find((task) => task.targetProfileId === 'continuity-checker' && task.status === 'failed');
    expect(JSON.stringify(failed?.error)).toContain('has no Connection Manager to run SillyTavern connection profile “Cheap helper”');
  } finally {
    await page.close();
  }
}

/**
 * A helper bound to a profile the page no longer has: that task fails with a message naming the
 * profile (by name, not id), the other helper's result still reaches the reply.
 */
export async function missingProfileFailsOnlyItsTask(scenario: AnyScenario): Promise<void> {
  await bindHelpers(scenario, 'Deleted profile');
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: PAGE_MODEL }));
  try {
    await waitForFixtureReady(page);
    scenario.model.reset();
    scriptDelegatingRoot(scenario.model);
    const before = (await readRunStore(scenario.options)).runs.length;
    const turn = await sendFixtureMessage(page, 'Tell me about the lighthouse.');
    expect(turn.status).toBe('done');
    expect(turn.reply).toContain(critic.finding);
    expect(turn.reply).not.toContain(continuity.finding);
    const { runs, tasks } = await waitForEndedRuns(scenario.options, before + 1);
    expect(runs.at(-1)?.status).toBe('completed');
    const failed = tasks.find((task) => task.runId === runs.at(-1)?.id && task.targetProfileId === 'continuity-checker');
    expect(failed?.status).toBe('failed');
    const error = JSON.stringify(failed?.error);
    expect(error).toContain('no connection profile named “Deleted profile”');
    expect(error).not.toMatch(/a3f1c2de/);
  } finally {
    await page.close();
  }
}

/**
 * An extension page asks the open SillyTavern page's bridge for its connection profiles: names,
 * sources and models come back (a Text Completion one marked unusable), and nothing else (no ids,
 * server URLs or secret ids); and the page's presets, by name with their sampling.
 */
export async function profilesListedThroughTheBridge(scenario: AnyScenario): Promise<void> {
  await switchSitesOn(scenario.options, [scenario.fixtures.origins.primary], scenarioSettings(scenario.fixtures, scenario.model));
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: PAGE_MODEL }));
  try {
    await waitForFixtureReady(page);
    const answer = await evaluateIn(scenario.options, async (origin: string) => {
      interface TabsApi {
        tabs: { query(filter: object): Promise<Array<{ id?: number; url?: string }>>; sendMessage(id: number, message: unknown): Promise<unknown> };
      }
      const scope = globalThis as { browser?: TabsApi; chrome?: TabsApi };
      const api = (scope.browser ?? scope.chrome)!;
      const tab = (await api.tabs.query({})).find((candidate) => candidate.url?.startsWith(`${origin}/sillytavern/`));
      return api.tabs.sendMessage(tab!.id!, { type: 'connection-profiles-request' });
    }, scenario.fixtures.origins.primary);
    expect(answer).toEqual({
      kind: 'profiles',
      profiles: [
        { name: 'Main', source: 'custom', model: PAGE_MODEL },
        { name: 'Cheap helper', source: 'custom', model: PROFILE_MODEL },
        { name: 'Muse', source: 'custom', model: 'muse-model' },
        { name: 'Local text box', refusal: 'profile-not-chat-completion' },
      ],
      // The page's Chat Completion presets: names and sampling only, never their prompts.
      presets: [
        { name: 'Default', sampling: { temperature: 1, top_p: 1, frequency_penalty: 0, presence_penalty: 0, max_tokens: 300 } },
        { name: 'Cold critic', sampling: { temperature: 0.1, top_p: 0.5, top_k: 20, frequency_penalty: 0.2, presence_penalty: 0, max_tokens: 200, seed: 7 } },
        { name: 'Hot muse', sampling: { temperature: 1.5, top_p: 0.95, frequency_penalty: 0, presence_penalty: 0.4, max_tokens: 700 } },
      ],
    });
  } finally {
    await page.close();
  }
}
