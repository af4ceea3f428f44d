import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  isContextLengthRefusal,
  isHistoryShapeRefusal,
  isStreamOptionsRefusal,
  isToolsRefusal,
  statedContextWindow,
  type EndpointRefusal,
} from '../../../src/model/endpoint-refusals';

const errorEntry = z.object({
  id: z.string(),
  status: z.number(),
  body: z.unknown(),
  truncatesSilently: z.boolean().optional(),
  refuses: z.boolean().optional(),
});

function load(file: string) {
  return z.array(errorEntry).parse(JSON.parse(readFileSync(new URL(`../../fixtures/corpora/${file}`, import.meta.url), 'utf8')));
}

/** The refusal as the model client sees it: the status, the error object's fields and the body as text. */
function refusalOf(entry: z.infer<typeof errorEntry>): EndpointRefusal {
  const body = typeof entry.body === 'string' ? entry.body : JSON.stringify(entry.body ?? '');
  const error = (entry.body as { error?: unknown } | null)?.error;
  const fields = typeof error === 'object' && error !== null ? (error as { param?: string | null; code?: string | number | null }) : {};
  return { status: entry.status, text: body, param: fields.param, code: fields.code };
}

// Bodies no classifier can read: silent truncation, no body found, and TabbyAPI's old "aborted" 503.
const UNRECOGNISABLE = new Set(['anthropic-openai-compat-endpoint', 'tabbyapi-context-length-legacy']);

describe('context-length refusals', () => {
  const entries = load('context-length-errors.json');
  test.each(entries.filter((entry) => !entry.truncatesSilently && !UNRECOGNISABLE.has(entry.id)).map((entry) => [entry.id, entry] as const))(
    '%s is a context-length refusal, not a tools refusal',
    (_id, entry) => {
      expect(isContextLengthRefusal(refusalOf(entry))).toBe(true);
      expect(isToolsRefusal(refusalOf(entry))).toBe(false);
    },
  );

  test('silent truncation and unreadable bodies are not taken for one', () => {
    for (const entry of entries.filter((candidate) => candidate.truncatesSilently || UNRECOGNISABLE.has(candidate.id))) {
      expect(isContextLengthRefusal(refusalOf(entry)), entry.id).toBe(false);
    }
  });
});

describe('tools refusals', () => {
  const entries = load('tools-unsupported-errors.json');
  test.each(entries.filter((entry) => entry.refuses !== false && entry.body !== null).map((entry) => [entry.id, entry] as const))(
    '%s refuses tools',
    (_id, entry) => {
      expect(isToolsRefusal(refusalOf(entry))).toBe(true);
      expect(isContextLengthRefusal(refusalOf(entry))).toBe(false);
    },
  );

  test('ordinary errors are neither', () => {
    for (const refusal of [
      { status: 404, text: 'The model `gpt-9` does not exist or you do not have access to it.' },
      { status: 401, text: 'Incorrect API key provided.' },
      { status: 400, text: 'Invalid value for temperature: 3' },
      { status: 503, text: 'Service Unavailable' },
    ]) {
      expect(isToolsRefusal(refusal), refusal.text).toBe(false);
      expect(isContextLengthRefusal(refusal), refusal.text).toBe(false);
    }
  });
});

/** The window each corpus refusal states, and the refused prompt's length where it says (no entry: it states none). */
const STATED_WINDOWS: Record<string, { windowTokens: number; promptTokens?: number; completionTokens?: number }> = {
  'openai-chat-messages-too-long': { windowTokens: 4097, promptTokens: 4294 },
  'openai-chat-messages-plus-completion': { windowTokens: 4097, promptTokens: 3120, completionTokens: 1000 },
  'azure-openai-messages-too-long': { windowTokens: 8192, promptTokens: 10383 },
  'azure-openai-configured-limit': { windowTokens: 272000, promptTokens: 509178 },
  'anthropic-messages-prompt-too-long': { windowTokens: 200000, promptTokens: 210503 },
  'openrouter-endpoint-max-context': { windowTokens: 32768, promptTokens: 42832 },
  'deepseek-context-length': { windowTokens: 131072, promptTokens: 122942, completionTokens: 8192 },
  'mistral-prompt-too-large': { windowTokens: 32768, promptTokens: 40000 },
  'llamacpp-exceed-context-current': { windowTokens: 4096, promptTokens: 5000 },
  'llamacpp-exceed-context-stream-2025-09': { windowTokens: 4096, promptTokens: 5000 },
  'vllm-context-length-legacy': { windowTokens: 4096, promptTokens: 4000, completionTokens: 1000 },
  'vllm-max-tokens-too-large-2025': { windowTokens: 4096, promptTokens: 2778, completionTokens: 8000 },
  'vllm-input-length-2026': { windowTokens: 4096, promptTokens: 11680 },
  'lmstudio-context-overflow-error': { windowTokens: 7866 },
  'tabbyapi-context-length-current': { windowTokens: 4096, promptTokens: 5000 },
};

describe('the window a context-length refusal states', () => {
  const entries = load('context-length-errors.json');
  test.each(entries.map((entry) => [entry.id, entry] as const))('%s', (id, entry) => {
    expect(statedContextWindow(refusalOf(entry).text)).toEqual(STATED_WINDOWS[id]);
  });

  test('a number elsewhere in the text is not taken for a window', () => {
    expect(statedContextWindow('Request 4096 failed after 3 tries: too many tokens')).toBeUndefined();
  });
});

/** Template refusals as servers sent them (each source linked). */
const HISTORY_SHAPE_REFUSALS: { source: string; refusal: EndpointRefusal }[] = [
  {
    source: 'Gemma 3 on vLLM, github.com/suitenumerique/conversations/issues/197',
    refusal: { status: 400, text: JSON.stringify({ error: { message: 'Conversation roles must alternate user/assistant/user/assistant/... Conversation roles must alternate user/assistant/user/assistant/...', type: 'BadRequestError', param: null, code: 400 } }) },
  },
  {
    source: 'Mistral on vLLM, github.com/vllm-project/vllm/issues/6862',
    refusal: { status: 400, text: JSON.stringify({ object: 'error', message: 'After the optional system message, conversation roles must alternate user/assistant/user/assistant/...', type: 'BadRequestError', param: null, code: 400 }) },
  },
  {
    source: 'Mistral Instruct on vLLM, github.com/microsoft/autogen/issues/1037',
    refusal: { status: 400, text: JSON.stringify({ object: 'error', message: 'Conversation roles must alternate user/assistant/user/assistant/...', type: 'invalid_request_error', param: null, code: null }) },
  },
  { source: 'llama.cpp with --jinja (template exception, 500)', refusal: { status: 500, text: JSON.stringify({ error: { code: 500, message: 'Conversation roles must alternate user/assistant/user/assistant/...', type: 'server_error' } }) } },
  { source: "Gemma 2's template", refusal: { status: 400, text: 'System role not supported' } },
  { source: 'Perplexity', refusal: { status: 400, text: 'After the (optional) system message(s), user and assistant roles should be alternating.' } },
];

describe('refusals of the history shape', () => {
  test.each(HISTORY_SHAPE_REFUSALS.map((entry) => [entry.source, entry.refusal] as const))('%s', (_source, refusal) => {
    expect(isHistoryShapeRefusal(refusal)).toBe(true);
    expect(isContextLengthRefusal(refusal)).toBe(false);
    expect(isStreamOptionsRefusal(refusal)).toBe(false);
  });

  test('no context-length or tools refusal of the corpus is one', () => {
    for (const entry of [...load('context-length-errors.json'), ...load('tools-unsupported-errors.json')]) {
      expect(isHistoryShapeRefusal(refusalOf(entry)), entry.id).toBe(false);
    }
  });
});

describe('refusals of stream_options', () => {
  test.each([
    ['Azure OpenAI, older API versions', { status: 400, text: 'Unrecognized request argument supplied: stream_options' }],
    ['a proxy, github.com/QuantumNous/new-api/issues/418', { status: 400, text: "Unknown parameter: 'stream_options'.", param: 'stream_options', code: 'unknown_parameter' }],
    ['pydantic, extra fields forbidden', { status: 422, text: '{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]}' }],
  ] as const)('%s', (_source, refusal) => {
    expect(isStreamOptionsRefusal(refusal)).toBe(true);
  });

  test('no refusal of the corpus is one, nor a server error that names it', () => {
    for (const entry of [...load('context-length-errors.json'), ...load('tools-unsupported-errors.json')]) {
      expect(isStreamOptionsRefusal(refusalOf(entry)), entry.id).toBe(false);
    }
    expect(isStreamOptionsRefusal({ status: 500, text: 'stream_options handler crashed' })).toBe(false);
  });
});
