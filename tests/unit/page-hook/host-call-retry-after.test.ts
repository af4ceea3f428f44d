import { expect, test } from 'vitest';
import { acceptPageHookPorts, servePagePort } from '../../../src/bridge/page-connection';
import { installPageHook } from '../../../src/page-hook/install-page-hook';
import { eventually, FakeBackground } from '../../support/fake-run-port';
import { createServerFetch, FakePageWindow } from '../../support/fake-page-window';

const openAiUrl = 'http://127.0.0.1:8000/v1/chat/completions';

test("a host call the page's model rate-limits reaches the run with its Retry-After", async () => {
  const server = createServerFetch(
    () => new Response('{"error":{"message":"Slow down."}}', { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '7' } }),
  );
  const page = new FakePageWindow(server.serverFetch);
  const background = new FakeBackground();
  installPageHook(page as unknown as Window & typeof globalThis);
  acceptPageHookPorts(page as unknown as Window, (port) =>
    servePagePort(port, { isSiteOn: async () => true, openRunPort: background.open, describeLostBackground: () => 'gone' }),
  );
  const body = { model: 'page-model', stream: true, messages: [{ role: 'user', content: 'Hello' }] };
  const responsePromise = page.fetch(openAiUrl, { method: 'POST', body: JSON.stringify(body) });
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'host-call', callId: 'call-1', body: { model: '', messages: [{ role: 'user', content: 'Briefing' }], stream: true } });
  await eventually(() => expect(background.last.posted.map((message) => message.type)).toContain('host-call-end'));

  const start = background.last.posted.find((message) => message.type === 'host-call-start');

  expect(start).toMatchObject({ type: 'host-call-start', status: 429, retryAfter: '7' });
  background.last.answer({ type: 'run-reply', reply: 'ok' });
  await responsePromise;
});
