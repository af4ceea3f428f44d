import { afterEach, expect, test } from 'vitest';
import { answerBetweenTurnsRequest } from '../../../src/bridge/between-turns-requests';
import { servePagePort } from '../../../src/bridge/page-connection';
import type { BridgeToPageMessage } from '../../../src/messaging/page-messages';
import { eventually, FakeBackground } from '../../support/fake-run-port';

// The Run button between turns, bridge side: the page carries the helper's host calls under a
// request id of their own; nothing is written into the page's chat.
const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close())));

function setUp(siteOn = true) {
  const channel = new MessageChannel();
  channels.push(channel);
  const background = new FakeBackground();
  const toPage: BridgeToPageMessage[] = [];
  channel.port1.onmessage = (event) => toPage.push(JSON.parse(String(event.data)) as BridgeToPageMessage);
  const page = servePagePort(channel.port2, { isSiteOn: async () => siteOn, openRunPort: background.open, describeLostBackground: () => 'Retinue stopped.' });
  const fromPage = (message: unknown) => channel.port1.postMessage(JSON.stringify(message));
  const ask = () => answerBetweenTurnsRequest({ type: 'run-between-request', runId: 'run-1', agentId: 'scene-critic' }, { isSiteOn: async () => siteOn, page: () => page });
  return { background, toPage, fromPage, ask };
}

/** The page's chat turn, as the page hook sends it: a helper between turns calls the model as it did. */
const chatTurn = { type: 'run-start', requestId: 'turn-1', adapter: 'openai-chat', body: { model: 'page-model', messages: [{ role: 'user', content: 'Hello.' }], stream: false } };

test('a page takes the helper up: its host calls relay under their own request id, a worker stop resumes the run, run-closed ends it', async () => {
  const { background, toPage, fromPage, ask } = setUp();
  fromPage(chatTurn);
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'run-reply', reply: 'Hi.' });
  expect(await ask()).toEqual({ accepted: true });
  await eventually(() => expect(background.ports.length).toBe(2));
  expect(background.last.posted[0]).toEqual({ type: 'run-between', runId: 'run-1', agentId: 'scene-critic' });
  await eventually(() => expect(toPage.find((message) => message.type === 'host-calls-open')).toBeDefined());
  const opened = toPage.find((message) => message.type === 'host-calls-open');
  const requestId = opened && 'requestId' in opened ? opened.requestId : '';

  background.last.answer({ type: 'host-call', callId: 'call-1', body: { messages: [{ role: 'user', content: 'Critique.' }] } });
  // The bridge builds the whole body: the page's turn with the call's on top.
  await eventually(() =>
    expect(toPage).toContainEqual({ type: 'host-call', requestId, callId: 'call-1', body: expect.objectContaining({ model: 'page-model', messages: [{ role: 'user', content: 'Critique.' }] }) }),
  );
  fromPage({ type: 'host-call-end', requestId, callId: 'call-1' });
  await eventually(() => expect(background.last.posted).toContainEqual({ type: 'host-call-end', callId: 'call-1' }));

  background.last.drop();
  await eventually(() => expect(background.ports.length).toBe(3));
  expect(background.last.posted[0]).toEqual({ type: 'run-resume', runId: 'run-1' });

  background.last.answer({ type: 'run-closed' });
  await eventually(() => expect(toPage.at(-1)).toEqual({ type: 'run-closed', requestId }));
  expect(background.last.disconnected).toBe(true);
  expect(toPage.some((message) => message.type === 'response-start' && message.requestId === requestId)).toBe(false);
});

test('a page that has had no chat turn since it loaded answers the helper’s call with what to do', async () => {
  const { background, toPage, ask } = setUp();
  expect(await ask()).toEqual({ accepted: true });
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'host-call', callId: 'call-1', body: { messages: [] } });
  await eventually(() =>
    expect(background.last.posted).toContainEqual({ type: 'host-call-error', callId: 'call-1', message: 'The page has had no chat turn since it loaded; send a message in the chat first.' }),
  );
  expect(toPage.some((message) => message.type === 'host-call')).toBe(false);
});

test('a page of a site switched off does not take it up', async () => {
  const { background, ask } = setUp(false);
  expect(await ask()).toEqual({ accepted: false });
  expect(background.ports).toHaveLength(0);
});
