import { expect, test } from 'vitest';
import { isContextLengthRefusal, isToolsRefusal } from '../../../src/model/endpoint-refusals';

// A context-length refusal that counts the tool definitions in its sum: the prompt is too long; the
// endpoint takes tools. Read as a tools refusal, the endpoint would be switched to the prompted protocol
// (which makes the prompt longer still) instead of the run trimming its prompt.
test('a context-length refusal that names tools is a context-length refusal, not a tools refusal', () => {
  const refusal = {
    status: 400,
    text: "This model's maximum context length is 8192 tokens. However, you requested 9120 tokens (8650 in the messages, 470 in your tool use definitions). Please reduce the length of the messages.",
    param: 'messages',
    code: 'context_length_exceeded',
  };

  expect(isContextLengthRefusal(refusal)).toBe(true);
  expect(isToolsRefusal(refusal)).toBe(false);
});
