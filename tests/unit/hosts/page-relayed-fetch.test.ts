import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { createPageRelayedFetch, HOST_CALL_REPLY_MAX_CHARS, type HostCallRequestMessage } from '../../../src/hosts/page-relayed-fetch';
import { createModelClient } from '../../../src/model/create-model-client';
import type { ModelCallRetry } from '../../../src/model/model-client';

/** The relay with a "page" that answers each host call from `answer`. */
function relayWithPage(answer: (callId: string, body: Record<string, unknown>) => { status: number; contentType: string; chunks: string[] }) {
  const sent: HostCallRequestMessage[] = [];
  const relay = createPageRelayedFetch((message) => {
    sent.push(message);
    if (message.type !== 'host-call') return;
    const reply = answer(message.callId, message.body);
    const { callId } = message;
    setTimeout(() => {
      relay.deliver({ type: 'host-call-start', callId, status: reply.status, contentType: reply.contentType });
      reply.chunks.forEach((text, index) => setTimeout(() => relay.deliver({ type: 'host-call-chunk', callId, text }), index));
      setTimeout(() => relay.deliver({ type: 'host-call-end', callId }), reply.chunks.length + 1);
    }, 0);
  });
  const client = new OpenAI({ apiKey: 'page', baseURL: 'http://page.invalid/v1', fetch: relay.fetch, maxRetries: 0 });
  return { relay, sent, client };
}

const sse = (content: string, finishReason: string | null = null) =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: finishReason }] })}\n\n`;

describe('the page-relayed fetch', () => {
  test("the SDK streams a host call's answer chunk by chunk through the page", async () => {
    const { client, sent } = relayWithPage(() => ({ status: 200, contentType: 'text/event-stream', chunks: [sse('Hel'), sse('lo'), 'data: [DONE]\n\n'] }));
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello');
    expect(sent[0]).toMatchObject({ type: 'host-call', body: { model: 'm', stream: true, messages: [{ role: 'user', content: 'Hi' }] } });
  });

  test("the page model's error status reaches the SDK as an API error", async () => {
    const { client } = relayWithPage(() => ({ status: 401, contentType: 'application/json', chunks: ['{"error":{"message":"bad key"}}'] }));
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toMatchObject({ status: 401 });
  });

  test('aborting a call tells the page to abort it', async () => {
    const sent: HostCallRequestMessage[] = [];
    const relay = createPageRelayedFetch((message) => sent.push(message));
    const controller = new AbortController();
    const call = relay.fetch('http://page.invalid/v1/chat/completions', { method: 'POST', body: '{"messages":[]}', signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeDefined();
    expect(sent).toEqual([
      { type: 'host-call', callId: 'call-1', body: { messages: [] } },
      { type: 'host-call-abort', callId: 'call-1' },
    ]);
  });

  test("a rate-limited host call is retried after the page model's Retry-After, as a connection's would be", async () => {
    let calls = 0;
    const relay = createPageRelayedFetch((message) => {
      if (message.type !== 'host-call') return;
      calls += 1;
      const { callId } = message;
      const limited = calls === 1;
      setTimeout(() => {
        relay.deliver(
          limited
            ? { type: 'host-call-start', callId, status: 429, contentType: 'application/json', retryAfter: '1' }
            : { type: 'host-call-start', callId, status: 200, contentType: 'text/event-stream' },
        );
        relay.deliver({ type: 'host-call-chunk', callId, text: limited ? '{"error":{"message":"Slow down."}}' : `${sse('Later.', 'stop')}data: [DONE]\n\n` });
        relay.deliver({ type: 'host-call-end', callId });
      }, 0);
    });
    const retries: ModelCallRetry[] = [];
    const client = createModelClient(
      { label: 'page model', baseURL: 'http://page.invalid/v1', apiKey: '', model: 'm', fetch: relay.fetch },
      { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5_000 },
    );

    const result = await client.call({ messages: [{ role: 'user', content: 'Hi' }], signal: new AbortController().signal, onRetry: (retry) => retries.push(retry) });

    expect(result.message.content).toBe('Later.');
    expect(retries.map((retry) => [retry.status, retry.delayMs])).toEqual([[429, 1_000]]);
  });

  test('when the page goes away every call in flight fails as a network fault', async () => {
    const relay = createPageRelayedFetch(() => undefined);
    const call = relay.fetch('http://page.invalid/v1/chat/completions', { method: 'POST', body: '{"messages":[]}' });
    relay.failAll('The page closed.');
    await expect(call).rejects.toThrow('The page closed.');
  });
});

describe('the size of a host call reply', () => {
  test(`a reply over ${HOST_CALL_REPLY_MAX_CHARS} characters fails the call and stops it in the page`, async () => {
    const piece = 'x'.repeat(1_000_000);
    const over = Math.ceil(HOST_CALL_REPLY_MAX_CHARS / piece.length) + 1;
    const { client, sent } = relayWithPage(() => ({ status: 200, contentType: 'text/event-stream', chunks: Array.from({ length: over }, () => piece) }));

    const call = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true }).then(async (stream) => {
      for await (const _chunk of stream) void _chunk;
    });

    await expect(call).rejects.toThrow(/limit for one reply/);
    expect(sent.map((message) => message.type)).toEqual(['host-call', 'host-call-abort']);
  });

  test('a reply of several megabytes in many chunks reaches the caller intact', async () => {
    const content = 'y'.repeat(3_000_000);
    const body = JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
    const chunks = Array.from({ length: Math.ceil(body.length / 256_000) }, (_, index) => body.slice(index * 256_000, (index + 1) * 256_000));
    const { client } = relayWithPage(() => ({ status: 200, contentType: 'application/json', chunks }));

    const completion = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });

    expect(completion.choices[0]?.message.content).toBe(content);
  });
});
