import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ANSWER_NOW_NUDGE } from '../../../src/model/checked-call';
import { createModelClient, type ModelClientOptions } from '../../../src/model/create-model-client';
import type { ModelCallRequest, ModelTarget } from '../../../src/model/model-client';
import { toToolDefinition } from '../../../src/model/tool-protocol';
import { createInMemoryToolProtocolMemory, endpointKeyOf } from '../../../src/model/tool-protocol-memory';
import { startScriptedModelServer, type ScriptedModelServer, type TextCallFormat } from '../../support/scripted-model-server';

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

function target(overrides: Partial<ModelTarget> = {}): ModelTarget {
  return { label: "connection 'local' · scripted-model", baseURL: server.baseURL, apiKey: '', model: 'scripted-model', ...overrides };
}

const fastRetries: ModelClientOptions = { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 };
const tools = [
  toToolDefinition({ name: 'agent.delegate', description: 'Give a task to an agent.', parameters: z.object({ agent: z.string(), objective: z.string() }) }),
  toToolDefinition({ name: 'agent.list', description: 'List the agents.', parameters: z.object({}) }),
];

function request(overrides: Partial<ModelCallRequest> = {}): ModelCallRequest {
  return { messages: [{ role: 'system', content: 'You are the root.' }, { role: 'user', content: 'Review chapter 3.' }], tools, signal: new AbortController().signal, ...overrides };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('an endpoint that refuses tools', () => {
  test('auto switches to the prompted protocol at once, remembers it, and reads the call written as text', async () => {
    server.modes.refuseTools = true;
    server.modes.textCalls = 'hermes';
    server.script(() => ({ content: 'I will ask the critic.', toolCalls: [{ name: 'agent_delegate', arguments: { agent: 'scene-critic', objective: 'Find slow scenes.' } }] }));
    const memory = createInMemoryToolProtocolMemory();

    const actual = await createModelClient(target(), { ...fastRetries, toolProtocolMemory: memory }).call(request());

    expect(actual.toolProtocol).toBe('prompted');
    expect(actual.message.content).toBe('I will ask the critic.');
    expect(actual.message.tool_calls?.map((call) => (call.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []))).toEqual([
      ['agent_delegate', { agent: 'scene-critic', objective: 'Find slow scenes.' }],
    ]);
    expect(server.requests.map((recorded) => recorded.outcome)).toEqual(['status', 'answered']);
    const prompted = server.requests[1];
    expect(prompted?.body.tools).toBeUndefined();
    expect(prompted?.systemText).toContain('agent_delegate(agent: string, objective: string)');
    expect(prompted?.systemText).toContain('<tool_call>\n{"name":"agent_delegate","arguments":{"agent":"text","objective":"text"}}\n</tool_call>');
    expect(await memory.isPrompted(endpointKeyOf(target()))).toBe(true);

    await createModelClient(target(), { ...fastRetries, toolProtocolMemory: memory }).call(request());
    expect(server.requests.map((recorded) => recorded.outcome)).toEqual(['status', 'answered', 'answered']);
  });

  test('prompted mode writes earlier calls and results as text, results as a user message', async () => {
    server.script(() => ({ content: 'The critic found two slow scenes.' }));

    const actual = await createModelClient(target({ toolProtocol: 'prompted' }), fastRetries).call(
      request({
        messages: [
          { role: 'user', content: 'Review chapter 3.' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'agent_list', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'scene-critic: reviews pacing.' },
        ],
      }),
    );

    expect(actual.message.content).toBe('The critic found two slow scenes.');
    const messages = server.requests[0]?.body.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[2]?.content).toBe('<tool_call>\n{"name":"agent_list","arguments":{}}\n</tool_call>');
    expect(messages[3]?.content).toBe('<tool_response name="agent_list">\nscene-critic: reviews pacing.\n</tool_response>');
  });

  test('native forced: the refusal ends the call with tools-refused', async () => {
    server.modes.refuseTools = true;

    const error = await failureOf(createModelClient(target({ toolProtocol: 'native' }), fastRetries).call(request()));

    expect(error).toMatchObject({ code: 'tools-refused', status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  test('a malformed text call gets one corrective message, then the call is read', async () => {
    server.queue(() => true, { content: '<tool_call>\n{"name": "agent_list", "arguments": {}\n</tool_call>' }, { content: '<tool_call>\n{"name": "agent_list", "arguments": {}}\n</tool_call>' });

    const actual = await createModelClient(target(), fastRetries).call(request());

    expect(actual.message.tool_calls).toHaveLength(1);
    expect(server.requests[1]?.lastMessageText).toContain('Your tool call could not be read');
  });
});

describe('a model that writes its tool calls as text', () => {
  const formats: TextCallFormat[] = ['hermes', 'fenced-json', 'bare-json', 'llama-python-tag', 'mistral', 'qwen3-coder', 'deepseek'];
  test.each(formats)('%s: the calls become tool_calls and no call text is left', async (format) => {
    server.modes.textCalls = format;
    server.script(() => ({ toolCalls: [{ name: 'agent_delegate', arguments: { agent: 'scene-critic', objective: 'Find slow scenes.' } }, { name: 'agent_list', arguments: {} }] }));

    const actual = await createModelClient(target(), fastRetries).call(request());

    expect(actual.toolProtocol).toBe('native');
    expect(actual.message.content ?? '').toBe('');
    expect(actual.message.tool_calls?.map((call) => (call.type === 'function' ? call.function.name : ''))).toEqual(['agent_delegate', 'agent_list']);
  });
});

describe('answers are checked', () => {
  test('reasoning in <think> and in reasoning_content is kept apart from the answer', async () => {
    server.script(() => ({ reasoning: 'Thinking in the field.', content: '<think>\nThinking in the content.\n</think>\n\nHello!' }));

    const actual = await createModelClient(target(), fastRetries).call(request({ tools: undefined }));

    expect(actual.message.content).toBe('Hello!');
    expect(actual.reasoning).toBe('Thinking in the field.\n\nThinking in the content.');
  });

  test('reasoning only, stopped by length: one nudge, and its answer is used', async () => {
    server.queue(() => true, { reasoning: 'Long thoughts...', finishReason: 'length' }, { content: 'Brief answer.' });

    const actual = await createModelClient(target(), fastRetries).call(request());

    expect(actual.message.content).toBe('Brief answer.');
    expect(server.requests[1]?.lastMessageText).toBe(ANSWER_NOW_NUDGE);
  });

  test('empty again after the nudge: empty-answer', async () => {
    server.script(() => ({ reasoning: 'Long thoughts...', finishReason: 'length' }));

    const error = await failureOf(createModelClient(target(), fastRetries).call(request()));

    expect(error).toMatchObject({ code: 'empty-answer' });
    expect(server.requests).toHaveLength(2);
  });

  test.each([
    ['streamed', false],
    ['JSON', true],
  ])('a clean cut (%s) is retried like a reset', async (_shape, ignoreStream) => {
    server.queue(() => true, { content: 'A half sentence that goes on and on', cleanCut: true, ignoreStream }, { content: 'The whole answer.', ignoreStream });

    const actual = await createModelClient(target(), fastRetries).call(request());

    expect(actual.message.content).toBe('The whole answer.');
    expect(server.requests).toHaveLength(2);
  });

  test('cut every time: cut-answer after the retry budget', async () => {
    server.script(() => ({ content: 'A half sentence that goes on and on', cleanCut: true }));

    const error = await failureOf(createModelClient(target(), fastRetries).call(request()));

    expect(error).toMatchObject({ code: 'cut-answer' });
    expect(server.requests).toHaveLength(3);
  });

  test('a context-length refusal is context-too-long, not retried', async () => {
    server.modes.contextWindowChars = 100;
    server.script(() => ({ content: 'Never.' }));

    const error = await failureOf(createModelClient(target(), fastRetries).call(request()));

    expect(error).toMatchObject({ code: 'context-too-long', status: 400 });
    expect(server.requests).toHaveLength(1);
  });
});
