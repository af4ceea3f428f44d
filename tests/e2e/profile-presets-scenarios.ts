import { expect } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import type { AgentProfileInput, ModelBinding } from '../../src/settings/schema';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { scenarioSettings, waitForEndedRuns, type Scenario } from './chat-turn-scenarios';
import { defaultDelegations, scriptDelegatingRoot } from './support/delegating-root-script';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import { readRunStore } from './support/settings';
import { switchSitesOn } from './support/site-setup';

type AnyScenario = Scenario<
  { close(): Promise<void>; openPage(url: string): Promise<EvaluatingHandle & { close(): Promise<void> }>; openExtensionPage(path: string): Promise<EvaluatingHandle & { close(): Promise<void> }> },
  EvaluatingHandle
>;

const [continuity, critic] = defaultDelegations as [(typeof defaultDelegations)[number], (typeof defaultDelegations)[number]];

function rebound(agentId: string, model: ModelBinding): AgentProfileInput {
  const builtIn = builtInProfiles.find((profile) => profile.id === agentId);
  if (!builtIn) throw new Error(`no built-in agent ${agentId}`);
  return { ...builtIn, model };
}

function bodiesOf(model: ScriptedModelServer, systemMarker: string) {
  return model.requests.filter((request) => request.toolNames.includes('task_return') && request.systemText.includes(systemMarker)).map((request) => request.body);
}

/** The "ran with" lines of the side panel's task rows, by agent. */
async function shownRanWith(panel: EvaluatingHandle): Promise<Record<string, { parts: string; dropped: string | null }>> {
  return evaluateIn(panel, () => {
    const shown: Record<string, { parts: string; dropped: string | null }> = {};
    for (const row of Array.from(document.querySelectorAll('li.task-row'))) {
      const agent = row.querySelector('.task-agent')?.textContent ?? '';
      const parts = row.querySelector('[data-ran-with-parts]')?.textContent;
      if (parts) shown[agent] = { parts, dropped: row.querySelector('[data-ran-with-dropped]')?.textContent ?? null };
    }
    return shown;
  }, undefined);
}

/**
 * On the SillyTavern-shaped page, whose preset manager holds the page's open "Default" and the
 * presets "Cold critic" and "Hot muse" of the profiles "Cheap helper" and "Muse": a helper on each
 * profile sends its own preset's samplers (none of the page's), and the side panel's task rows show
 * each one's model and preset, and the field its source did not take.
 */
export async function twoHelpersOnTwoPresets(scenario: AnyScenario): Promise<void> {
  const origin = scenario.fixtures.origins.primary;
  await switchSitesOn(scenario.options, [origin], {
    ...scenarioSettings(scenario.fixtures, scenario.model),
    profiles: [rebound('continuity-checker', { binding: 'hostProfile', profileName: 'Cheap helper' }), rebound('scene-critic', { binding: 'hostProfile', profileName: 'Muse' })],
  });
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(origin)}`);
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/'));
  try {
    await waitForFixtureReady(page);
    scenario.model.reset();
    scriptDelegatingRoot(scenario.model);
    const before = (await readRunStore(scenario.options)).runs.length;

    const turn = await sendFixtureMessage(page, 'Tell me about the lighthouse.');

    expect(turn.status).toBe('done');
    expect(turn.reply).toContain(continuity.finding);
    expect(turn.reply).toContain(critic.finding);
    for (const body of bodiesOf(scenario.model, continuity.systemMarker)) {
      expect(body).toMatchObject({ model: 'profile-model', temperature: 0.1, top_p: 0.5, frequency_penalty: 0.2, presence_penalty: 0, max_tokens: 200, seed: 7 });
    }
    for (const body of bodiesOf(scenario.model, critic.systemMarker)) {
      expect(body).toMatchObject({ model: 'muse-model', temperature: 1.5, top_p: 0.95, frequency_penalty: 0, presence_penalty: 0.4, max_tokens: 700 });
      expect(body).not.toHaveProperty('seed');
    }
    expect(bodiesOf(scenario.model, continuity.systemMarker).length).toBeGreaterThan(0);
    expect(bodiesOf(scenario.model, critic.systemMarker).length).toBeGreaterThan(0);
    const preset = scenario.fixtures.sillyTavernGenerations.find((generation) => generation.forwardedBody?.model === 'profile-model');
    expect(JSON.stringify(preset?.forwardedBody)).not.toContain('Preset prompt that helpers must not get');

    const { tasks } = await waitForEndedRuns(scenario.options, before + 1);
    expect(tasks.find((task) => task.targetProfileId === 'continuity-checker')?.ranWith).toMatchObject({ model: 'profile-model', preset: 'Cold critic', dropped: ['top_k'] });
    expect(tasks.find((task) => task.targetProfileId === 'scene-critic')?.ranWith).toMatchObject({ model: 'muse-model', preset: 'Hot muse', dropped: [] });
    const shown = await waitUntil(
      async () => {
        const read = await shownRanWith(panel);
        return read['continuity-checker'] && read['scene-critic'] ? read : undefined;
      },
      { description: 'both task rows showing what their helper ran with', timeoutMs: 20_000 },
    );
    expect(shown['continuity-checker']?.parts).toContain('model profile-model · preset “Cold critic” · temperature 0.1 · top_p 0.5');
    expect(shown['continuity-checker']?.dropped).toContain('top_k');
    expect(shown['scene-critic']?.parts).toContain('model muse-model · preset “Hot muse” · temperature 1.5 · top_p 0.95');
    expect(shown['scene-critic']?.dropped).toBeNull();
  } finally {
    await page.close();
    await panel.close();
  }
}
