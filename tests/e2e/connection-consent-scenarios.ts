import { expect } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import { messageText, type ScriptedModelServer, type ScriptedRequest } from '../support/scripted-model-server';
import { SECRET_KEY, scenarioSettings } from './chat-turn-scenarios';
import { expectKeyOnlyInPrivateDatabase } from './api-keys-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { writeSettings } from './support/settings';

/**
 * A keyed connection lent in the side panel: the built-in scene critic is bound to the scenario's keyed
 * connection, which the user has not lent to the page's site (a loopback site starts allowed, so the
 * scenario records a refusal first). The first turn's critic runs on the page's model and the side panel
 * asks; after Allow on this site, the next turn's critic calls the connection with its key.
 */

const isCriticCall = (request: ScriptedRequest) => JSON.stringify(request.body).includes('You are a scene critic');

function scriptCritiquedTurn(model: ScriptedModelServer): void {
  model.reset();
  model.script((request) => {
    if (!request.toolNames.includes('task_return') || !request.systemText.includes('You are a scene critic')) return undefined;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: 'The storm needs more teeth.', status: 'completed' } }] };
  });
  model.script((request) => {
    if (!request.toolNames.includes('agent_delegate')) return undefined;
    const toolResults = request.body.messages.filter((message) => message.role === 'tool').map((message) => messageText(message));
    if (toolResults.length === 0) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the scene', objective: 'Critique it.' } } }] };
    }
    if (toolResults.length === 1) return { toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }] };
    return { content: 'The keeper lights the lamp.' };
  });
}

/** Records, as the options page's Revoke does, that `origin` may not use the keyed connection. */
async function refuseLoan(options: EvaluatingHandle, origin: string): Promise<void> {
  await evaluateIn(options, async (site: string) => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('retinue-private');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('could not open retinue-private'));
    });
    await new Promise<void>((resolve, reject) => {
      const transaction = database.transaction('connectionLoans', 'readwrite');
      transaction.objectStore('connectionLoans').put({ origin: site, connectionId: 'spare', decision: 'refused', decidedAt: Date.now() });
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error ?? new Error('could not write the refusal'));
    });
    database.close();
  }, origin);
}

async function runTurn(page: EvaluatingHandle, model: ScriptedModelServer, text: string): Promise<ScriptedRequest> {
  scriptCritiquedTurn(model);
  await waitForFixtureReady(page);
  await startFixtureMessage(page, text);
  await waitForFixtureStatus(page, 'done');
  const critic = model.requests.find(isCriticCall);
  if (!critic) throw new Error('the scene critic made no model call');
  return critic;
}

export async function expectHelperOnPageModelUntilAllowed(setup: { options: EvaluatingHandle; panel: EvaluatingHandle; page: EvaluatingHandle; fixtures: FixtureServer; model: ScriptedModelServer }): Promise<void> {
  const { options, panel, page, fixtures, model } = setup;
  const critic = builtInProfiles.find((profile) => profile.id === 'scene-critic');
  if (!critic) throw new Error('the built-in scene critic is missing');
  await writeSettings(options, { ...scenarioSettings(fixtures, model), profiles: [{ ...critic, model: { binding: 'connection', connectionId: 'spare' } }] });
  await expectKeyOnlyInPrivateDatabase(options);
  await refuseLoan(options, fixtures.origins.primary);

  const before = await runTurn(page, model, 'Mara knocks at the lighthouse door.');
  expect(JSON.stringify(before.headers)).not.toContain(SECRET_KEY);

  const asked = await waitUntil(
    () => evaluateIn(panel, () => {
      const button = Array.from(document.querySelectorAll('.page-notice button')).find((candidate) => candidate.textContent === 'Allow on this site') as HTMLButtonElement | undefined;
      const text = button?.closest('.page-notice')?.textContent ?? undefined;
      button?.click();
      return text;
    }, undefined),
    { description: 'the side panel asking to lend the connection' },
  );
  expect(asked).toContain('carries your API key');
  await waitUntil(
    () => evaluateIn(panel, () => !document.querySelector('.page-notices')?.textContent?.includes('carries your API key'), undefined),
    { description: 'the question to go once answered' },
  );

  const after = await runTurn(page, model, 'Mara climbs the stairs.');
  expect(after.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
}
