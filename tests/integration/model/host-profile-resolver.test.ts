import { afterEach, beforeEach, expect, test } from 'vitest';
import { ConfigurationError } from '../../../src/errors';
import { createPageRelayedFetch, type HostCallRequestMessage } from '../../../src/hosts/page-relayed-fetch';
import { connectionProfileTarget } from '../../../src/hosts/sillytavern/connection-profile-target';
import { createModelResolver } from '../../../src/model/model-resolver';
import { profileSchema, type AgentProfile } from '../../../src/settings/schema';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

const helper = (profileName: string): AgentProfile =>
  profileSchema.parse({ id: 'helper', name: 'Helper', description: 'Helps.', systemPrompt: '[[helper]]', model: { binding: 'hostProfile', profileName } });

const ask = (client: ReturnType<ReturnType<typeof createModelResolver>>) => client.call({ messages: [{ role: 'user', content: 'Go.' }], signal: new AbortController().signal });

/** A page that runs profile calls against the scripted server, or refuses a profile it does not have. */
function pageWithProfiles(known: Record<string, string>) {
  const posted: HostCallRequestMessage[] = [];
  const relay = createPageRelayedFetch((message) => {
    posted.push(message);
    if (message.type !== 'host-call') return;
    const profileModel = message.connectionProfile ? known[message.connectionProfile] : undefined;
    if (message.connectionProfile && profileModel === undefined) {
      queueMicrotask(() => relay.deliver({ type: 'host-call-refused', callId: message.callId, refusal: 'profile-missing' }));
      return;
    }
    void fetch(`${server.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...message.body, model: profileModel ?? message.body.model }) }).then(async (response) => {
      relay.deliver({ type: 'host-call-start', callId: message.callId, status: response.status, contentType: response.headers.get('content-type') ?? '' });
      relay.deliver({ type: 'host-call-chunk', callId: message.callId, text: await response.text() });
      relay.deliver({ type: 'host-call-end', callId: message.callId });
    });
  });
  return { relay, posted };
}

test("a hostProfile binding calls through the page, naming the profile; the page's profile model answers and no key is sent", async () => {
  server.script(() => ({ content: 'ok' }));
  const { relay, posted } = pageWithProfiles({ 'Cheap helper': 'cheap-model' });
  const resolveModel = createModelResolver({
    connections: [],
    host: { label: 'the page model', baseURL: server.baseURL, apiKey: 'host-binding-sends-no-key', model: 'page-model', fetch: relay.fetch },
    hostProfile: (profileName) => connectionProfileTarget({ origin: 'http://127.0.0.1:8000', profileName, pageFetch: relay, maxConcurrency: 2, toolProtocol: 'auto' }),
    clientOptions: { maxRetries: 2, baseDelayMs: 1 },
  });

  await ask(resolveModel(helper('Cheap helper')));

  expect(posted.filter((message) => message.type === 'host-call').map((message) => message.type === 'host-call' && message.connectionProfile)).toEqual(['Cheap helper']);
  expect(server.requests.map((request) => request.body.model)).toEqual(['cheap-model']);
});

test('a profile the page does not have fails at once, with no retry, naming the profile', async () => {
  const { relay, posted } = pageWithProfiles({});
  const resolveModel = createModelResolver({
    connections: [],
    host: { label: 'the page model', baseURL: server.baseURL, apiKey: '', model: 'page-model', fetch: relay.fetch },
    hostProfile: (profileName) => connectionProfileTarget({ origin: 'http://127.0.0.1:8000', profileName, pageFetch: relay, maxConcurrency: 2, toolProtocol: 'auto' }),
    clientOptions: { maxRetries: 3, baseDelayMs: 1 },
  });

  const failure = await ask(resolveModel(helper('Gone'))).catch((error: unknown) => error);

  expect(failure).toBeInstanceOf(ConfigurationError);
  expect((failure as ConfigurationError).code).toBe('connection-profile-profile-missing');
  expect((failure as Error).message).toContain('SillyTavern has no connection profile named “Gone”');
  expect(posted.filter((message) => message.type === 'host-call')).toHaveLength(1);
});

test('without a page (the headless runner) a hostProfile binding is a configuration error that says why', () => {
  const resolveModel = createModelResolver({ connections: [], host: { label: 'runner', baseURL: server.baseURL, apiKey: '', model: 'm' } });
  expect(() => resolveModel(helper('Cheap helper'))).toThrow(/only a SillyTavern page can use/);
});
