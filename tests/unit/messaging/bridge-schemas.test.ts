import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { isOriginInSitesOn } from '../../../src/settings/sites-on';
import { backgroundToBridgeMessageSchema, bridgeToBackgroundMessageSchema } from '../../../src/messaging/run-port-messages';
import { jsonObjectSchema, parsePageMessage } from '../../../src/messaging/page-messages';

// The schemas the bridge content script carries are written in zod/mini (docs/performance.md). These
// check that they still take and refuse what the page, the bridge and the background exchange.

const run = (fields: Record<string, unknown>) => ({ type: 'run-start', requestId: 'r1', adapter: 'sillytavern', body: { messages: [] }, ...fields });
const hostCallStart = (fields: Record<string, unknown>) => ({ type: 'host-call-start', requestId: 'r1', callId: 'c1', status: 200, contentType: 'text/event-stream', ...fields });
const pageText = (message: unknown) => JSON.stringify(message);

describe('a request body (jsonObjectSchema)', () => {
  const record = z.record(z.string(), z.unknown());

  test('takes and refuses the same JSON values as a record of unknowns, and keeps every field', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = record.safeParse(value);
        const actual = jsonObjectSchema.safeParse(value);
        expect(actual.success).toBe(expected.success);
        if (actual.success && expected.success) expect(actual.data).toEqual(expected.data);
      }),
      { numRuns: 500 },
    );
  });

  test('refuses arrays, null and text', () => {
    for (const value of [[], [1], null, 'body', 3]) expect(jsonObjectSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });
});

describe('page messages', () => {
  test("a chat turn keeps SillyTavern's chat as the page hook read it, and drops one that is not an object", () => {
    const tavern = { chatId: 'Alice - 2026-12-01', length: 4, swipe_id: 1 };
    expect(parsePageMessage(pageText(run({ tavern })))).toEqual(run({ tavern }));
    for (const broken of ['Alice', 4, [tavern], null]) expect(parsePageMessage(pageText(run({ tavern: broken }))), JSON.stringify(broken)).toEqual(run({}));
    // The identity the bridge makes of it is checked before it goes on (tests/unit/bridge/page-chat.test.ts).
    expect(parsePageMessage(pageText(run({ chat: { conversationId: 'c' } })))).toBeUndefined();
  });

  test('a host call start takes a status from 100 to 599, whole, and refuses the rest', () => {
    expect(parsePageMessage(pageText(hostCallStart({ status: 100 })))).toBeDefined();
    expect(parsePageMessage(pageText(hostCallStart({ status: 599, retryAfter: '3' })))).toBeDefined();
    for (const status of [99, 600, 200.5, '200']) expect(parsePageMessage(pageText(hostCallStart({ status }))), String(status)).toBeUndefined();
    expect(parsePageMessage(pageText(hostCallStart({ contentType: 'x'.repeat(201) })))).toBeUndefined();
    expect(parsePageMessage(pageText(hostCallStart({ extra: true })))).toBeUndefined();
  });

  test('a refused host call (the bridge refuses it) names a source only in SillyTavern’s spelling', () => {
    const refused = (source: string) => bridgeToBackgroundMessageSchema().safeParse({ type: 'host-call-refused', callId: 'c1', refusal: 'profile-source-unsupported', source }).success;
    expect(refused('azure_openai')).toBe(true);
    expect(refused('not a source')).toBe(false);
    expect(refused('x'.repeat(65))).toBe(false);
    expect(parsePageMessage(pageText({ type: 'host-call-refused', requestId: 'r1', callId: 'c1', refusal: 'profile-missing' }))).toBeUndefined();
  });

  test('connection profiles: a list of records, absent for a page without the Connection Manager; never more than 200', () => {
    const profiles = (list: unknown) => pageText({ type: 'connection-profiles', queryId: 'q1', profiles: list });
    expect(parsePageMessage(pageText({ type: 'connection-profiles', queryId: 'q1' }))).toEqual({ type: 'connection-profiles', queryId: 'q1' });
    expect(parsePageMessage(profiles([{ name: 'Claude', api: 'claude', mode: 'cc' }]))).toBeDefined();
    expect(parsePageMessage(profiles(['Claude']))).toBeUndefined();
    expect(parsePageMessage(profiles(Array.from({ length: 201 }, (_, index) => ({ name: `p${index}` }))))).toBeUndefined();
  });

  test("the page's own answer to a pass-through carries its status and at most 1,000,000 characters", () => {
    const reply = (fields: Record<string, unknown>) => parsePageMessage(pageText({ type: 'pass-through-reply', requestId: 'r1', status: 200, text: '{}', ...fields }));
    expect(reply({})).toBeDefined();
    expect(reply({ status: 99 })).toBeUndefined();
    expect(reply({ text: 'x'.repeat(1_000_001) })).toBeUndefined();
  });
});

describe('run port messages', () => {
  test('the background’s messages keep their bounds', () => {
    expect(backgroundToBridgeMessageSchema().safeParse({ type: 'run-reply', reply: 'Hi', helpersWorking: 2 }).success).toBe(true);
    expect(backgroundToBridgeMessageSchema().safeParse({ type: 'run-reply', reply: 'Hi', helpersWorking: 0 }).success).toBe(false);
    expect(backgroundToBridgeMessageSchema().safeParse({ type: 'run-failed', status: 502.5, message: 'no' }).success).toBe(false);
    expect(backgroundToBridgeMessageSchema().safeParse({ type: 'run-reply-delta', text: 'x'.repeat(16_001) }).success).toBe(false);
    expect(backgroundToBridgeMessageSchema().safeParse({ type: 'host-call', callId: 'c1', body: [], connectionProfile: 'Claude' }).success).toBe(false);
  });

  test('the bridge’s messages keep theirs', () => {
    expect(bridgeToBackgroundMessageSchema().safeParse({ type: 'run-start', adapter: 'openai-chat', body: { messages: [] } }).success).toBe(true);
    expect(bridgeToBackgroundMessageSchema().safeParse({ type: 'run-resume', runId: '' }).success).toBe(false);
    expect(bridgeToBackgroundMessageSchema().safeParse({ type: 'run-over-limit', limit: 'messages' }).success).toBe(false);
  });

  test('a refusal the background reads names the first wrong field in words (classic zod’s English messages)', () => {
    const parsed = bridgeToBackgroundMessageSchema().safeParse({ type: 'host-call-start', callId: 'c1', status: 700, contentType: '' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['status'], message: expect.stringMatching(/599/) });
  });
});

test('the sites a bridge is on: a list of origins, at most 1,000, each at most 300 characters', () => {
  expect(isOriginInSitesOn(['http://127.0.0.1:8000'], 'http://127.0.0.1:8000')).toBe(true);
  expect(isOriginInSitesOn(['x'.repeat(301), 'http://127.0.0.1:8000'], 'http://127.0.0.1:8000')).toBe(false);
  expect(isOriginInSitesOn(Array.from({ length: 1_001 }, () => 'http://127.0.0.1:8000'), 'http://127.0.0.1:8000')).toBe(false);
});
