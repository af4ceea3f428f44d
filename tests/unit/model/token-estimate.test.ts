import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import {
  completionTokens,
  estimateCallUsage,
  loadTokenCounter,
  messageTokens,
  promptTokens,
  sumCallUsage,
  toolDefinitionTokens,
  usageReported,
} from '../../../src/model/token-estimate';

const tool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'agent_delegate',
    description: 'Start a task for another agent, run in the background; answers with its task name.',
    parameters: { type: 'object', properties: { agentId: { type: 'string', description: 'From agent_list.' } }, required: ['agentId'] },
  },
};

describe('token estimates', () => {
  it('counts a plain message as its text plus the per-message overhead', async () => {
    const count = await loadTokenCounter();
    const message: ChatCompletionMessageParam = { role: 'user', content: 'hello world' };

    const actual = messageTokens(count, message);

    // "hello world" is two tokens in cl100k_base; each message adds three.
    expect(actual).toBe(2 + 3);
  });

  it('counts text parts and the name of a message, and gives images a fixed cost', async () => {
    const count = await loadTokenCounter();
    const plain = messageTokens(count, { role: 'user', content: 'hello world' });
    const parts = messageTokens(count, {
      role: 'user',
      name: 'Alice',
      content: [
        { type: 'text', text: 'hello world' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });

    expect(parts).toBe(plain + 1 + count('Alice') + 85);
  });

  it('counts the tool calls of an assistant turn: names and arguments', async () => {
    const count = await loadTokenCounter();
    const args = JSON.stringify({ agentId: 'scene-critic', task: { title: 'Critique', objective: 'Find weak lines.' } });
    const withCall: ChatCompletionMessageParam = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'agent_delegate', arguments: args } }],
    };

    const actual = messageTokens(count, withCall);

    expect(actual).toBe(3 + 3 + count('agent_delegate') + count(args));
    expect(actual).toBeGreaterThan(count(args));
  });

  it('counts tool definitions: more tools cost more, none cost nothing', async () => {
    const count = await loadTokenCounter();
    const one = toolDefinitionTokens(count, [tool]);
    const two = toolDefinitionTokens(count, [tool, { ...tool, function: { ...tool.function, name: 'agent_await' } }]);

    expect(toolDefinitionTokens(count, [])).toBe(0);
    expect(toolDefinitionTokens(count, undefined)).toBe(0);
    expect(one).toBeGreaterThan(count(JSON.stringify(tool.function.parameters)));
    expect(two).toBeGreaterThan(one);
  });

  it('counts a prompt as its messages, its tools and the reply priming', async () => {
    const count = await loadTokenCounter();
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are a careful writer.' },
      { role: 'user', content: 'Continue the scene.' },
      { role: 'tool', tool_call_id: 'call_1', content: 'Delegated "Critique" to Scene critic.' },
    ];

    const actual = promptTokens(count, messages, [tool]);

    const expected = 3 + toolDefinitionTokens(count, [tool]) + messages.reduce((sum, message) => sum + messageTokens(count, message), 0);
    expect(actual).toBe(expected);
  });

  it('counts special-token text as plain text instead of refusing it', async () => {
    const count = await loadTokenCounter();

    expect(count('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('counts a completion as its text, its tool calls and its reasoning', async () => {
    const count = await loadTokenCounter();
    const message = { role: 'assistant' as const, content: 'The reply.' };

    expect(completionTokens(count, message)).toBe(count('The reply.'));
    expect(completionTokens(count, message, 'Thinking it over first.')).toBe(count('The reply.') + count('Thinking it over first.'));
  });

  it('makes a usage marked estimated, whose total is its two parts', async () => {
    const actual = await estimateCallUsage(
      { messages: [{ role: 'user', content: 'Write one line.' }], tools: [tool] },
      { message: { role: 'assistant', content: 'One line.' } },
    );

    expect(actual.estimated).toBe(true);
    expect(actual.promptTokens).toBeGreaterThan(0);
    expect(actual.completionTokens).toBeGreaterThan(0);
    expect(actual.totalTokens).toBe(actual.promptTokens + actual.completionTokens);
  });

  it('treats zero tokens in and out as no usage reported', () => {
    expect(usageReported({ promptTokens: 0, completionTokens: 0, totalTokens: 0 })).toBe(false);
    expect(usageReported({ promptTokens: 12, completionTokens: 0, totalTokens: 12 })).toBe(true);
  });
});

describe('usage of several sends', () => {
  it('sums the sends and is estimated when any send was', () => {
    const reported = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const estimated = { promptTokens: 20, completionTokens: 2, totalTokens: 22, estimated: true };

    expect(sumCallUsage([reported, reported])).toEqual({ promptTokens: 20, completionTokens: 10, totalTokens: 30 });
    expect(sumCallUsage([reported, estimated])).toEqual({ promptTokens: 30, completionTokens: 7, totalTokens: 37, estimated: true });
  });
});
