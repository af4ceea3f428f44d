import { describe, expect, test } from 'vitest';
import { acceptPageHookPorts, servePagePort } from '../../../src/bridge/page-connection';
import { installPageHook } from '../../../src/page-hook/install-page-hook';
import { eventually, FakeBackground } from '../../support/fake-run-port';
import { createServerFetch, FakePageWindow } from '../../support/fake-page-window';

const chatUrl = 'http://127.0.0.1:8000/v1/chat/completions';
const chatBody = { model: 'page-model', stream: false, messages: [{ role: 'user', content: 'Hello' }] };

/** A page with the page hook and the bridge installed, a test "server" behind the page's fetch and a fake background. */
function setUp(options: { siteOn?: boolean } = {}) {
  const server = createServerFetch(() => new Response('{"from":"server"}', { headers: { 'content-type': 'application/json' } }));
  const page = new FakePageWindow(server.serverFetch);
  const background = new FakeBackground();
  installPageHook(page as unknown as Window & typeof globalThis);
  acceptPageHookPorts(page as unknown as Window, (port) =>
    servePagePort(port, { isSiteOn: async () => options.siteOn ?? true, openRunPort: background.open, describeLostBackground: () => 'gone' }),
  );
  return { page, server, background };
}

describe('requests that are not a chat turn', () => {
  test('go to the original fetch at once, with the very same arguments', () => {
    const { page, server } = setUp();
    const cases: [RequestInfo | URL, RequestInit | undefined][] = [
      ['/api/characters', undefined],
      [new URL('http://127.0.0.1:8000/v1/models'), { method: 'GET' }],
      [chatUrl, { method: 'GET' }],
      ['/api/backends/chat-completions/generate', { method: 'POST', body: JSON.stringify({ type: 'quiet', messages: [] }) }],
      ['/api/backends/chat-completions/generate', { method: 'POST', body: JSON.stringify({ type: 'impersonate', messages: [] }) }],
      [chatUrl, { method: 'POST', body: new FormData() }],
      [chatUrl, { method: 'POST', body: '{not json' }],
    ];
    for (const [input, init] of cases) {
      void page.fetch(input, init);
      const actual = server.calls.at(-1);
      expect(actual?.input).toBe(input);
      expect(actual?.init).toBe(init);
    }
    expect(server.calls.length).toBe(cases.length);
  });
});

describe('a chat turn', () => {
  test('goes to the run and the page gets the reply as an OpenAI completion', async () => {
    const { page, server, background } = setUp();
    const responsePromise = page.fetch(chatUrl, { method: 'POST', body: JSON.stringify(chatBody) });
    await eventually(() => expect(background.ports.length).toBe(1));
    expect(background.last.posted[0]).toEqual({ type: 'run-start', adapter: 'openai-chat', body: chatBody });
    background.last.answer({ type: 'run-reply', reply: 'Hi from the retinue.' });
    const response = await responsePromise;
    expect(response.status).toBe(200);
    const completion = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(completion.choices[0]?.message.content).toBe('Hi from the retinue.');
    expect(server.calls).toEqual([]);
  });

  test.each([
    ['a Headers object', new Headers({ 'X-CSRF-Token': 'abc' })],
    ['an array of pairs', [['X-CSRF-Token', 'abc']] as [string, string][]],
    ['a record', { 'X-CSRF-Token': 'abc' }],
  ])("host calls reuse the page's headers given as %s, and the page's original fetch", async (_form, headers) => {
    const { page, server, background } = setUp();
    const responsePromise = page.fetch(chatUrl, { method: 'POST', headers, body: JSON.stringify(chatBody) });
    await eventually(() => expect(background.ports.length).toBe(1));
    background.last.answer({ type: 'host-call', callId: 'call-1', body: { model: '', messages: [{ role: 'user', content: 'Briefing' }], stream: false } });
    await eventually(() => expect(background.last.posted.map((message) => message.type)).toContain('host-call-end'));
    const call = server.calls[0];
    expect(call?.input).toBe(chatUrl);
    expect(new Headers(call?.init?.headers).get('x-csrf-token')).toBe('abc');
    expect(JSON.parse(String(call?.init?.body))).toEqual({ model: 'page-model', messages: [{ role: 'user', content: 'Briefing' }], stream: false });
    const relayed = background.last.posted.filter((message) => message.type.startsWith('host-call'));
    expect(relayed).toEqual([
      { type: 'host-call-start', callId: 'call-1', status: 200, contentType: 'application/json' },
      { type: 'host-call-chunk', callId: 'call-1', text: '{"from":"server"}' },
      { type: 'host-call-end', callId: 'call-1' },
    ]);
    background.last.answer({ type: 'run-reply', reply: 'ok' });
    await responsePromise;
  });

  test('a Request input is read from a clone, and a pass-through sends the original Request untouched', async () => {
    const { page, server } = setUp({ siteOn: false });
    const request = new Request(chatUrl, { method: 'POST', headers: { Authorization: 'Bearer page-key' }, body: JSON.stringify(chatBody) });
    const response = await page.fetch(request);
    expect(await response.json()).toEqual({ from: 'server' });
    expect(server.calls[0]?.input).toBe(request);
    expect(request.bodyUsed).toBe(false);
  });

  test('the page aborting its fetch rejects it and tells the run to stop', async () => {
    const { page, background } = setUp();
    const controller = new AbortController();
    const responsePromise = page.fetch(chatUrl, { method: 'POST', body: JSON.stringify(chatBody), signal: controller.signal });
    await eventually(() => expect(background.ports.length).toBe(1));
    controller.abort();
    await expect(responsePromise).rejects.toMatchObject({ name: 'AbortError' });
    await eventually(() => expect(background.last.posted).toContainEqual({ type: 'run-abort' }));
  });

  test('a streamed answer arrives as it is sent, and Stop mid-stream errors the body', async () => {
    const { page, background } = setUp();
    const controller = new AbortController();
    const responsePromise = page.fetch(chatUrl, { method: 'POST', body: JSON.stringify({ ...chatBody, stream: true }), signal: controller.signal });
    await eventually(() => expect(background.ports.length).toBe(1));
    background.last.answer({ type: 'run-progress', line: 'critic · Critique — started' });
    const response = await responsePromise;
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"role":"assistant"');
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });
});
