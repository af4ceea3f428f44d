// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { conversationName, groupHistoryByConversation } from '../../../src/ui/side-panel/history-groups';
import { SidePanelApp } from '../../../src/ui/side-panel/side-panel-app';
import { createSidePanelState, type SidePanelState } from '../../../src/ui/side-panel/side-panel-state';
import { installEnglishMessages } from '../../support/english-messages';
import { createFakePanelConnection, createMemorySettingsAccess } from '../../support/fake-panel-connection';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

beforeAll(installEnglishMessages);

const SITE = 'http://127.0.0.1:8000';
const duel = { conversationId: 'Mara - 2026-11-30@16h00m00s', historyKey: 'k1' };
const market = { conversationId: 'hash:0123456789abcdef', historyKey: 'k2' };
/** Newest first, as history loads them: two chats interleaved, and one run from before runs knew their chat. */
const runs = [
  buildRun({ id: 'duel-2', title: 'The duel, second turn', createdAt: 5_000, chat: { ...duel, messageIndex: 3 } }),
  buildRun({ id: 'market-2', title: 'Haggling', createdAt: 4_000, chat: market }),
  buildRun({ id: 'duel-1', title: 'The duel begins', createdAt: 3_000, chat: { ...duel, messageIndex: 1 } }),
  buildRun({ id: 'market-1', title: 'The market opens', createdAt: 2_000, chat: market }),
  buildRun({ id: 'old', title: 'An old turn', createdAt: 1_000 }),
];

test('history groups runs by site and conversation, in the order of each conversation’s newest run', () => {
  const entries = groupHistoryByConversation(runs);

  expect(entries.map((entry) => (entry.kind === 'run' ? entry.run.id : entry.runs.map((run) => run.id)))).toEqual([
    ['duel-2', 'duel-1'],
    ['market-2', 'market-1'],
    'old',
  ]);
  const otherSite = buildRun({ id: 'elsewhere', origin: 'http://localhost:9000', chat: duel });
  expect(groupHistoryByConversation([...runs, otherSite]).filter((entry) => entry.kind === 'conversation')).toHaveLength(3);
});

let store: RunStore;
let state: SidePanelState;
beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
  const settings = createMemorySettingsAccess({ sites: [{ origin: SITE, enabled: true, adapter: 'sillytavern' }] });
  state = createSidePanelState({ store, connection: createFakePanelConnection(), settings, refreshDelayMs: 1 });
});
afterEach(() => {
  cleanup();
  state.dispose();
  store.close();
});

test('the side panel shows each conversation under a heading that names the list of its runs', async () => {
  for (const run of runs) await store.putRun(run);
  render(<SidePanelApp state={state} openOptions={() => undefined} />);
  await state.setOrigin(SITE);
  await state.settled();

  const history = within(screen.getByRole('region', { name: 'History' }));
  expect(history.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
    'Chat: Mara - 2026-11-30@16h00m00s · 2 runs',
    'Chat that began with “The market opens” · 2 runs',
  ]);
  const duelRuns = history.getByRole('list', { name: 'Chat: Mara - 2026-11-30@16h00m00s · 2 runs' });
  expect(within(duelRuns).getAllByRole('button', { name: /^Open run/ }).map((button) => button.textContent)).toEqual([
    expect.stringContaining('The duel, second turn'),
    expect.stringContaining('The duel begins'),
  ]);
  // The run without a conversation stays a row of the outer list, as before.
  const outer = document.querySelector('.run-history > ul.history-list') as HTMLElement;
  expect([...outer.children].map((item) => item.getAttribute('data-conversation-id') ?? item.getAttribute('data-run-id'))).toEqual([
    duel.conversationId,
    market.conversationId,
    'old',
  ]);

  // The rows are ordinary buttons inside the group: opening one works as before.
  fireEvent.click(within(duelRuns).getByRole('button', { name: /^Open run.*The duel begins/ }));
  await state.settled();
  expect(screen.getByRole('heading', { level: 2, name: 'The duel begins' })).toBeTruthy();
});

test('a conversation named by the page’s address is called after its first run, like a guessed one; the page’s own chat id is shown as it is', () => {
  const routed = [
    buildRun({ id: 'r2', title: 'Second', createdAt: 2_000, chat: { conversationId: 'url:#/chat/conv-1764480000123', basis: 'url', historyKey: 'k3' } }),
    buildRun({ id: 'r1', title: 'First', createdAt: 1_000, chat: { conversationId: 'url:#/chat/conv-1764480000123', basis: 'url', historyKey: 'k4' } }),
  ];
  expect(conversationName('url:#/chat/conv-1764480000123', routed)).toEqual({ firstTitle: 'First' });
  expect(conversationName(duel.conversationId, runs)).toEqual({ chatId: duel.conversationId });
  expect(conversationName(market.conversationId, runs.filter((run) => run.chat?.conversationId === market.conversationId))).toEqual({ firstTitle: 'The market opens' });
});
