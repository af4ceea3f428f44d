import { afterEach, beforeEach, expect, test } from 'vitest';
import { createModelClient } from '../../../src/model/create-model-client';
import type { ModelCallRequest, ModelTarget } from '../../../src/model/model-client';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

/**
 * A JSON answer (the endpoint ignored `stream`) whose choice has no finish
 * reason was cut short: it is retried like a reset, and half an answer never becomes the reply.
 * Real `openai` SDK against the scripted server.
 */

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

const request: ModelCallRequest = { messages: [{ role: 'user', content: 'Describe the duel.' }], signal: new AbortController().signal };

test('a JSON answer with finish_reason null is a cut and is asked again', async () => {
  const target: ModelTarget = { label: "connection 'local' · scripted-model", baseURL: server.baseURL, apiKey: '', model: 'scripted-model' };
  server.queue(() => true, { content: 'The duke parries and the', finishReason: null, ignoreStream: true }, { content: 'The duke parries; the rain hisses on steel.', ignoreStream: true });

  const actual = await createModelClient(target, { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 }).call(request);

  expect(actual.message.content).toBe('The duke parries; the rain hisses on steel.');
  expect(server.requests).toHaveLength(2);
});
