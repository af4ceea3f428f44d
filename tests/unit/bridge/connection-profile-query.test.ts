import { describe, expect, test } from 'vitest';
import { createConnectionProfileQuery } from '../../../src/bridge/connection-profile-query';
import { answerConnectionProfileRequest } from '../../../src/bridge/connection-profile-requests';
import type { BridgeToPageMessage } from '../../../src/messaging/page-messages';
import { parsePageMessage } from '../../../src/messaging/page-messages';

describe("the bridge asking the page hook for the page's connection profiles", () => {
  test("answers the question it asked with the page's profiles: names, sources and models only", async () => {
    const sent: BridgeToPageMessage[] = [];
    const query = createConnectionProfileQuery((message) => sent.push(message));
    const answer = query.ask();
    const asked = sent[0] as Extract<BridgeToPageMessage, { type: 'connection-profiles-request' }>;
    query.receive({ type: 'connection-profiles', queryId: 'another-query', profiles: [] });
    const cheap = { name: 'Cheap', api: 'custom', mode: 'cc', model: 'm', 'secret-id': 'secret-7', 'api-url': 'http://127.0.0.1:5001/v1' };
    query.receive({ type: 'connection-profiles', queryId: asked.queryId, profiles: [cheap], apiMap: { custom: { selected: 'openai', source: 'custom' } }, presets: { Cold: { temperature: 0.1 } } });
    expect(await answer).toEqual({ kind: 'profiles', profiles: [{ name: 'Cheap', source: 'custom', model: 'm' }], presets: [{ name: 'Cold', sampling: { temperature: 0.1 } }] });
  });

  test('says so when the page has no Connection Manager, or does not answer in time', async () => {
    const sent: BridgeToPageMessage[] = [];
    const query = createConnectionProfileQuery((message) => sent.push(message), 20);
    const first = query.ask();
    query.receive({ type: 'connection-profiles', queryId: (sent[0] as { queryId: string }).queryId });
    expect(await first).toEqual({ kind: 'no-connection-manager' });
    expect(await query.ask()).toEqual({ kind: 'no-answer' });
  });

  test('drops page answers with too many profiles, or profiles that are not objects', () => {
    const tooMany = JSON.stringify({ type: 'connection-profiles', queryId: 'q', profiles: Array.from({ length: 201 }, (_, index) => ({ name: `P${index}` })) });
    const notObjects = JSON.stringify({ type: 'connection-profiles', queryId: 'q', profiles: ['Cheap'] });
    expect(parsePageMessage(tooMany)).toBeUndefined();
    expect(parsePageMessage(notObjects)).toBeUndefined();
  });

  test('answers only its own runtime message, and only while the site is on', async () => {
    const query = { ask: async () => ({ kind: 'profiles' as const, profiles: [] }), read: async () => undefined, receive: () => undefined };
    expect(answerConnectionProfileRequest({ type: 'something-else' }, { isSiteOn: async () => true, query: () => query })).toBeUndefined();
    expect(await answerConnectionProfileRequest({ type: 'connection-profiles-request' }, { isSiteOn: async () => true, query: () => query })).toEqual({ kind: 'profiles', profiles: [] });
    expect(await answerConnectionProfileRequest({ type: 'connection-profiles-request' }, { isSiteOn: async () => false, query: () => query })).toEqual({ kind: 'no-answer' });
    expect(await answerConnectionProfileRequest({ type: 'connection-profiles-request' }, { isSiteOn: async () => true, query: () => undefined })).toEqual({ kind: 'no-answer' });
  });
});
