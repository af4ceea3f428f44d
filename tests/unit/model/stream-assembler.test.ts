import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { expect, test } from 'vitest';
import { StreamAssembler } from '../../../src/model/stream-assembler';

function chunk(delta: ChatCompletionChunk.Choice.Delta, finishReason: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk {
  return { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

test('calls that reuse index 0 with new ids stay separate, as some local servers send them', () => {
  const assembler = new StreamAssembler();
  for (const delta of [
    { tool_calls: [{ index: 0, id: 'a', function: { name: 'chat_read', arguments: '{"co' } }] },
    { tool_calls: [{ index: 0, function: { arguments: 'unt":1}' } }] },
    { tool_calls: [{ index: 0, id: 'b', function: { name: 'workspace_list', arguments: '{}' } }] },
    { reasoning_content: 'thinking' } as ChatCompletionChunk.Choice.Delta,
  ]) {
    assembler.add(chunk(delta));
  }
  assembler.add(chunk({}, 'tool_calls'));

  const actual = assembler.finish();

  expect(actual.message.tool_calls).toEqual([
    { id: 'a', type: 'function', function: { name: 'chat_read', arguments: '{"count":1}' } },
    { id: 'b', type: 'function', function: { name: 'workspace_list', arguments: '{}' } },
  ]);
  expect(actual.reasoning).toBe('thinking');
  expect(actual.finishReason).toBe('tool_calls');
});
