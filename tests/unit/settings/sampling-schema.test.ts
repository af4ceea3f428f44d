import { describe, expect, test } from 'vitest';
import { importAgentMarkdown } from '../../../src/settings/agent-markdown';
import { profileSchema, samplingSchema } from '../../../src/settings/schema';

const fullPreset = {
  temperature: 0,
  top_p: 0.9,
  top_k: 40,
  min_p: 0.05,
  frequency_penalty: 0.3,
  presence_penalty: -0.2,
  repetition_penalty: 1.1,
  max_tokens: 600,
  seed: 7,
  reasoning_effort: 'low',
} as const;

describe('an agent’s sampling', () => {
  test('takes every preset field', () => {
    expect(samplingSchema.parse(fullPreset)).toEqual(fullPreset);
  });

  test('older documents with temperature, top_p and max_tokens only still load unchanged', () => {
    const old = { temperature: 0.4, top_p: 1, max_tokens: 1200 };

    expect(samplingSchema.parse(old)).toEqual(old);
  });

  test.each([
    ['top_k', { top_k: 2.5 }],
    ['min_p', { min_p: 1.5 }],
    ['frequency_penalty', { frequency_penalty: 3 }],
    ['repetition_penalty', { repetition_penalty: -1 }],
    ['seed', { seed: -1 }],
    ['reasoning_effort', { reasoning_effort: 'max' }],
  ])('refuses a %s out of range, naming the field', (field, sampling) => {
    const result = samplingSchema.safeParse(sampling);

    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  test('refuses a field it does not know', () => {
    expect(samplingSchema.safeParse({ top_a: 0.2 }).success).toBe(false);
  });

  test('any binding takes it', () => {
    const base = { id: 'critic', name: 'Critic', description: 'Critiques.', systemPrompt: '' };
    for (const model of [
      { binding: 'host', sampling: fullPreset },
      { binding: 'hostProfile', profileName: 'Cheap helper', sampling: fullPreset },
      { binding: 'connection', connectionId: 'local', sampling: fullPreset },
    ]) {
      expect(profileSchema.parse({ ...base, model }).model).toEqual(model);
    }
  });

  test('an agent file sets them in its retinue block', () => {
    const text = `---
name: critic
description: Critiques a scene.
retinue:
  hostProfile: Cheap helper
  sampling: { temperature: 0, top_k: 40, min_p: 0.05, repetition_penalty: 1.1, seed: 7, reasoning_effort: low }
---
Critique.`;

    const result = importAgentMarkdown('critic.md', text);

    expect(result.ok && result.profile.model).toEqual({
      binding: 'hostProfile',
      profileName: 'Cheap helper',
      sampling: { temperature: 0, top_k: 40, min_p: 0.05, repetition_penalty: 1.1, seed: 7, reasoning_effort: 'low' },
    });
  });
});
