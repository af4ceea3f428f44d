/**
 * The token estimate against exact `cl100k_base` counts (gpt-tokenizer, a dev dependency kept only
 * as this test's reference). The spend cap and the context trimming read the estimate when a
 * provider reports no usage; they can live with 15% on one prompt (the cap is a ceiling a user sets
 * with room to spare, and trimming keeps a margin of its own), and the error over many calls must
 * stay small so a day's spend is not drifting one way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../../../src/model/token-estimate';

const exact = (text: string): number => countTokens(text, { disallowedSpecial: new Set<string>() });
const relativeError = (text: string): number => (estimateTextTokens(text) - exact(text)) / exact(text);

function stringsOf(value: unknown, into: string[]): string[] {
  if (typeof value === 'string' && value.length > 0) into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

const corpusFolder = new URL('../../fixtures/corpora/', import.meta.url);
const corpusTexts = readdirSync(corpusFolder)
  .filter((name) => name.endsWith('.json'))
  .flatMap((name) => stringsOf(JSON.parse(readFileSync(new URL(name, corpusFolder), 'utf8')), []));

const chatTexts = [
  '../../fixtures/sillytavern/app.js',
  '../../fixtures/sillytavern/source-replies.js',
  '../../fixtures/openai-chat/app.js',
  '../../../public/_locales/en/messages.json',
  '../../../public/_locales/zh_CN/messages.json',
].map((path) => readFileSync(new URL(path, import.meta.url), 'utf8'));

const docsFolder = new URL('../../../docs/', import.meta.url);
const proseTexts = readdirSync(docsFolder)
  .filter((name) => name.endsWith('.md'))
  .map((name) => readFileSync(new URL(name, docsFolder), 'utf8'));

describe('the token estimate against cl100k_base', () => {
  it('over the whole corpus of tool calls, errors and reasoning is within 5%', () => {
    expect(corpusTexts.length).toBeGreaterThan(100);
    const estimated = corpusTexts.reduce((sum, text) => sum + estimateTextTokens(text), 0);
    const counted = corpusTexts.reduce((sum, text) => sum + exact(text), 0);

    expect(Math.abs(estimated - counted) / counted).toBeLessThan(0.05);
  });

  it('on each chat page, script and message table (English and Chinese) is within 15%', () => {
    for (const text of chatTexts) expect(Math.abs(relativeError(text))).toBeLessThan(0.15);
  });

  it('on each page of prose in docs/ is within 10%', () => {
    expect(proseTexts.length).toBeGreaterThan(5);
    for (const text of proseTexts) expect(Math.abs(relativeError(text))).toBeLessThan(0.1);
  });

  it('counts nothing as nothing and any text as at least one token', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('a')).toBeGreaterThanOrEqual(1);
    expect(estimateTextTokens('<|endoftext|>')).toBeGreaterThanOrEqual(1);
  });
});
