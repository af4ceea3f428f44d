import { afterEach, describe, expect, test, vi } from 'vitest';
import { acceptPageHookPorts, MAX_RUNS_PER_PORT, servePagePort } from '../../../src/bridge/page-connection';
import { PAGE_HOOK_CONNECT } from '../../../src/messaging/page-channel-names';
import { FakePageWindow } from '../../support/fake-page-window';
import type { BridgeToPageMessage } from '../../../src/messaging/page-messages';
import { PAGE_MESSAGE_MAX_CHARS } from '../../../src/messaging/page-messages';
import { eventually, FakeBackground } from '../../support/fake-run-port';

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close())));

/** A bridge serving one page port; the test plays the page on the other end. */
function setUp(options: { siteOn?: boolean; keepAliveMs?: number } = {}) {
  const channel = new MessageChannel();
  channels.push(channel);
  const background = new FakeBackground();
  const toPage: BridgeToPageMessage[] = [];
  channel.port1.onmessage = (event) => toPage.push(JSON.parse(String(event.data)) as BridgeToPageMessage);
  servePagePort(channel.port2, {
    isSiteOn: async () => options.siteOn ?? true,
    openRunPort: background.open,
    describeLostBackground: () => 'Retinue stopped.',
    keepAliveMs: options.keepAliveMs,
  });
  const fromPage = (message: unknown) => channel.port1.postMessage(typeof message === 'string' ? message : JSON.stringify(message));
  return { background, toPage, fromPage };
}

const runStart = {
  type: 'run-start',
  requestId: 'r1',
  adapter: 'openai-chat',
  body: { model: 'm', stream: false, messages: [{ role: 'user', content: 'Hi' }] },
};

describe('the bridge', () => {
  test('drops malformed and oversized messages from the page and opens no run for them', async () => {
    const { background, toPage, fromPage } = setUp();
    // Each with its own request id: a wrongly accepted one would open a run of its own.
    fromPage('not json');
    fromPage({ type: 'settings-read', requestId: 'm1' });
    fromPage({ ...runStart, requestId: 'm2', extra: 'field' });
    fromPage({ ...runStart, requestId: 'm3', adapter: 'evil' });
    fromPage({ ...runStart, requestId: 'x'.repeat(65) });
    fromPage(JSON.stringify({ type: 'host-call-chunk', requestId: 'm4', callId: 'c', text: 'x'.repeat(PAGE_MESSAGE_MAX_CHARS) }));
    fromPage({ ...runStart, requestId: 'm5', body: 'not an object' });
    fromPage({ type: 'run-abort', requestId: 'unknown' });
    fromPage(runStart);
    await eventually(() => expect(background.ports.length).toBe(1));
    expect(background.last.posted).toEqual([{ type: 'run-start', adapter: 'openai-chat', body: runStart.body }]);
    expect(toPage).toEqual([{ type: 'connected' }]);
  });

  test(`one page port carries at most ${MAX_RUNS_PER_PORT} runs at once; the next is ignored`, async () => {
    const { background, fromPage } = setUp();
    for (let index = 1; index <= MAX_RUNS_PER_PORT + 1; index += 1) fromPage({ ...runStart, requestId: `r${index}` });
    await eventually(() => expect(background.ports.length).toBe(MAX_RUNS_PER_PORT));
    // The first run ends; now there is room again.
    background.ports[0]!.answer({ type: 'run-reply', reply: 'Done.' });
    fromPage({ ...runStart, requestId: 'r-after' });
    await eventually(() => expect(background.ports.length).toBe(MAX_RUNS_PER_PORT + 1));
  });

  test('a chat turn too large to read is not dropped: the background is told, and its pass-through reaches the page', async () => {
    const { background, toPage, fromPage } = setUp();
    fromPage(JSON.stringify({ ...runStart, requestId: 'big', body: { messages: [{ role: 'user', content: 'x'.repeat(PAGE_MESSAGE_MAX_CHARS) }] } }));
    await eventually(() => expect(background.ports.length).toBe(1));
    expect(background.last.posted).toEqual([{ type: 'run-over-limit', limit: 'snapshot-size' }]);
    background.last.answer({ type: 'pass-through' });
    await eventually(() => expect(toPage).toContainEqual({ type: 'pass-through', requestId: 'big' }));
  });

  test('while the site is off a chat turn goes back to the page untouched', async () => {
    const { background, toPage, fromPage } = setUp({ siteOn: false });
    fromPage(runStart);
    await eventually(() => expect(toPage).toContainEqual({ type: 'pass-through', requestId: 'r1' }));
    expect(background.ports).toEqual([]);
  });

  test('a site switched off while its tab was open: a turn too large to read still goes back to the page, and the background hears nothing', async () => {
    const { background, toPage, fromPage } = setUp({ siteOn: false });
    fromPage(JSON.stringify({ ...runStart, requestId: 'big', body: { messages: [{ role: 'user', content: 'x'.repeat(PAGE_MESSAGE_MAX_CHARS) }] } }));
    await eventually(() => expect(toPage).toContainEqual({ type: 'pass-through', requestId: 'big' }));
    // No run port: the side panel gets no "request too large" notice for a site that is off.
    expect(background.ports).toEqual([]);
  });

  test('a message over the size cap is never read, even one that would parse as a valid message', async () => {
    const { background, fromPage } = setUp();
    fromPage(runStart);
    await eventually(() => expect(background.ports.length).toBe(1));
    // Valid JSON for a run-abort once parsed (whitespace may pad JSON), but too large to be read at all.
    fromPage(`${JSON.stringify({ type: 'run-abort', requestId: 'r1' })}${' '.repeat(PAGE_MESSAGE_MAX_CHARS)}`);
    // A turn sent after it opens a second run: by then the padded message had its turn.
    fromPage({ ...runStart, requestId: 'r2' });
    await eventually(() => expect(background.ports.length).toBe(2));
    // The first run was not stopped: it still answers the page.
    expect(background.ports[0]!.posted.map((message) => message.type)).toEqual(['run-start']);
  });

  test("the run's progress and reply reach the page as its OpenAI answer", async () => {
    const { background, toPage, fromPage } = setUp();
    fromPage({ ...runStart, body: { ...runStart.body, stream: true } });
    await eventually(() => expect(background.ports.length).toBe(1));
    background.last.answer({ type: 'run-accepted', runId: 'run-1' });
    background.last.answer({ type: 'run-progress', line: 'critic · Critique — started' });
    background.last.answer({ type: 'run-reply', reply: 'Done.' });
    await eventually(() => expect(toPage.at(-1)).toEqual({ type: 'response-end', requestId: 'r1' }));
    const text = toPage.map((message) => (message.type === 'response-chunk' ? message.text : '')).join('');
    expect(toPage[1]).toMatchObject({ type: 'response-start', status: 200, contentType: expect.stringContaining('text/event-stream') });
    expect(text).toContain('"reasoning_content":"critic · Critique — started\\n"');
    expect(text).toContain('"content":"Done."');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(background.last.disconnected).toBe(true);
  });

  test('a failed run answers with its HTTP status and message', async () => {
    const { background, toPage, fromPage } = setUp();
    fromPage(runStart);
    await eventually(() => expect(background.ports.length).toBe(1));
    background.last.answer({ type: 'run-failed', status: 502, message: 'The model answered 401.' });
    await eventually(() => expect(toPage.at(-1)?.type).toBe('response-end'));
    expect(toPage).toContainEqual(expect.objectContaining({ type: 'response-start', status: 502 }));
    expect(toPage).toContainEqual(expect.objectContaining({ text: expect.stringContaining('The model answered 401.') }));
  });

  test('when the background goes away mid-run the bridge reconnects with the run id', async () => {
    const { background, fromPage } = setUp();
    fromPage(runStart);
    await eventually(() => expect(background.ports.length).toBe(1));
    background.last.answer({ type: 'run-accepted', runId: 'run-7' });
    background.last.drop();
    expect(background.ports.length).toBe(2);
    expect(background.last.posted).toEqual([{ type: 'run-resume', runId: 'run-7' }]);
  });

  test('a background that is gone before it accepted the run gets the page an error, not a hang', async () => {
    const { background, toPage, fromPage } = setUp();
    fromPage(runStart);
    await eventually(() => expect(background.ports.length).toBe(1));
    background.last.drop();
    await eventually(() => expect(toPage.at(-1)?.type).toBe('response-end'));
    expect(toPage).toContainEqual(expect.objectContaining({ type: 'response-start', status: 503 }));
  });

  test('the page Stop button reaches the background as run-abort', async () => {
    const { background, fromPage } = setUp();
    fromPage(runStart);
    await eventually(() => expect(background.ports.length).toBe(1));
    fromPage({ type: 'run-abort', requestId: 'r1' });
    await eventually(() => expect(background.last.posted).toContainEqual({ type: 'run-abort' }));
  });

  test('a keep-alive goes to the background while the run works', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { background, fromPage } = setUp({ keepAliveMs: 15_000 });
      fromPage(runStart);
      await eventually(() => expect(background.ports.length).toBe(1));
      vi.advanceTimersByTime(31_000);
      expect(background.last.posted.filter((message) => message.type === 'keep-alive').length).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  test(`by default a keep-alive goes to the background at least every 20 s while the run works`, async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      // No keepAliveMs: the cadence the bridge really uses (DESIGN §11: at least every 20 s).
      const { background, fromPage } = setUp();
      fromPage(runStart);
      await eventually(() => expect(background.ports.length).toBe(1));
      const keepAlives = () => background.last.posted.filter((message) => message.type === 'keep-alive').length;
      for (let window = 1; window <= 3; window += 1) {
        vi.advanceTimersByTime(20_000);
        expect(keepAlives()).toBeGreaterThanOrEqual(window);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  test('host-call replies relay only for calls the background opened', async () => {
    const { background, toPage, fromPage } = setUp();
    fromPage(runStart);
    await eventually(() => expect(background.ports.length).toBe(1));
    fromPage({ type: 'host-call-chunk', requestId: 'r1', callId: 'forged', text: 'x' });
    background.last.answer({ type: 'host-call', callId: 'call-1', body: { messages: [] } });
    await eventually(() => expect(toPage).toContainEqual({ type: 'host-call', requestId: 'r1', callId: 'call-1', body: { model: 'm', messages: [] } }));
    fromPage({ type: 'host-call-start', requestId: 'r1', callId: 'call-1', status: 200, contentType: 'application/json' });
    fromPage({ type: 'host-call-end', requestId: 'r1', callId: 'call-1' });
    fromPage({ type: 'host-call-chunk', requestId: 'r1', callId: 'call-1', text: 'after the end' });
    await eventually(() => expect(background.last.posted).toContainEqual({ type: 'host-call-end', callId: 'call-1' }));
    expect(background.last.posted.map((message) => message.type)).toEqual(['run-start', 'host-call-start', 'host-call-end']);
  });
});

describe('who may connect to the bridge', () => {
  /** A page whose bridge records the ports it serves; `offer` posts a connect message with a fresh port. */
  function page() {
    const window = new FakePageWindow(globalThis.fetch);
    const served: MessagePort[] = [];
    acceptPageHookPorts(window as unknown as Window, (port) => served.push(port));
    const offer = (from: { source: unknown; origin: string }) => {
      const channel = new MessageChannel();
      channels.push(channel);
      window.deliverMessage({ data: PAGE_HOOK_CONNECT, ports: [channel.port2], ...from });
      return channel.port2;
    };
    /** Resolves once every message posted before it was delivered (they arrive in order). */
    const delivered = () =>
      new Promise<void>((resolve) => {
        const marker = {};
        const listener = (event: Event) => {
          if ((event as MessageEvent).data !== marker) return;
          window.removeEventListener('message', listener);
          resolve();
        };
        window.addEventListener('message', listener);
        window.deliverMessage({ data: marker, source: window, origin: window.location.origin });
      });
    return { window, served, offer, delivered };
  }

  test('frames, sandboxed frames, openers and other origins get nothing and use up no slot', async () => {
    const { window, served, offer, delivered } = page();
    const frame = {};
    offer({ source: frame, origin: 'http://127.0.0.2:8000' });
    offer({ source: frame, origin: 'null' });
    offer({ source: {}, origin: 'http://127.0.0.1:8000' });
    // Its own window, but another port of the same host (Firefox registers on every port).
    offer({ source: window, origin: 'http://127.0.0.1:9999' });
    await delivered();
    expect(served).toEqual([]);

    const own = offer({ source: window, origin: window.location.origin });
    await eventually(() => expect(served).toEqual([own]));
  });

  test('the page hook connects once per document: a second port is ignored', async () => {
    const { window, served, offer, delivered } = page();
    const first = offer({ source: window, origin: window.location.origin });
    offer({ source: window, origin: window.location.origin });
    await delivered();
    expect(served).toEqual([first]);
  });
});
