import { expect } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import type { AgentProfile } from '../../src/settings/schema';
import { type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { scenarioSettings, waitForEndedRuns } from './chat-turn-scenarios';
import type { EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readRunStore } from './support/settings';
import { switchSitesOn } from './support/site-setup';

/**
 * An after-the-reply helper on the SillyTavern fixture page, for Chromium and Firefox alike (issue
 * 25): the scene critic is set to run "after the reply". The first turn's reply reaches the page
 * while the critic is still held back (it never delays the reply); once it returns, the second turn
 * of the same chat starts with its finding in the root's "Since your last reply" section.
 */

export const CADENCE_CHAT_ID = 'Mara - 2026-12-02@01h00m00s';
const AFTER_FINDING = 'The keeper never lit the lamp: the reply skipped it.';
const FIRST_REPLY = 'The tower stands dark.';

/** Switches the primary site on with the built-in scene critic set to run as `runs` says (its cadence). */
export async function switchOnCriticRunning(runs: AgentProfile['runs'], options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer): Promise<void> {
  const critic = builtInProfiles.find((profile) => profile.id === 'scene-critic');
  if (!critic) throw new Error('The built-in scene critic is missing.');
  await switchSitesOn(options, [fixtures.origins.primary], { ...scenarioSettings(fixtures, model), profiles: [{ ...critic, runs }] });
}

/** Switches the primary site on with the built-in scene critic running after the reply. */
export const switchOnAfterReplyCritic = (options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer) => switchOnCriticRunning('after the reply', options, fixtures, model);

/** The scene critic's calls and the writer's, as the scripted model server sees them. */
export const isCritic = (request: ScriptedRequest): boolean => request.toolNames.includes('task_return') && request.systemText.includes('You are a scene critic');
export const isRoot = (request: ScriptedRequest): boolean => !request.toolNames.includes('task_return');

function scriptAfterReplyTurns(model: ScriptedModelServer, released: Promise<void>): void {
  model.reset();
  model.script(async (request) => {
    if (!isCritic(request)) return undefined;
    await released;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: AFTER_FINDING, status: 'completed' } }] };
  });
  model.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    if (request.systemText.includes(AFTER_FINDING)) return { content: 'She lights the lamp.' };
    return { content: FIRST_REPLY };
  });
}

/** Two turns: the reply before the held critic, its finding in the next turn's first request. */
export async function runAfterReplyTurns(page: EvaluatingHandle, options: EvaluatingHandle, model: ScriptedModelServer): Promise<void> {
  let release: () => void = () => undefined;
  scriptAfterReplyTurns(model, new Promise<void>((resolve) => (release = resolve)));
  await waitForFixtureReady(page);

  const first = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');
  expect(first).toMatchObject({ status: 'done', reply: FIRST_REPLY });
  // The reply is on the page while the critic, started once it was out, is still held back.
  const atReply = await readRunStore(options);
  expect(atReply.runs[0]?.repliedAt).toBeTypeOf('number');
  expect(atReply.runs[0]?.status).toBe('running');
  await expect.poll(async () => (await readRunStore(options)).tasks, { timeout: 10_000 }).toEqual([
    expect.objectContaining({ targetProfileId: 'scene-critic', startedBy: 'cadence', cadence: 'after the reply' }),
  ]);
  await expect.poll(() => model.requests.filter(isCritic).length, { timeout: 10_000 }).toBe(1);

  release();
  const { runs: afterFirst, tasks } = await waitForEndedRuns(options, 1);
  expect(afterFirst[0]?.status).toBe('completed');
  expect(tasks.map((task) => task.status)).toEqual(['completed']);

  const before = model.requests.length;
  const second = await sendFixtureMessage(page, 'She climbs the stairs.');
  expect(second).toMatchObject({ status: 'done', reply: 'She lights the lamp.' });
  const secondRoot = model.requests.slice(before).filter(isRoot);
  expect(secondRoot[0]?.systemText).toContain('## Since your last reply');
  expect(secondRoot[0]?.systemText).toContain(AFTER_FINDING);
  await waitForEndedRuns(options, 2);
}
