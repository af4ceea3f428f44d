import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { isContextLengthRefusal, isToolsRefusal, type EndpointRefusal } from '../../../src/model/endpoint-refusals';

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
