import { afterEach, beforeEach, expect, test } from 'vitest';
import { decideLoreProposal } from '../../../src/background/lore-decisions';
import { loreSaveAnswerSchema } from '../../../src/messaging/lore-messages';
import { saveLoreEntryInPage } from '../../../src/hosts/sillytavern/lore-page-functions';
import { messageText } from '../../support/scripted-model-server';
import { createFixtureLoreReader, createLoreWindow } from '../../support/fixture-lorebooks';
import { delegate, isChecker, isRoot, requestsOf, MARKER, startHarness, testProfiles, type Harness } from './runtime-harness';

const LORE_TOOLS = ['lore.list_activated', 'lore.search', 'lore.read', 'lore.propose'] as const;

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({
    profiles: testProfiles({ checker: { tools: { allow: ['workspace.write', 'chat.read', ...LORE_TOOLS] }, budget: { maxRounds: 8, maxToolCalls: 12 } } }),
  });
});
afterEach(async () => {
  await harness.close();
});

function scriptRootDelegatingChecker(): void {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('continuity-checker', 'Check the lore')] },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['continuity-checker'] } }] },
    { content: 'The reply.' },
  );
}

const toolResults = (marker: string) =>
  requestsOf(harness.server, marker)
    .at(-1)
    ?.body.messages.filter((message) => message.role === 'tool')
    .map((message) => messageText(message)) ?? [];

test('on SillyTavern a child lists the activated entries, finds one that did not trigger, reads it and proposes a change that writes nothing', async () => {
  const page = createLoreWindow();
  const reader = createFixtureLoreReader(page.window);
  scriptRootDelegatingChecker();
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'lore_list_activated', arguments: {} }] },
    { toolCalls: [{ name: 'lore_search', arguments: { query: 'vault' } }] },
    { toolCalls: [{ name: 'lore_read', arguments: { ref: 'Eldoria #3' } }] },
    { toolCalls: [{ name: 'lore_propose', arguments: { ref: 'Eldoria #3', book: 'Eldoria', keys: ['silver key', 'vault'], content: 'The silver key was stolen in message #3.', reason: 'Message #3 says it was stolen.' } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Eldoria #3 is out of date; proposed an update.' } }] },
  );

  const outcome = await harness.start({ adapter: 'sillytavern', lore: reader });

  expect(outcome.run.status).toBe('completed');
  expect(requestsOf(harness.server, MARKER.checker)[0]?.toolNames).toEqual(expect.arrayContaining(['lore_list_activated', 'lore_search', 'lore_read', 'lore_propose']));
  const [activated, search, read, proposed] = toolResults(MARKER.checker);
  expect(activated).toContain('- Eldoria #0 — The kingdom of Eldoria');
  expect(activated).not.toContain('Eldoria #3');
  expect(search).toContain('- Eldoria #3 — The silver key (keys: silver key, vault)');
  expect(read).toContain("The silver key opens the royal vault beneath Vael. Only the queen's steward carries it.");
  expect(proposed).toContain('Proposed a change to Eldoria #3. Nothing was written');
  expect(page.saves).toEqual([]);
  expect(reader.reads).toBe(4);

  const journal = await harness.journal(outcome.run.id);
  const proposal = journal.find((event) => event.type === 'lore-proposal');
  expect(proposal?.data).toMatchObject({ workspaceKey: 'continuity-checker', book: 'Eldoria', uid: 3, keys: ['silver key', 'vault'], before: { title: 'The silver key' } });
  expect(journal.filter((event) => event.type === 'lore-lookup').map((event) => event.data.labels)).toEqual([['Eldoria #0', 'Mira #0'], ['"vault"', 'Eldoria #3'], ['Eldoria #3']]);

  // Only the user's Apply writes it, through the page's saveWorldInfo.
  const applied = await decideLoreProposal({
      isSiteOn: async () => true,
    store: harness.store,
    runId: outcome.run.id,
    proposalId: String(proposal?.data.proposalId),
    decision: 'apply',
    save: async (_origin, change) => loreSaveAnswerSchema.parse(await saveLoreEntryInPage(change, page.window)),
  });
  expect(applied).toEqual({ ok: true });
  expect(page.saves.map((save) => save.name)).toEqual(['Eldoria']);
  expect(page.books['Eldoria']?.entries['3']?.content).toBe('The silver key was stolen in message #3.');
});

test('on a host without lorebooks the same child is not offered the lore tools, and a call to one is refused', async () => {
  scriptRootDelegatingChecker();
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'lore_search', arguments: { query: 'vault' } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'No lore here.' } }] },
  );

  const outcome = await harness.start({ adapter: 'openai-chat', lore: createFixtureLoreReader(createLoreWindow().window) });

  expect(outcome.run.status).toBe('completed');
  const offered = requestsOf(harness.server, MARKER.checker).flatMap((request) => request.toolNames);
  expect(offered.filter((name) => name.startsWith('lore_'))).toEqual([]);
  expect(toolResults(MARKER.checker)[0]).toMatch(/lore_search/);
});

test('a page that cannot be read gives the child a plain answer, and the run goes on', async () => {
  scriptRootDelegatingChecker();
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'lore_search', arguments: { query: 'vault' } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Could not read the lore.' } }] },
  );

  const outcome = await harness.start({ adapter: 'sillytavern', lore: { read: async () => undefined } });

  expect(outcome.run.status).toBe('completed');
  expect(toolResults(MARKER.checker)[0]).toContain("lorebooks cannot be read right now");
});
