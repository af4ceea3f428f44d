import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { expectFiveTurnIdentities, routedOpenAiConversation, runFiveTurnConversation, runGuessedNewChat, runWholeLogTurns, sillyTavernConversation } from './conversation-identity-scenarios';

/** Firefox: who is talking and which message, over multi-turn conversations on three page shapes. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
});
afterAll(() => scenario?.close());

const pageUrl = (path: string) => (query: Record<string, string>) => scenario.fixtures.pageUrl(path, query);

test('SillyTavern page: five turns with a swipe and an edit, then a new chat that opens alike', async () => {
  const page = await sillyTavernConversation(scenario.browser, pageUrl('/sillytavern/'), 'Mara - 2026-12-01@10h00m00s', 'Mara - 2026-12-01@11h00m00s');
  const chats = await runFiveTurnConversation(page, scenario.options, scenario.model);
  expectFiveTurnIdentities(chats, 'page');
  expect(chats[0]?.conversationId).toBe('Mara - 2026-12-01@10h00m00s');
});

test('OpenAI-style page with chat addresses: five turns with a regenerate and an edit, then a new chat at a new address', async () => {
  const page = await routedOpenAiConversation(scenario.browser, pageUrl('/openai-chat/'));
  const chats = await runFiveTurnConversation(page, scenario.options, scenario.model);
  expectFiveTurnIdentities(chats, 'url');
  expect(chats[0]?.conversationId).toMatch(/^url:#\/chat\/conv-\d+$/);
});

test('OpenAI-style page without chat addresses: a new chat that opens alike runs its helpers again', async () => {
  const handle = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/', { system: 'You are Mara.' }));
  const chats = await runGuessedNewChat(handle, scenario.options, scenario.model);
  expect(chats.map((chat) => chat.basis)).toEqual(['guessed', 'guessed']);
});

test('KoboldAI Lite-shaped page: the second message runs its helpers afresh, with no progress lines in what the model receives', async () => {
  const handle = await scenario.browser.openPage(scenario.fixtures.pageUrl('/koboldai-lite/', { system: 'You are Mara, a lighthouse keeper.' }));
  await runWholeLogTurns(handle, scenario.options, scenario.model);
});
