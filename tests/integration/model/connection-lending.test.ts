import { deleteDB } from 'idb';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createLendingGate } from '../../../src/background/connection-lending-gate';
import type { HostNotice } from '../../../src/hosts/host-adapter';
import { createModelResolver } from '../../../src/model/model-resolver';
import { addKeyedSpend, decideConnectionLoan, KEYED_DAILY_TOKEN_BUDGET, readSiteLending } from '../../../src/settings/connection-lending';
import { PRIVATE_DATABASE_NAME } from '../../../src/settings/private-database';
import { connectionSchema, profileSchema, type AgentProfile } from '../../../src/settings/schema';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

let server: ScriptedModelServer;
const site = 'https://chat.example.com';
const critic: AgentProfile = profileSchema.parse({ id: 'critic', name: 'Critic', description: 'critic', systemPrompt: '[[critic]]', model: { binding: 'connection', connectionId: 'paid' } });

beforeEach(async () => {
  await deleteDB(PRIVATE_DATABASE_NAME);
  server = await startScriptedModelServer();
  server.script(() => ({ content: 'ok', usage: { prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500 } }));
});
afterEach(async () => {
  await server.close();
});

/** A resolver as the background builds one for a run on `origin`, with the notices it records. */
async function resolverFor(origin: string) {
  const notices: HostNotice[] = [];
  const gate = createLendingGate({
    lending: await readSiteLending(origin),
    recordNotice: (notice) => notices.push(notice),
    saveSpend: (tokens) => addKeyedSpend(origin, tokens),
  });
  const resolveModel = createModelResolver({
    connections: [connectionSchema.parse({ id: 'paid', label: 'Paid', baseURL: server.baseURL, apiKey: 'sk-paid', defaultModel: 'paid-model' })],
    host: { label: 'the page model', baseURL: server.baseURL, apiKey: 'page-key', model: 'page-model' },
    lending: gate,
  });
  const ask = () => resolveModel(critic).call({ messages: [{ role: 'user', content: 'Go.' }], signal: new AbortController().signal });
  return { ask, notices };
}

const calledWith = () => server.requests.map((request) => [request.body.model, request.headers.authorization]);

test('a keyed connection serves a site only once the user allowed it there; until then the page’s model, with a notice asking', async () => {
  const before = await resolverFor(site);
  await before.ask();
  expect(calledWith()).toEqual([['page-model', 'Bearer page-key']]);
  expect(before.notices).toEqual([{ code: 'connection-consent:paid', messageKey: 'page_notice_connection_consent', substitutions: ['Critic', 'Paid'] }]);

  await decideConnectionLoan({ origin: site, connectionId: 'paid', decision: 'allowed' });
  const after = await resolverFor(site);
  await after.ask();
  expect(calledWith()[1]).toEqual(['paid-model', 'Bearer sk-paid']);
  expect(after.notices).toEqual([]);

  // Allowed for one site is not allowed for another.
  const other = await resolverFor('https://other.example.org');
  await other.ask();
  expect(calledWith()[2]).toEqual(['page-model', 'Bearer page-key']);
});

test('a loopback site starts allowed, until the user refuses', async () => {
  const loopback = 'http://127.0.0.1:8000';
  await (await resolverFor(loopback)).ask();
  await decideConnectionLoan({ origin: loopback, connectionId: 'paid', decision: 'refused' });
  await (await resolverFor(loopback)).ask();

  expect(calledWith()).toEqual([['paid-model', 'Bearer sk-paid'], ['page-model', 'Bearer page-key']]);
});

test('what a keyed connection spends is stored per site and day; past the budget helpers fall back with a notice', async () => {
  await decideConnectionLoan({ origin: site, connectionId: 'paid', decision: 'allowed' });
  const run = await resolverFor(site);
  await run.ask();
  await expect.poll(async () => (await readSiteLending(site)).spentToday).toBe(1_500);

  await addKeyedSpend(site, KEYED_DAILY_TOKEN_BUDGET);
  const late = await resolverFor(site);
  await late.ask();

  expect(calledWith()).toEqual([['paid-model', 'Bearer sk-paid'], ['page-model', 'Bearer page-key']]);
  expect(late.notices).toEqual([{ code: 'keyed-budget-spent', messageKey: 'page_notice_keyed_budget_spent', substitutions: ['Critic', String(KEYED_DAILY_TOKEN_BUDGET)] }]);
});
