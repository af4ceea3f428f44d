import { afterEach, expect, test } from 'vitest';
import { servePagePort } from '../../../src/bridge/page-connection';
import type { BridgeToPageMessage } from '../../../src/messaging/page-messages';
import { eventually, FakeBackground } from '../../support/fake-run-port';

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close())));

function setUp() {
  const channel = new MessageChannel();
  channels.push(channel);
  const background = new FakeBackground();
  const toPage: BridgeToPageMessage[] = [];
  channel.port1.onmessage = (event) => toPage.push(JSON.parse(String(event.data)) as BridgeToPageMessage);
  servePagePort(channel.port2, { isSiteOn: async () => true, openRunPort: background.open, describeLostBackground: () => 'Retinue stopped.' });
  const fromPage = (message: unknown) => channel.port1.postMessage(JSON.stringify(message));
  return { background, toPage, fromPage };
}

const runStart = { type: 'run-start', requestId: 'r1', adapter: 'openai-chat', body: { model: 'm', stream: false, messages: [{ role: 'user', content: 'Hi' }] } };

test('a reply given while helpers still work completes the page response, and their host calls still relay until run-closed', async () => {
  const { background, toPage, fromPage } = setUp();
  fromPage(runStart);
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'run-accepted', runId: 'run-1' });
  background.last.answer({ type: 'run-reply', reply: 'Done.', helpersWorking: 2 });

  await eventually(() => expect(toPage.at(-1)).toEqual({ type: 'response-end', requestId: 'r1', hostCallsContinue: true }));
  expect(toPage).toContainEqual(expect.objectContaining({ text: expect.stringContaining('Done.') }));
  expect(background.last.disconnected).toBe(false);

  background.last.answer({ type: 'host-call', callId: 'late-1', body: { messages: [] } });
  await eventually(() => expect(toPage).toContainEqual({ type: 'host-call', requestId: 'r1', callId: 'late-1', body: { model: 'm', messages: [] } }));
  fromPage({ type: 'host-call-end', requestId: 'r1', callId: 'late-1' });
  await eventually(() => expect(background.last.posted).toContainEqual({ type: 'host-call-end', callId: 'late-1' }));

  background.last.answer({ type: 'run-closed' });
  await eventually(() => expect(toPage.at(-1)).toEqual({ type: 'run-closed', requestId: 'r1' }));
  expect(background.last.disconnected).toBe(true);
});

test('when the background goes away after such a reply, the page keeps its reply and no run is resumed', async () => {
  const { background, toPage, fromPage } = setUp();
  fromPage(runStart);
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'run-accepted', runId: 'run-1' });
  background.last.answer({ type: 'run-reply', reply: 'Done.', helpersWorking: 1 });
  await eventually(() => expect(toPage.at(-1)?.type).toBe('response-end'));

  background.last.drop();

  await eventually(() => expect(toPage.at(-1)).toEqual({ type: 'run-closed', requestId: 'r1' }));
  expect(background.ports.length).toBe(1);
  expect(toPage.filter((message) => message.type === 'response-start')).toHaveLength(1);
});
