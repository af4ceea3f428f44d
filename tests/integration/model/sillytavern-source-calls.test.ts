import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { hostCallBody, hostCallInit, hostCallTemplateBody } from '../../../src/hosts/host-call-template';
import { SOURCE_PROTOCOLS } from '../../../src/hosts/sillytavern/source-protocols';
import { createModelClient } from '../../../src/model/create-model-client';
import { createInMemoryToolProtocolMemory } from '../../../src/model/tool-protocol-memory';
import type { ModelTarget, ToolProtocolSetting } from '../../../src/model/model-client';
import { toToolDefinition } from '../../../src/model/tool-protocol';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';
import { startFixtureServer, type FixtureServer } from '../../e2e/support/fixture-server';

/**
 * Calls through SillyTavern's Claude and Google sources, as the `host` binding makes them: the real
 * host-call template (the page's body and CSRF header, the call merged in), the fixture SillyTavern
 * backend answering in each source's own shape, the scripted model behind it.
 */

let model: ScriptedModelServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  model = await startScriptedModelServer();
  fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
});

afterAll(async () => {
  await fixtures?.close();
  await model?.close();
});

beforeEach(() => model.reset());

/** The page's chat turn for a source, with the settings a SillyTavern user may have set. */
function pageBody(source: string): Record<string, unknown> {
  return {
    type: 'normal',
    messages: [{ role: 'user', content: 'Hello' }],
    model: source === 'claude' ? 'claude-sonnet-4-5' : 'gemini-2.5-flash',
    stream: true,
    chat_completion_source: source,
    assistant_prefill: 'Sure,',
    reasoning_effort: 'high',
    use_sysprompt: true,
  };
}

/** A target whose fetch is the page hook's: the template merged with the SDK's body, sent with the page's header. */
function sourceTarget(source: string, toolProtocol: ToolProtocolSetting = 'auto'): ModelTarget {
  const url = `${fixtures.origins.primary}/api/backends/chat-completions/generate`;
  const templateBody = hostCallTemplateBody(pageBody(source));
  const pageFetch = (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = hostCallBody(templateBody, JSON.parse(String(init?.body)) as Record<string, unknown>);
    return fetch(url, { ...hostCallInit({ 'X-CSRF-Token': fixtures.csrfToken }, body), signal: init?.signal ?? null });
  };
  return {
    label: "the page's own model",
    baseURL: `${fixtures.origins.primary}/`,
    apiKey: 'host-binding-sends-no-key',
    model: String(pageBody(source).model),
    fetch: pageFetch as typeof fetch,
    toolProtocol,
    wholeReply: SOURCE_PROTOCOLS[source]?.wholeReply,
  };
}

const tools = [toToolDefinition({ name: 'agent.delegate', description: 'Start a task.', parameters: z.object({ agentId: z.string() }) })];

describe.each(['claude', 'makersuite', 'vertexai'])('a call through the %s source', (source) => {
  test('goes whole and reads the tool call from the source’s own blocks', async () => {
    model.script(() => ({ content: 'Asking the critic.', reasoning: 'Who knows the scene best?', toolCalls: [{ id: 'call_critic', name: 'agent_delegate', arguments: { agentId: 'scene-critic' } }] }));
    const client = createModelClient(sourceTarget(source), { toolProtocolMemory: createInMemoryToolProtocolMemory() });
    const actual = await client.call({ messages: [{ role: 'user', content: 'Hello' }], tools, signal: new AbortController().signal });

    const call = actual.message.tool_calls?.[0];
    expect(call?.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]).toEqual(['agent_delegate', { agentId: 'scene-critic' }]);
    expect(actual.message.content).toBe('Asking the critic.');
    expect(actual.reasoning).toBe('Who knows the scene best?');
    const record = fixtures.sillyTavernGenerations.at(-1);
    expect(record).toMatchObject({ source, stream: false });
    expect(record?.refusedWith).toBeUndefined();
    if (source === 'claude') expect(record?.forwardedBody).toMatchObject({ tool_choice: 'auto', reasoning_effort: 'auto' });
  });

  test('a later round sends the earlier call and its result back in a form the server takes', async () => {
    model.script(() => ({ content: 'The critic says: end on the knock.' }));
    const client = createModelClient(sourceTarget(source), { toolProtocolMemory: createInMemoryToolProtocolMemory() });
    const actual = await client.call({
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'agent_delegate', arguments: '{"agentId": broken' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'Started scene-critic.' },
      ],
      tools,
      signal: new AbortController().signal,
    });
    expect(actual.message).toEqual({ role: 'assistant', content: 'The critic says: end on the knock.' });
    expect(fixtures.sillyTavernGenerations.at(-1)?.refusedWith).toBeUndefined();
  });

  test('in the prompted protocol no tools go along and a call written in the text is read', async () => {
    model.script(() => ({ content: '<tool_call>\n{"name": "agent_delegate", "arguments": {"agentId": "scene-critic"}}\n</tool_call>' }));
    const client = createModelClient(sourceTarget(source, 'prompted'), { toolProtocolMemory: createInMemoryToolProtocolMemory() });
    const actual = await client.call({ messages: [{ role: 'user', content: 'Hello' }], tools, signal: new AbortController().signal });
    expect(actual.toolProtocol).toBe('prompted');
    expect(actual.message.tool_calls?.map((call) => call.type === 'function' && call.function.name)).toEqual(['agent_delegate']);
    expect(model.requests.at(-1)?.toolNames).toEqual([]);
  });
});
