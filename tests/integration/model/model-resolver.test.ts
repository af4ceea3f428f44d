import { afterEach, beforeEach, expect, test } from 'vitest';
import { ConfigurationError } from '../../../src/errors';
import { createModelResolver } from '../../../src/model/model-resolver';
import { connectionSchema, profileSchema, type AgentProfile } from '../../../src/settings/schema';
import { peakOverlap, startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

function profile(id: string, model: AgentProfile['model']): AgentProfile {
  return profileSchema.parse({ id, name: id, description: `${id} agent`, systemPrompt: `[[${id}]]`, model });
}

const ask = (client: { call: (request: { messages: { role: 'user'; content: string }[]; signal: AbortSignal }) => Promise<unknown> }) =>
  client.call({ messages: [{ role: 'user', content: 'Go.' }], signal: new AbortController().signal });

test('host-bound agents call the host target (with their own model where they name one); connection-bound ones their connection, model and key', async () => {
  server.script(() => ({ content: 'ok' }));
  const resolveModel = createModelResolver({
    connections: [connectionSchema.parse({ id: 'local', baseURL: server.baseURL, apiKey: 'local-key', defaultModel: 'local-default' })],
    host: { label: 'the page model', baseURL: server.baseURL, apiKey: 'page-key', model: 'page-model' },
  });

  await ask(resolveModel(profile('writer', { binding: 'host' })));
  await ask(resolveModel(profile('summariser', { binding: 'host', model: 'cheaper-model' })));
  await ask(resolveModel(profile('critic', { binding: 'connection', connectionId: 'local' })));
  await ask(resolveModel(profile('checker', { binding: 'connection', connectionId: 'local', model: 'checker-model' })));

  const actual = server.requests.map((request) => [request.body.model, request.headers.authorization]);
  expect(actual).toEqual([
    ['page-model', 'Bearer page-key'],
    ['cheaper-model', 'Bearer page-key'],
    ['local-default', 'Bearer local-key'],
    ['checker-model', 'Bearer local-key'],
  ]);
});

test("every model of one connection shares the connection's concurrency cap", async () => {
  server.script(() => ({ content: 'ok', delayMs: 40 }));
  const resolveModel = createModelResolver({
    connections: [connectionSchema.parse({ id: 'local', baseURL: server.baseURL, defaultModel: 'a', maxConcurrency: 2 })],
    host: { label: 'the page model', baseURL: server.baseURL, apiKey: '', model: 'page-model' },
  });
  const first = resolveModel(profile('first', { binding: 'connection', connectionId: 'local', model: 'a' }));
  const second = resolveModel(profile('second', { binding: 'connection', connectionId: 'local', model: 'b' }));

  await Promise.all([first, second, first, second, first, second].map(ask));

  expect(new Set(server.requests.map((request) => request.body.model))).toEqual(new Set(['a', 'b']));
  expect(peakOverlap(server.requests)).toBe(2);
});

test("a connection at a plain http address makes at most a browser's six connections' calls at once, whatever its setting", async () => {
  server.script(() => ({ content: 'ok', delayMs: 60 }));
  const resolveModel = createModelResolver({
    connections: [connectionSchema.parse({ id: 'local', baseURL: server.baseURL, defaultModel: 'a', maxConcurrency: 8 })],
    host: { label: 'the page model', baseURL: server.baseURL, apiKey: '', model: 'page-model' },
  });
  const critic = resolveModel(profile('critic', { binding: 'connection', connectionId: 'local' }));

  await Promise.all(Array.from({ length: 8 }, () => ask(critic)));

  expect(server.baseURL.startsWith('http:')).toBe(true);
  expect(server.requests).toHaveLength(8);
  expect(peakOverlap(server.requests)).toBe(6);
});

test('resolvers of parallel runs that share the limiter map respect the cap together', async () => {
  server.script(() => ({ content: 'ok', delayMs: 40 }));
  const connections = [connectionSchema.parse({ id: 'local', baseURL: server.baseURL, defaultModel: 'a', maxConcurrency: 2 })];
  const connectionLimiters = new Map();
  const host = { label: 'the page model', baseURL: server.baseURL, apiKey: '', model: 'page-model' };
  const runs = [createModelResolver({ connections, host, connectionLimiters }), createModelResolver({ connections, host, connectionLimiters })];
  const critic = profile('critic', { binding: 'connection', connectionId: 'local' });

  await Promise.all(runs.flatMap((resolveModel) => [1, 2, 3].map(() => ask(resolveModel(critic)))));

  expect(server.requests).toHaveLength(6);
  expect(peakOverlap(server.requests)).toBe(2);
});

test('an agent bound to a connection the settings lack is a configuration error that names the agent, not the connection id', () => {
  const resolveModel = createModelResolver({ connections: [], host: { label: 'the page model', baseURL: server.baseURL, apiKey: '', model: 'm' } });

  const actual = () => resolveModel(profile('critic', { binding: 'connection', connectionId: 'gone' }));

  expect(actual).toThrow(ConfigurationError);
  expect(actual).toThrow("Agent 'critic' uses a connection that Retinue's settings no longer have.");
  expect(actual).not.toThrow(/gone/);
});
