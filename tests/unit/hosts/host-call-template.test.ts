import { expect, test } from 'vitest';
import { hostCallBody, hostCallInit, hostCallTemplateBody } from '../../../src/hosts/host-call-template';

const pageBody = {
  type: 'normal',
  messages: [{ role: 'user', content: 'Hello' }],
  model: 'qwen3-8b',
  stream: true,
  temperature: 0.9,
  chat_completion_source: 'custom',
  custom_url: 'http://127.0.0.1:5001/v1',
  tools: [{ type: 'function', function: { name: 'page_tool' } }],
};

test("a host call keeps the page's headers, model and source, and brings its own messages and tools", () => {
  const callBody = {
    model: 'qwen3-8b',
    messages: [{ role: 'user', content: 'Briefing' }],
    tools: [{ type: 'function', function: { name: 'task_return' } }],
    stream: true,
    temperature: 0.2,
  };
  const actual = hostCallInit({ 'X-CSRF-Token': 'token-1', 'Content-Type': 'application/json', 'Content-Length': '99' }, hostCallBody(hostCallTemplateBody(pageBody), callBody));
  expect(actual.headers).toEqual({ 'X-CSRF-Token': 'token-1', 'content-type': 'application/json' });
  expect(actual.method).toBe('POST');
  expect(actual.credentials).toBe('same-origin');
  expect(JSON.parse(String(actual.body))).toEqual({
    type: 'normal',
    model: 'qwen3-8b',
    chat_completion_source: 'custom',
    custom_url: 'http://127.0.0.1:5001/v1',
    messages: callBody.messages,
    tools: callBody.tools,
    stream: true,
    temperature: 0.2,
  });
});

test("a call without tools does not inherit the page's tools, and an empty model keeps the page's", () => {
  const actual = hostCallBody(hostCallTemplateBody(pageBody), { model: '', messages: [], stream: false });
  expect(actual.tools).toBeUndefined();
  expect(actual.model).toBe('qwen3-8b');
});
