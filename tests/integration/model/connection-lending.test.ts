import { deleteDB } from 'idb';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createLendingGate } from '../../../src/background/connection-lending-gate';
import { createKeyedSpendLedger, type KeyedSpendLedger } from '../../../src/background/keyed-spend-ledger';
import type { HostNotice } from '../../../src/hosts/host-adapter';
import { createModelResolver } from '../../../src/model/model-resolver';
import { addKeyedSpend, decideConnectionLoan, KEYED_DAILY_TOKEN_BUDGET, readSiteLending } from '../../../src/settings/connection-lending';
import { PRIVATE_DATABASE_NAME } from '../../../src/settings/private-database';
import { connectionSchema, profileSchema, type AgentProfile } from '../../../src/settings/schema';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

let server: ScriptedModelServer;
/** The background's one ledger: every run of a test shares it, as every run port does. */
let ledger: KeyedSpendLedger;
const site = 'https://chat.example.com';
const critic: AgentProfile = profileSchema.parse({ id: 'critic', name: 'Critic', description: 'critic', systemPrompt: '[[critic]]', model: { binding: 'connection', connectionId: 'paid' } });

beforeEach(async () => {
  await deleteDB(PRIVATE_DATABASE_NAME);
  server = await startScriptedModelServer();
  ledger = createKeyedSpendLedger();
  server.script(() => ({ content: 'ok', usage: { prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500 } }));
});
afterEach(async () => {
  await server.close();
});

/** A resolver as the background builds one for a run on `origin`, with the notices it records. */
async function resolverFor(origin: string, runLedger: KeyedSpendLedger = ledger) {
  const notices: HostNotice[] = [];
  const gate = createLendingGate({
    lending: await readSiteLending(origin),
    recordNotice: (notice) => notices.push(notice),
    ledger: runLedger,
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

const paidCalls = () => server.requests.filter((request) => request.headers.authorization === 'Bearer sk-paid').length;

/** Two runs of one site at once, each asking its keyed helper `calls` times in a row. */
async function twoRunsAtOnce(calls: number, ledgers: [KeyedSpendLedger, KeyedSpendLedger]) {
  const runs = await Promise.all(ledgers.map((runLedger) => resolverFor(site, runLedger)));
  await Promise.all(
    runs.map(async (run) => {
      for (let call = 0; call < calls; call += 1) await run.ask();
    }),
  );
  await expect.poll(async () => (await readSiteLending(site)).spentToday).toBe(KEYED_DAILY_TOKEN_BUDGET - 5_000 + paidCalls() * 1_500);
  return runs;
}

test('two runs of one site at once stay within its daily keyed budget, to within one call', async () => {
  await decideConnectionLoan({ origin: site, connectionId: 'paid', decision: 'allowed' });
  // 5,000 tokens left today; each call spends 1,500.
  await addKeyedSpend(site, KEYED_DAILY_TOKEN_BUDGET - 5_000);

  const runs = await twoRunsAtOnce(6, [ledger, ledger]);

  const spent = (await readSiteLending(site)).spentToday;
  expect(spent).toBeGreaterThanOrEqual(KEYED_DAILY_TOKEN_BUDGET - 1_500);
  expect(spent).toBeLessThanOrEqual(KEYED_DAILY_TOKEN_BUDGET + 1_500);
  // Every call past the budget went to the page's model, and a run that met it said so.
  expect(server.requests).toHaveLength(12);
  expect(runs.flatMap((run) => run.notices).every((notice) => notice.code === 'keyed-budget-spent')).toBe(true);
});

test('(the defect it guards) runs that each count only their own spending from the day they started spend the rest twice', async () => {
  await decideConnectionLoan({ origin: site, connectionId: 'paid', decision: 'allowed' });
  await addKeyedSpend(site, KEYED_DAILY_TOKEN_BUDGET - 5_000);

  // One ledger per run is how the gate counted before: each run from the day's total at its start.
  await twoRunsAtOnce(6, [createKeyedSpendLedger(), createKeyedSpendLedger()]);

  expect((await readSiteLending(site)).spentToday).toBeGreaterThan(KEYED_DAILY_TOKEN_BUDGET + 1_500);
});

test('a helper already given the keyed connection falls back for the calls its site’s budget no longer covers', async () => {
  await decideConnectionLoan({ origin: site, connectionId: 'paid', decision: 'allowed' });
  await addKeyedSpend(site, KEYED_DAILY_TOKEN_BUDGET - 2_000);
  const notices: HostNotice[] = [];
  const resolveModel = createModelResolver({
    connections: [connectionSchema.parse({ id: 'paid', label: 'Paid', baseURL: server.baseURL, apiKey: 'sk-paid', defaultModel: 'paid-model' })],
    host: { label: 'the page model', baseURL: server.baseURL, apiKey: 'page-key', model: 'page-model', pageModel: 'page-model' },
    lending: createLendingGate({ lending: await readSiteLending(site), recordNotice: (notice) => notices.push(notice), ledger }),
  });
  // Resolved once, as an invocation does, then called round after round.
  const client = resolveModel(critic);
  const answeredBy = [];
  for (let round = 0; round < 3; round += 1) answeredBy.push((await client.call({ messages: [{ role: 'user', content: 'Go.' }], signal: new AbortController().signal })).answeredBy);

  expect(calledWith().map(([model]) => model)).toEqual(['paid-model', 'paid-model', 'page-model']);
  // The call the page's model answered says so: the journal and the costs name it, not the connection.
  expect(answeredBy).toEqual([undefined, undefined, { label: 'the page model', pageModel: 'page-model' }]);
  expect(notices.map((notice) => notice.code)).toEqual(['keyed-budget-spent']);
});
