import { describe, expect, test } from 'vitest';
import { acceptPageHookPorts, servePagePort } from '../../../src/bridge/page-connection';
import { installPageHook } from '../../../src/page-hook/install-page-hook';
import { eventually, FakeBackground } from '../../support/fake-run-port';
import { createServerFetch, FakePageWindow } from '../../support/fake-page-window';

const generateUrl = 'http://127.0.0.1:8000/api/backends/chat-completions/generate';
const openAiUrl = 'http://127.0.0.1:8000/v1/chat/completions';
const providerError = JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } });

/**
 * A page whose server answers every host call with `status` and reason phrase `statusText`, as
 * SillyTavern's server does when it relays a provider's refusal of a streamed request.
 */
function setUp(answer: { status: number; statusText: string }) {
  const server = createServerFetch(() => new Response(providerError, { ...answer, headers: { 'content-type': 'application/json' } }));
  const page = new FakePageWindow(server.serverFetch);
  const background = new FakeBackground();
  installPageHook(page as unknown as Window & typeof globalThis);
  acceptPageHookPorts(page as unknown as Window, (port) =>
    servePagePort(port, { isSiteOn: async () => true, openRunPort: background.open, describeLostBackground: () => 'gone' }),
  );
  return { page, background };
}

/** Starts a chat turn on `url`, makes one host call from the run, and returns the status relayed to the run. */
async function relayedHostCallStatus(url: string, answer: { status: number; statusText: string }): Promise<number | undefined> {
  const { page, background } = setUp(answer);
  const body = { type: 'normal', chat_completion_source: 'custom', model: 'page-model', stream: true, messages: [{ role: 'user', content: 'Hello' }] };
  const responsePromise = page.fetch(url, { method: 'POST', headers: { 'X-CSRF-Token': 'token' }, body: JSON.stringify(body) });
  await eventually(() => expect(background.ports.length).toBe(1));
  background.last.answer({ type: 'host-call', callId: 'call-1', body: { model: '', messages: [{ role: 'user', content: 'Briefing' }], stream: true } });
  await eventually(() => expect(background.last.posted.map((message) => message.type)).toContain('host-call-end'));
  const start = background.last.posted.find((message) => message.type === 'host-call-start') as { status?: number } | undefined;
  background.last.answer({ type: 'run-reply', reply: 'ok' });
  await responsePromise;
  return start?.status;
}

describe("a host call on SillyTavern whose provider refused the page's key", () => {
  test('reaches the run as the 401 the provider answered, not the 400 "Unauthorized" SillyTavern relays', async () => {
    const actual = await relayedHostCallStatus(generateUrl, { status: 400, statusText: 'Unauthorized' });
    expect(actual).toBe(401);
  });

  test('an ordinary 400 "Bad Request" from SillyTavern stays 400', async () => {
    const actual = await relayedHostCallStatus(generateUrl, { status: 400, statusText: 'Bad Request' });
    expect(actual).toBe(400);
  });

  test('an OpenAI-style endpoint is taken at its word: its 400 stays 400 whatever the reason phrase', async () => {
    const actual = await relayedHostCallStatus(openAiUrl, { status: 400, statusText: 'Unauthorized' });
    expect(actual).toBe(400);
  });
});
