import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { createModelClient } from '../../../src/model/create-model-client';
import type { ModelCallRequest, ModelTarget } from '../../../src/model/model-client';
import { toToolDefinition } from '../../../src/model/tool-protocol';
import { createInMemoryToolProtocolMemory, endpointKeyOf } from '../../../src/model/tool-protocol-memory';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

/**
 * A refusal whose words name tools, of a request sent without any (a wrap-up call), says nothing of
 * the endpoint's tools: it must not switch a native-capable endpoint to the prompted protocol for
 * every later run. Real `openai` SDK against the scripted server.
 */

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

const target: ModelTarget = { label: "connection 'local' · scripted-model", baseURL: '', apiKey: '', model: 'scripted-model' };
const tools = [toToolDefinition({ name: 'agent.list', description: 'List the agents.', parameters: z.object({}) })];

function request(withTools: boolean): ModelCallRequest {
  return {
    messages: [{ role: 'system', content: 'You are the root.' }, { role: 'user', content: 'Review chapter 3.' }],
    ...(withTools ? { tools } : {}),
    signal: new AbortController().signal,
  };
}

test('a refusal that names tools, of a call without tools, leaves the endpoint on native tools', async () => {
  const endpoint = { ...target, baseURL: server.baseURL };
  const memory = createInMemoryToolProtocolMemory();
  const client = createModelClient(endpoint, { maxRetries: 0, toolProtocolMemory: memory });
  let calls = 0;
  server.script(() => (++calls === 1 ? { fault: 'status', status: 400, message: 'tool_choice is not valid for this request' } : { content: 'The reply.' }));

  const refused = await client.call(request(false)).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toMatchObject({ code: 'provider-rejected', status: 400 });

  await client.call(request(true));
  expect(await memory.isPrompted(endpointKeyOf(endpoint))).toBe(false);
  // The later call with tools still offers them natively.
  expect(server.requests.at(-1)?.body.tools).toEqual([expect.objectContaining({ type: 'function' })]);
});
