import { describe, expect, test } from 'vitest';
import { acceptedSamplingFields, OPENAI_COMPATIBLE, SAMPLING_FIELDS, splitSampling } from '../../../src/model/sampling-sources';
import { OPENAI_SHAPED_SOURCES } from '../../../src/hosts/sillytavern/openai-shaped-sources';

const everything = { temperature: 0.2, top_p: 0.9, top_k: 40, min_p: 0.05, frequency_penalty: 0.1, presence_penalty: 0.1, repetition_penalty: 1.1, max_tokens: 300, seed: 7, reasoning_effort: 'low' };

describe('per-source sampling', () => {
  test('an OpenAI-compatible endpoint gets OpenAI’s own fields; top_k, min_p and repetition_penalty are dropped and named', () => {
    const actual = splitSampling(everything, OPENAI_COMPATIBLE);

    expect(actual.kept).toEqual({ temperature: 0.2, top_p: 0.9, frequency_penalty: 0.1, presence_penalty: 0.1, max_tokens: 300, seed: 7, reasoning_effort: 'low' });
    expect(actual.dropped).toEqual(['top_k', 'min_p', 'repetition_penalty']);
  });

  test('SillyTavern’s OpenRouter source takes the extended samplers', () => {
    expect(splitSampling(everything, 'openrouter')).toEqual({ kept: everything, dropped: [] });
  });

  test('SillyTavern’s Custom source gets what SillyTavern sends it: no top_k, min_p or repetition_penalty', () => {
    expect(splitSampling(everything, 'custom').dropped).toEqual(['top_k', 'min_p', 'repetition_penalty']);
  });

  test('a source SillyTavern sends no seed or reasoning effort drops them', () => {
    expect(splitSampling({ temperature: 1, seed: 3, reasoning_effort: 'high' }, 'groq')).toEqual({ kept: { temperature: 1, seed: 3 }, dropped: ['reasoning_effort'] });
    expect(splitSampling({ seed: 3 }, 'deepseek')).toEqual({ kept: {}, dropped: ['seed'] });
  });

  test('every OpenAI-shaped SillyTavern source takes temperature, top_p, the penalties and max_tokens', () => {
    for (const source of OPENAI_SHAPED_SOURCES) {
      expect(acceptedSamplingFields(source), source).toEqual(expect.arrayContaining(['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'max_tokens']));
    }
  });

  test('fields left out stay out, and the order of what is kept follows the field list', () => {
    const actual = splitSampling({ max_tokens: 10, temperature: 0 }, 'openai');

    expect(Object.keys(actual.kept)).toEqual(['temperature', 'max_tokens']);
    expect(actual.dropped).toEqual([]);
    expect(SAMPLING_FIELDS).toHaveLength(10);
  });
});
