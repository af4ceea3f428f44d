import OpenAI from 'openai';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { installRunService } from '../../../src/background/run-service';
import type { AgentRun } from '../../../src/records/run';
import { settingsSchema } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { FakePageWindow } from '../../support/fake-page-window';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../../support/scripted-model-server';
import { wirePageToBackground } from './page-bridge-wiring';
import { pageChainSettings } from './page-chain-settings';

/**
 * Who is talking and which message, through the whole page chain (page hook → bridge → run service →
 * runtime → scripted model): a page whose address names the chat (`#/chat/<id>`, read by the page
 * hook with each request), and a page in KoboldAI Lite's shape (the whole log as one assistant
 * message after a fixed user line, Retinue's progress kept in the log as `<think>` blocks).
 */

const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');
const isCritic = (request: ScriptedRequest) => request.systemText.includes('[[critic]]');
const delegate = { name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the scene', objective: 'Critique the scene.' } } };

let server: ScriptedModelServer;
let page: FakePageWindow;
let context: BackgroundContext;

beforeEach(async () => {
  server = await startScriptedModelServer();
  const pageOrigin = new URL(server.baseURL).origin;
  const settings = settingsSchema.parse(pageChainSettings(server, pageOrigin));
  const storeName = uniqueDatabaseName();
  const listeners: ((port: RunServicePort) => void)[] = [];
  context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
  installRunService({ context, connections: { addListener: (listener) => void listeners.push(listener) }, recordNotice: () => undefined, clientOptions: { maxRetries: 0 } });
  page = new FakePageWindow(globalThis.fetch, `${pageOrigin}/`);
  wirePageToBackground(page, listeners);
  // The root delegates a critique unless it was offered one, then replies; the critic answers.
  server.script((request): ScriptedTurn | undefined => {
    if (!isCritic(request)) return undefined;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Keep the rain.', status: 'completed' } }] };
  });
  server.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    const called = request.body.messages.flatMap((message) => (message.role === 'assistant' && message.tool_calls ? message.tool_calls.map((call) => (call.type === 'function' ? call.function.name : '')) : []));
    if (request.systemText.includes('earlier-scene-critic')) return { content: 'Reply from the earlier critique.' };
    if (!called.includes('agent_delegate')) return { toolCalls: [delegate] };
    if (!called.includes('agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
    return { content: 'Reply with a fresh critique.' };
  });
});

afterEach(async () => {
  await server.close();
});

function navigate(href: string): void {
  (page.location as { href: string }).href = href;
}

/** One turn as the page sends it; resolves with the streamed reply and reasoning (where progress shows). */
async function send(messages: OpenAI.Chat.ChatCompletionMessageParam[]): Promise<{ reply: string; reasoning: string }> {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'page-key', maxRetries: 0, fetch: (input, init) => page.fetch(input, init) });
  const stream = await client.chat.completions.create({ model: 'scripted-model', messages, stream: true });
  let reply = '';
  let reasoning = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
    reply += delta?.content ?? '';
    reasoning += delta?.reasoning_content ?? '';
  }
  return { reply, reasoning };
}

async function runsOldestFirst(): Promise<AgentRun[]> {
  const runs = await (await context.getStore()).listRuns();
  return [...runs].sort((left, right) => left.createdAt - right.createdAt);
}
const criticCalls = () => server.requests.filter(isCritic).length;

test('a chat named in the address: a regenerate reuses the critique; a new chat at another address with the same opening asks again', async () => {
  const opening: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are Mara.' }, { role: 'user', content: 'Hi!' }];
  navigate(`${new URL(server.baseURL).origin}/#/chat/conv-1764480000123`);
  expect((await send(opening)).reply).toBe('Reply with a fresh critique.');
  expect((await send(opening)).reply).toBe('Reply from the earlier critique.');
  expect(criticCalls()).toBe(1);

  navigate(`${new URL(server.baseURL).origin}/#/chat/conv-1764480999999`);
  expect((await send(opening)).reply).toBe('Reply with a fresh critique.');
  expect(criticCalls()).toBe(2);

  const runs = await runsOldestFirst();
  expect(runs.map((run) => run.chat?.conversationId)).toEqual(['url:#/chat/conv-1764480000123', 'url:#/chat/conv-1764480000123', 'url:#/chat/conv-1764480999999']);
  expect(runs.map((run) => run.chat?.basis)).toEqual(['url', 'url', 'url']);
});

test('KoboldAI Lite’s shape: the second message runs its helpers afresh, and the progress kept in the log reaches no model', async () => {
  const fixed = { role: 'user' as const, content: '[Continue the chat log below.]' };
  const system = { role: 'system' as const, content: 'You are Mara, a lighthouse keeper.' };
  const first = await send([system, fixed, { role: 'assistant', content: '\nYou: Hi!\nMara:' }]);
  expect(first.reasoning).toContain('scene-critic · Critique the scene — started');

  // Lite writes the reasoning it was streamed into its log as a <think> block before the reply.
  const log = `\nYou: Hi!\nMara: <think>${first.reasoning}</think>${first.reply}\nYou: Where is the lamp?\nMara:`;
  const before = server.requests.length;
  const second = await send([system, fixed, { role: 'assistant', content: log }]);

  expect(second.reply).toBe('Reply with a fresh critique.');
  expect(criticCalls()).toBe(2);
  const seen = server.requests.slice(before).map((request) => JSON.stringify(request.body.messages));
  for (const text of seen) expect(text).not.toContain('Critique the scene — started');
  expect(seen[0]).toContain(`Mara: ${first.reply}\\nYou: Where is the lamp?`);
  const runs = await runsOldestFirst();
  expect(runs.map((run) => run.chat?.basis)).toEqual(['guessed', 'guessed']);
  expect(runs[1]?.chat?.conversationId).toBe(runs[0]?.chat?.conversationId);
  expect(runs[1]?.chat?.historyKey).not.toBe(runs[0]?.chat?.historyKey);
});
