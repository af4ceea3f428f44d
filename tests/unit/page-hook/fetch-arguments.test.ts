import { describe, expect, test } from 'vitest';
import { readBodyText } from '../../../src/page-hook/fetch-arguments';

const chatUrl = 'http://127.0.0.1:8000/v1/chat/completions';
const json = JSON.stringify({ model: 'page-model', stream: true, messages: [{ role: 'user', content: 'Hello, 世界' }] });

/** A Request as Firefox hands it over: no `body` property at all (Firefox has no Request.prototype.body). */
function requestWithoutBodyProperty(): Request {
  const request = new Request(chatUrl, { method: 'POST', body: json });
  Object.defineProperty(request, 'body', { value: undefined });
  return request;
}

describe('readBodyText reads a POST body in every form a page sends JSON', () => {
  const bytes = new TextEncoder().encode(json);
  test.each<[string, () => [RequestInfo | URL, RequestInit | undefined]]>([
    ['a string', () => [chatUrl, { method: 'POST', body: json }]],
    ['a Request', () => [new Request(chatUrl, { method: 'POST', body: json }), undefined]],
    ['a Request without a body property (Firefox)', () => [requestWithoutBodyProperty(), undefined]],
    ['a Blob', () => [chatUrl, { method: 'POST', body: new Blob([json], { type: 'application/json' }) }]],
    ['an ArrayBuffer', () => [chatUrl, { method: 'POST', body: bytes.slice().buffer }]],
    ['a Uint8Array', () => [chatUrl, { method: 'POST', body: bytes }]],
    ['a DataView over part of a buffer', () => {
      const padded = new Uint8Array(bytes.length + 4);
      padded.set(bytes, 2);
      return [chatUrl, { method: 'POST', body: new DataView(padded.buffer, 2, bytes.length) }];
    }],
    ['URLSearchParams holding JSON text', () => [chatUrl, { method: 'POST', body: new URLSearchParams(json) }]],
  ])('%s', async (_kind, makeArguments) => {
    const [input, init] = makeArguments();
    const actual = await readBodyText(input, init);
    expect(JSON.parse(actual ?? 'null')).toEqual(JSON.parse(json));
  });

  test('a Request can still be sent after its body was read', async () => {
    const request = new Request(chatUrl, { method: 'POST', body: json });
    await readBodyText(request, undefined);
    expect(request.bodyUsed).toBe(false);
    expect(await request.text()).toBe(json);
  });

  test('URLSearchParams of a form are read as the form text the server receives', () => {
    expect(readBodyText(chatUrl, { method: 'POST', body: new URLSearchParams({ prompt: 'Hi', n: '1' }) })).toBe('prompt=Hi&n=1');
  });

  test('bodies that would be used up or are not text are left alone', () => {
    const stream = new ReadableStream<Uint8Array>();
    expect(readBodyText(chatUrl, { method: 'POST', body: stream })).toBeUndefined();
    expect(stream.locked).toBe(false);
    expect(readBodyText(chatUrl, { method: 'POST', body: new FormData() })).toBeUndefined();
    expect(readBodyText(chatUrl, undefined)).toBeUndefined();
  });
});
