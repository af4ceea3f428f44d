import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { readAnswer } from '../../../src/model/checked-call';
import { createRootReplyStream, type ReplyStreamEvent } from '../../../src/runtime/reply-stream';
import { pageReplyText } from '../../support/page-reply-text';

/**
 * One reading of an answer: whatever the model writes and however it is cut into deltas, the text
 * the page ends with is the final reading's reply text (the stream gate and `readAnswer` read with
 * the same module), and the gate never lets out text that reading drops.
 */
const corpus = z
  .array(z.object({ id: z.string(), raw: z.string(), calls: z.array(z.object({ name: z.string() })) }))
  .parse(JSON.parse(readFileSync(new URL('../../fixtures/corpora/text-tool-calls.json', import.meta.url), 'utf8')));
const corpusToolNames = ['agent_delegate', 'agent_await', 'workspace_write', 'task_return'];

/** The page's text after one turn streamed in pieces of `size` characters, built as the page's writer builds it. */
function streamed(content: string, toolNames: readonly string[], size: number, helpersDone = true): { page: string; events: ReplyStreamEvent[]; recorded: string } {
  const events: ReplyStreamEvent[] = [];
  const stream = createRootReplyStream((event) => events.push(event), () => helpersDone);
  const turn = stream.startTurn(toolNames);
  for (let index = 0; index < content.length; index += size) turn.text(content.slice(index, index + size));
  const read = readAnswer({ message: { role: 'assistant', content }, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }, toolNames);
  turn.end((read.result.message.tool_calls?.length ?? 0) > 0);
  const page = pageReplyText(events);
  return { page, events, recorded: stream.pageReply(recordedText(content, toolNames)) };
}

function recordedText(content: string, toolNames: readonly string[]): string {
  const read = readAnswer({ message: { role: 'assistant', content }, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }, toolNames);
  return typeof read.result.message.content === 'string' ? read.result.message.content.trim() : '';
}

describe('the stream gate reads an answer as the final reading does', () => {
  test.each([
    ['bare </think> reasoning (QwQ, R1 distills), closed within the opening', 'The user said hello.</think>\n\nHello! How can I help?', ['agent_await']],
    ['a harmony analysis before the reply (gpt-oss)', '<|channel|>analysis<|message|>User says hello. Reply briefly.<|end|>Hello there, traveller. What brings you here?', []],
    ['a Command R thinking block', '<|START_THINKING|>Be brief.<|END_THINKING|>Hello there. Welcome back.', []],
    ['a text call in a wrap-up that offered no tools', 'Here is the scene so far. <tool_call>{"name": "agent_await", "arguments": {}}</tool_call> That is all.', []],
    ['a JSON call on its own line after a sentence', 'I will wait for the critic.\n{"name": "agent_await", "arguments": {"mode": "allCompleted"}}', ['agent_await']],
    ['a JSON example in prose, naming no offered tool', 'A call looks like this:\n{"name": "get_weather", "arguments": {"city": "Paris"}}', ['agent_await']],
  ])('%s: the page ends with the recorded reply, at every delta size', (_name, content, toolNames) => {
    for (const size of [1, 3, 7, 1000]) {
      const { page, events } = streamed(content, toolNames, size, toolNames.length === 0);
      const recorded = recordedText(content, toolNames);
      const calls = (readAnswer({ message: { role: 'assistant', content }, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }, toolNames).result.message.tool_calls ?? []).length;
      if (calls === 0) expect(page).toBe(recorded);
      else expect(events.some((event) => event.kind === 'reply-delta' && event.text.includes('{'))).toBe(false);
      expect(page).not.toContain('</think>');
      expect(page).not.toContain('<|');
      expect(page).not.toContain('<tool_call>');
    }
  });

  test('bare </think> reasoning that comes after the gate let text out stays on the page, and the record takes the page', () => {
    const content = 'Okay, the user said hello. Keep it short.\n</think>\n\nHello! How can I help?';
    const { page, recorded } = streamed(content, [], 4);
    expect(recorded).toBe(page);
    expect(page.endsWith('Hello! How can I help?')).toBe(true);
    expect(page).not.toContain('</think>');
  });

  test.each(corpus.map((entry) => [entry.id, entry.raw] as const))('corpus %s: the gate lets out no call text, and the page ends with the recorded reply', (_id, raw) => {
    for (const [toolNames, helpersDone] of [[corpusToolNames, false], [corpusToolNames, true], [[], true]] as const) {
      const { page, recorded } = streamed(raw, toolNames, 5, helpersDone);
      const read = readAnswer({ message: { role: 'assistant', content: raw }, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }, toolNames);
      const calls = read.result.message.tool_calls ?? [];
      // A turn that calls tools is no reply: what it showed stays as a preamble, without the call.
      if (calls.length === 0) expect(page).toBe(recorded);
      for (const call of calls) expect(page).not.toContain(call.type === 'function' ? call.function.name : '\u0000');
    }
  });

  test.each(corpus.filter((entry) => entry.calls.length > 0).map((entry) => [entry.id, entry.raw] as const))('corpus %s embedded in prose to a user who asked for an example is no call when its tool is not offered', (_id, raw) => {
    const content = `Sure, here is what such a call looks like:\n${raw}\nThat is the whole format.`;
    const read = readAnswer({ message: { role: 'assistant', content }, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }, ['chat_read']);
    const bareJson = /^\s*(?:\{|\[\s*\{|```)/.test(raw);
    if (bareJson) expect(read.result.message.tool_calls ?? []).toEqual([]);
  });
});
