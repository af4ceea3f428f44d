/**
 * Properties of the two rewrites a history goes through before a call, over random histories of
 * rounds, notes and wrap-ups: the prompted encoding never leaves a native tool message and keeps
 * the turns alternating; trimming never drops a system message, the root's last chat message or a
 * child's briefing, and always leaves a valid history.
 */
import fc from 'fast-check';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, test } from 'vitest';
import { encodeForPromptedTools } from '../../../src/model/prompted-tools';
import { trimmedHistories } from '../../../src/runtime/context-trimming';

const text = fc.string({ minLength: 1, maxLength: 400 }).map((value) => `t ${value}`);

/** One round: an assistant turn with calls, their results, then maybe a note or two (spend cap, wrap-up). */
const round = fc.record({
  calls: fc.array(fc.record({ name: fc.constantFrom('workspace_list', 'agent_await', 'chat_read'), result: text }), { minLength: 1, maxLength: 3 }),
  preamble: fc.option(text, { nil: undefined }),
  notes: fc.array(text, { maxLength: 2 }),
});

let callCounter = 0;

/** A history: system text, a chat that alternates and ends on the user, then rounds. */
const history = fc
  .record({ chat: fc.array(fc.tuple(text, text), { maxLength: 4 }), last: text, rounds: fc.array(round, { maxLength: 4 }), finalText: fc.option(text, { nil: undefined }) })
  .map(({ chat, last, rounds, finalText }) => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are Mira.' }];
    for (const [user, assistant] of chat) messages.push({ role: 'user', content: user }, { role: 'assistant', content: assistant });
    messages.push({ role: 'user', content: last });
    for (const { calls, preamble, notes } of rounds) {
      const ids = calls.map(() => `call_${(callCounter += 1)}`);
      messages.push({
        role: 'assistant',
        content: preamble ?? null,
        tool_calls: calls.map((call, index) => ({ id: ids[index] ?? '', type: 'function', function: { name: call.name, arguments: '{}' } })),
      });
      calls.forEach((call, index) => messages.push({ role: 'tool', tool_call_id: ids[index] ?? '', content: call.result }));
      for (const note of notes) messages.push({ role: 'user', content: note });
    }
    if (finalText !== undefined && messages.at(-1)?.role !== 'assistant') messages.push({ role: 'assistant', content: finalText });
    return messages;
  });

const listTool: ChatCompletionTool = { type: 'function', function: { name: 'workspace_list', description: 'List files.', parameters: { type: 'object', properties: {} } } };
const toolsOffered = fc.constantFrom<ChatCompletionTool[]>([], [listTool]);

describe('the prompted encoding', () => {
  test('leaves no native tool message, keeps every result, and the turns alternate after the system text', () => {
    fc.assert(
      fc.property(history, toolsOffered, (messages, tools) => {
        const encoded = encodeForPromptedTools(messages, tools);

        expect(encoded.some((message) => message.role === 'tool' || (message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0))).toBe(false);
        const roles = encoded.filter((message) => message.role !== 'system').map((message) => message.role);
        roles.forEach((role, index) => expect(role === roles[index - 1], `${roles.join(',')}`).toBe(false));
        const all = JSON.stringify(encoded);
        for (const message of messages) if (message.role === 'tool') expect(all).toContain(JSON.stringify(message.content).slice(1, -1));
        expect(JSON.stringify(encoded[0]?.content).includes('# Tools')).toBe(tools.length > 0);
      }),
    );
  });
});

describe('trimming', () => {
  test.each(['root', 'subagent'] as const)('%s: every step keeps the system text and the conversation it answers, and stays a valid history', (kind) => {
    fc.assert(
      fc.property(history, (messages) => {
        const firstUser = messages.find((message) => message.role === 'user');
        const firstRound = messages.findIndex((message) => message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0);
        const chatPart = firstRound < 0 ? messages : messages.slice(0, firstRound);
        const kept = kind === 'root' ? chatPart.filter((message) => message.role === 'user').at(-1) : firstUser;
        let previousSize = JSON.stringify(messages).length;
        for (const step of trimmedHistories(messages, kind)) {
          expect(step.messages.filter((message) => message.role === 'system')).toEqual(messages.filter((message) => message.role === 'system'));
          expect(step.messages).toContainEqual(kept);
          step.messages.forEach((message, index) => {
            if (message.role !== 'tool') return;
            const before = step.messages.slice(0, index).reverse().find((candidate) => candidate.role !== 'tool');
            expect(before?.role === 'assistant' && before.tool_calls?.some((call) => call.id === message.tool_call_id)).toBe(true);
          });
          const size = JSON.stringify(step.messages).length;
          expect(size).toBeLessThanOrEqual(previousSize);
          previousSize = size;
        }
      }),
    );
  });
});
