import { expect, test } from 'vitest';
import { acceptPageHookPorts, servePagePort, type ServedPage } from '../../../src/bridge/page-connection';
import { installPageHook } from '../../../src/page-hook/install-page-hook';
import { eventually, FakeBackground } from '../../support/fake-run-port';
import { createServerFetch, FakePageWindow } from '../../support/fake-page-window';

// A helper the user ran between turns calls the page's model as the last chat turn did: that turn's
// address and headers, through the page's original fetch. A page with no chat turn yet says so.
const chatUrl = 'http://127.0.0.1:8000/v1/chat/completions';
const chatBody = { model: 'page-model', stream: false, messages: [{ role: 'user', content: 'Hello' }] };
const briefing = { model: '', messages: [{ role: 'user', content: 'Briefing' }], stream: false };

function setUp() {
  const server = createServerFetch(() => new Response('{"from":"server"}', { headers: { 'content-type': 'application/json' } }));
  const page = new FakePageWindow(server.serverFetch);
  const background = new FakeBackground();
  let served: ServedPage | undefined;
  installPageHook(page as unknown as Window & typeof globalThis);
  acceptPageHookPorts(page as unknown as Window, (port) => {
    served = servePagePort(port, { isSiteOn: async () => true, openRunPort: background.open, describeLostBackground: () => 'gone' });
  });
  return { page, server, background, served: () => served };
}

test('between turns, host calls go out with the last chat turn’s address and headers', async () => {
  const { page, server, background, served } = setUp();
  const turn = page.fetch(chatUrl, { method: 'POST', headers: { 'X-CSRF-Token': 'abc' }, body: JSON.stringify(chatBody) });
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'run-reply', reply: 'Hi.' });
  await turn;

  expect(served()?.runBetweenTurns('run-1', 'scene-critic')).toBe(true);
  await eventually(() => expect(background.ports.length).toBe(2));
  background.last.answer({ type: 'host-call', callId: 'call-1', body: briefing });
  await eventually(() => expect(background.last.posted.map((message) => message.type)).toContain('host-call-end'));
  const call = server.calls[0];
  expect(call?.input).toBe(chatUrl);
  expect(new Headers(call?.init?.headers).get('x-csrf-token')).toBe('abc');
  expect(JSON.parse(String(call?.init?.body))).toEqual({ ...briefing, model: 'page-model' });
});

test('a page with no chat turn since it loaded answers a host call with what to do, never leaving it waiting', async () => {
  const { server, background, served } = setUp();
  await eventually(() => expect(served()).toBeDefined());
  served()?.runBetweenTurns('run-1', 'scene-critic');
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'host-call', callId: 'call-1', body: briefing });
  await eventually(() =>
    expect(background.last.posted).toContainEqual({ type: 'host-call-error', callId: 'call-1', message: 'The page has had no chat turn since it loaded; send a message in the chat first.' }),
  );
  expect(server.calls).toEqual([]);
});
