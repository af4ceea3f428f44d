import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, test } from 'vitest';
import { requestSize, toolResultPointer, trimmedHistories } from '../../../src/runtime/context-trimming';

const longResult = `The critique is in summaries/agents/scene-critic/result.md. ${'Detail. '.repeat(100)}`;
const history: ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are Mira.' },
  { role: 'user', content: 'Old question.' },
  { role: 'assistant', content: 'Old answer.' },
  { role: 'user', content: 'The last question.' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'agent_await', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'a', content: longResult },
  { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'workspace_read', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'b', content: longResult },
  { role: 'user', content: 'No more tools: write your final reply now.' },
];

describe('trimmed histories', () => {
  test('older tool results first, then the oldest chat messages, then the latest results; never a system or the conversation\'s last user message', () => {
    const steps = [...trimmedHistories(history)];

    expect(steps.map((step) => step.note)).toEqual(['older tool results left out', '1 oldest chat message(s) left out', '2 oldest chat message(s) left out', 'every tool result left out']);
    expect(steps[0]?.messages[5]?.content).toBe(toolResultPointer(longResult));
    expect(steps[0]?.messages[7]?.content).toBe(longResult);
    const last = steps.at(-1)?.messages ?? [];
    expect(last.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'user']);
    expect(last[1]?.content).toBe('The last question.');
    expect(last[5]?.content).toBe(toolResultPointer(longResult));
    const sizes = steps.map((step) => JSON.stringify(step.messages).length);
    expect(sizes).toEqual([...sizes].sort((left, right) => right - left));
  });

  test('a pointer names the workspace files the result named', () => {
    expect(toolResultPointer(longResult)).toContain('summaries/agents/scene-critic/result.md');
    expect(toolResultPointer('plain text')).toContain('Call the tool again');
  });

  test("a child's briefing stays after a nudge: its history has nothing of a chat to drop", () => {
    const child: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are one member of a team of agents.' },
      { role: 'user', content: '# Critique\n\n## Objective\nCritique the scene.' },
      { role: 'assistant', content: `Some thoughts. ${longResult}` },
      { role: 'user', content: 'Your task is not finished until you call task_return.' },
    ];

    expect([...trimmedHistories(child, 'subagent')]).toEqual([]);
    // The root's copy of the same shape may lose its older chat: only a child's first user message is its whole conversation.
    expect([...trimmedHistories(child, 'root')].at(-1)?.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  test("a child's older tool results still become pointers, its briefing kept", () => {
    const child: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are one member of a team of agents.' },
      { role: 'user', content: 'Critique the scene.' },
      ...history.slice(4, 8),
      { role: 'user', content: 'Your task is not finished until you call task_return.' },
    ];

    const steps = [...trimmedHistories(child, 'subagent')];

    expect(steps.map((step) => step.note)).toEqual(['older tool results left out', 'every tool result left out']);
    for (const step of steps) expect(step.messages[1]?.content).toBe('Critique the scene.');
  });
});

describe('requestSize', () => {
  test('is the JSON length of the messages and tools, also when a message was weighed before', () => {
    const shared: ChatCompletionMessageParam = { role: 'user', content: 'Mara climbs the stair, "counting" the steps.\n' };
    const tools = [{ type: 'function' as const, function: { name: 'workspace_list', description: 'Lists.', parameters: { type: 'object' } } }];
    const histories: ChatCompletionMessageParam[][] = [[], [shared], [shared, { role: 'assistant', content: '雨が降る' }, shared]];

    for (const messages of histories) {
      const expected = JSON.stringify(messages).length + JSON.stringify(tools).length;
      expect(requestSize(messages, tools)).toBe(expected);
      expect(requestSize(messages, undefined)).toBe(JSON.stringify(messages).length + 2);
    }
  });
});
